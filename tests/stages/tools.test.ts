// A round with label.tools, end to end with the real tiny models, the real segmenter and a real SQLite file: tool
// verdicts stored as labels of the round's verdict set, each with its source; the knowledge cache; calibration and
// `eval --tools` through the built CLI.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { loadConfig } from '../../src/config/load.js';
import { getVerdictSet, openDb, type Db } from '../../src/store/index.js';
import { checkStatement, parseTruth, questionForm } from '../../src/shapes/index.js';
import { runDemoRound } from '../helpers/round.js';
import { DEFAULT_MODELS, LISTER, TestServer } from '../../scripts/mimic/openai-server.js';
import { serverBackend } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round here (tests/helpers/file-pool.ts).
const pool = filePool();

const ROUTING = { count: 'segmenter', exists: 'segmenter', not_exists: 'labeler', position: 'masks' } as const;

describe('a round with label.tools', () => {
  let db: Db;
  let file: string;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    const r = await runDemoRound({
      limit: 12,
      pool: pool(),
      dbFile: path.join(dir, 'tools.sqlite'),
      edit: (c) => {
        c.label.tools = [
          { type: 'shapes-segmenter', name: 'masks', shape_heuristic: false },
          { type: 'shapes-segmenter', name: 'segmenter', shape_heuristic: true },
        ];
        c.label.routing = { ...ROUTING };
      },
    });
    db = r.db;
    file = r.file;
  });
  afterAll(() => db?.close());

  it('stores each question\'s verdict under the round\'s verdict set, decided by the routed tool or the labeler', () => {
    const round = db.prepare('SELECT labeler_model FROM rounds').get() as { labeler_model: string };
    const vs = getVerdictSet(db, round.labeler_model)!;
    expect(vs.labeler).toContain('shapes-labeler');
    expect(JSON.parse(vs.routing_json)).toEqual(ROUTING);
    const rows = db
      .prepare(
        `SELECT q.text, i.id AS image, l.p_yes, l.p_no, l.source, own.p_yes AS own_yes, own.p_no AS own_no, p.meta_json
         FROM labels l JOIN questions q ON q.id = l.question_id JOIN images i ON i.id = q.image_id
         JOIN labels own ON own.question_id = l.question_id AND own.labeler = ?
         JOIN prompts p ON p.image_id = i.id
         WHERE l.labeler = ? GROUP BY q.id`,
      )
      .all(vs.labeler, round.labeler_model) as { text: string; p_yes: number; p_no: number; source: string; own_yes: number; own_no: number; meta_json: string }[];
    expect(rows.length).toBeGreaterThan(20);
    const sources = new Set<string>();
    for (const r of rows) {
      const form = questionForm(r.text);
      sources.add(r.source);
      const routed = (ROUTING as Record<string, string>)[form] ?? 'labeler';
      if (r.source === 'labeler') {
        // The labeler decides: its own row, copied. A routed tool that cannot tell also leaves it to the labeler.
        expect([r.p_yes, r.p_no]).toEqual([r.own_yes, r.own_no]);
        if (routed === 'segmenter') throw new Error(`the segmenter with shapes always knows: ${r.text}`);
      } else {
        expect(r.source).toBe(routed);
        const truth = parseTruth((JSON.parse(r.meta_json) as { truth: unknown }).truth);
        // The segmenter is right on every object of these renders, so its verdict is the truth.
        expect(r.p_yes === 1 ? 'true' : 'false', r.text).toBe(checkStatement(truth, r.text));
        expect(r.p_yes + r.p_no).toBe(1);
      }
    }
    // masks decides the position claims whose referent its colours, sizes and cells settle (e.g. no such colour).
    expect([...sources].sort()).toEqual(['labeler', 'masks', 'segmenter']);
  });

  it('makes each tool\'s knowledge once per image and reuses it in a new round', async () => {
    const n = (db.prepare('SELECT COUNT(*) AS n FROM tool_knowledge').get() as { n: number }).n;
    const images = (db.prepare('SELECT COUNT(DISTINCT image_id) AS n FROM prompts').get() as { n: number }).n;
    // Only routed tools are asked: masks (position) and segmenter (count, exists); position claims may be absent.
    expect(n).toBeGreaterThanOrEqual(images);
    expect(n).toBeLessThanOrEqual(2 * images);
    const { config } = loadConfig(undefined, { db: file, workers: 2 });
    config.label.tools = [
      { type: 'shapes-segmenter', name: 'masks', shape_heuristic: false },
      { type: 'shapes-segmenter', name: 'segmenter', shape_heuristic: true },
    ];
    config.label.routing = { ...ROUTING };
    const before = db.prepare('SELECT tool, image_id, created_at FROM tool_knowledge ORDER BY tool, image_id').all();
    await runRound(config, { choice: 'next', stages: STAGES, limit: 12, pool: pool() });
    expect(db.prepare('SELECT tool, image_id, created_at FROM tool_knowledge ORDER BY tool, image_id').all()).toEqual(before);
  });

  it('scores and pairs by the verdict set: every stored score is the one its verdicts give', () => {
    const bad = db
      .prepare(
        `SELECT s.candidate_id FROM scores s JOIN rounds r ON r.id = s.round_id
         WHERE s.n_rejected != (SELECT COUNT(*) FROM claims cl JOIN labels l ON l.question_id = cl.question_id AND l.labeler = r.labeler_model
                                WHERE cl.candidate_id = s.candidate_id AND l.p_yes <= l.p_no)`,
      )
      .all();
    expect(bad).toEqual([]);
  });

  it('eval reports accuracy by form and by source, with the labeler alone beside it', async () => {
    const r = await runNode(['eval', '--db', file, '--round', '1', '--json']);
    expect(r.stderr).toBe('');
    const e = JSON.parse(r.stdout) as { label: { by_form: Record<string, { n: number; by_source: Record<string, { n: number; accuracy: number }>; labeler_alone?: { n: number } }> } };
    const count = e.label.by_form.count!;
    expect(Object.keys(count.by_source)).toEqual(['segmenter']);
    expect(count.by_source.segmenter).toEqual({ n: count.n, accuracy: 1 });
    expect(count.labeler_alone!.n).toBe(count.n);
    expect(Object.keys(e.label.by_form.not_exists?.by_source ?? { labeler: 1 })).toEqual(['labeler']);
  });
});

describe('calibrate-tools and eval --tools (built CLI)', () => {
  let dir: string;
  let dev: string;
  let test: string;
  beforeAll(async () => {
    dir = tempDir();
    dev = (await runDemoRound({ limit: 10, dbFile: path.join(dir, 'dev.sqlite'), pool: pool() })).file;
    test = (await runDemoRound({ limit: 10, dbFile: path.join(dir, 'test.sqlite'), pool: pool(), overrides: { prompts: 'data/shapes/test/prompts.jsonl' } })).file;
    writeFileSync(path.join(dir, 'tools.json'), JSON.stringify({ label: { tools: [{ type: 'shapes-segmenter', name: 'masks' }] } }));
  });

  // The routing file eval --tools reads: made by the first test that needs it, whichever runs first, and shared.
  let calibration: Promise<CliResult> | undefined;
  const calibrate = () =>
    (calibration ??= runNode(['calibrate-tools', '--config', path.join(dir, 'tools.json'), '--db', dev, '--out', path.join(dir, 'routing.json'), '--json']));

  it('calibrates on dev and refuses test', async () => {
    const ok = await calibrate();
    expect(ok.stderr).toBe('');
    const c = JSON.parse(ok.stdout) as { routing: Record<string, string>; forms: Record<string, { claims: number; labeler: number; tools: Record<string, { decided: number; accuracy: number }> }>; calibrated_on: { split: string } };
    expect(c.calibrated_on.split).toBe('dev');
    for (const [form, f] of Object.entries(c.forms)) {
      // The rule: the tool when it decides some claims and is at least as accurate as the labeler alone.
      const t = f.tools.masks!;
      expect(c.routing[form], form).toBe(t.decided > 0 && t.accuracy >= f.labeler ? 'masks' : 'labeler');
    }
    const no = await runNode(['calibrate-tools', '--config', path.join(dir, 'tools.json'), '--db', test]);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/test split; calibrate on dev/);
  });

  it('eval --tools recomputes a stored round with tool verdicts and changes nothing stored', async () => {
    expect((await calibrate()).code).toBe(0);
    writeFileSync(path.join(dir, 'routed.json'), JSON.stringify({ label: { tools: [{ type: 'shapes-segmenter', name: 'masks' }], routing: 'routing.json' } }));
    const before = await runNode(['sql', '--db', test, 'SELECT COUNT(*) AS n, SUM(p_yes) AS s FROM labels', '--json']);
    const r = await runNode(['eval', '--config', path.join(dir, 'routed.json'), '--db', test, '--tools', '--json']);
    expect(r.stderr).toBe('');
    const e = JSON.parse(r.stdout) as { label: { by_form: Record<string, { by_source: Record<string, unknown> }> }; tools: { label: { by_form: Record<string, { n: number; by_source: Record<string, { n: number }>; labeler_alone: { n: number } }> } } };
    expect(Object.keys(e.label.by_form.count!.by_source)).toEqual(['labeler']);
    const t = e.tools.label.by_form.count!;
    expect(t.by_source.masks!.n).toBeGreaterThan(0);
    expect(Object.values(t.by_source).reduce((a, x) => a + x.n, 0)).toBe(t.n);
    expect(t.labeler_alone.n).toBe(t.n);
    const after = await runNode(['sql', '--db', test, 'SELECT COUNT(*) AS n, SUM(p_yes) AS s FROM labels', '--json']);
    expect(after.stdout).toBe(before.stdout);
    const text = await runNode(['eval', '--config', path.join(dir, 'routed.json'), '--db', test, '--tools']);
    expect(text.stdout).toMatch(/with tools \(masks: shapes-segmenter@1; routing .*count -> masks/);
    expect(text.stdout).toMatch(/labeler alone/);
  });
});

describe('a round with the served vlm tool deciding counts', () => {
  let srv: TestServer;
  let db: Db;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...LISTER } });
    db = (
      await runDemoRound({
        limit: 6,
        pool: pool(),
        dbFile: path.join(tempDir(), 'vlm.sqlite'),
        edit: (c) => {
          c.label.tools = [{ type: 'vlm', name: 'vlm', backend: serverBackend(srv.url, 'lister'), prompt: 'List every object with its colour and position.', max_tokens: 256 }];
          c.label.routing = { count: 'vlm' };
        },
      })
    ).db;
  });
  afterAll(async () => {
    db?.close();
    await srv?.close();
  });

  it('asks the server once per image, stores its count verdicts with source vlm, and records its usage', () => {
    const images = (db.prepare('SELECT COUNT(DISTINCT image_id) AS n FROM prompts').get() as { n: number }).n;
    expect(srv.stats.byModel.lister).toBe(images);
    expect((db.prepare("SELECT COUNT(*) AS n FROM tool_knowledge WHERE tool LIKE 'vlm:lister@%'").get() as { n: number }).n).toBe(images);
    const rows = db.prepare("SELECT q.text, l.source FROM labels l JOIN questions q ON q.id = l.question_id WHERE l.labeler LIKE '%+tools:%'").all() as { text: string; source: string }[];
    for (const r of rows) expect(r.source, r.text).toBe(questionForm(r.text) === 'count' ? 'vlm' : 'labeler');
    expect(rows.some((r) => r.source === 'vlm')).toBe(true);
    const usage = db.prepare("SELECT stage, requests FROM usage WHERE stage = 'label'").all() as { requests: number }[];
    expect(usage.reduce((a, u) => a + u.requests, 0)).toBe(images);
  });
});
