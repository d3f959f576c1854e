// Correction pairs (pair.corrections) on real rounds: tiny models, worker pool, SQLite files. A corrected answer goes
// through divide, label and score; it is chosen over its original only when the labeler rejects fewer of its claims;
// the rank pairs stay exactly what a round without corrections makes; every figure about the policy's own samples
// leaves the corrected answers out; pulls, eval and the report's browser know the kind.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { launchChromium, loadFile } from '../helpers/browser.js';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { roundStats, type Db, type RoundRow } from '../../src/store/index.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { evaluateRound } from '../../src/eval/report.js';
import { pct, renderReport } from '../../src/eval/render.js';
import { judgeRound } from '../../src/eval/truth.js';
import { roundOnPolicy } from '../../src/eval/on-policy.js';
import { pull } from '../../src/export/pull.js';
import { buildReport } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import type { Config } from '../../src/config/schema.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round here (tests/helpers/file-pool.ts).
const pool = filePool();

const LIMIT = 40;
let plain: { db: Db; round: RoundRow };
let fixed: { db: Db; round: RoundRow; config: Config; file: string };
let only: { db: Db; round: RoundRow };

beforeAll(async () => {
  plain = await runDemoRound({ limit: LIMIT, pool: pool() });
  fixed = await runDemoRound({ limit: LIMIT, pool: pool(), edit: (c) => (c.pair.corrections = ['drop', 'overwrite']) });
  only = await runDemoRound({
    limit: LIMIT,
    pool: pool(),
    edit: (c) => {
      c.pair.corrections = ['overwrite'];
      c.pair.rank_pairs = false;
      c.pair.reference_logprobs = true;
    },
  });
});

afterAll(() => {
  for (const r of [plain, fixed, only]) r?.db.close();
});

type PairDb = { id: string; chosen_id: string; rejected_id: string; balance_kept: number; kind: string; editor: string | null };
const pairsOf = (db: Db, kind: string) =>
  db.prepare('SELECT id, chosen_id, rejected_id, balance_kept, kind, editor FROM pairs WHERE kind = ? ORDER BY id').all(kind) as PairDb[];
const count = (db: Db, sql: string) => (db.prepare(sql).get() as { n: number }).n;

describe('correction pairs in a round', () => {
  test('the rank pairs and their length balance are exactly those of the same round without corrections', () => {
    const a = pairsOf(plain.db, 'rank');
    expect(a.length).toBeGreaterThan(20);
    expect(pairsOf(fixed.db, 'rank')).toEqual(a);
    expect(pairsOf(plain.db, 'correction')).toEqual([]);
  });

  test('each corrected answer is a candidate that names its original, editor and edits, and went through divide, label and score', () => {
    const rows = fixed.db
      .prepare(
        `SELECT c.id, c.prompt_id, c.sample_index, c.text, c.editor, c.edits_json, o.prompt_id AS o_prompt, o.text AS o_text,
           o.corrects_id AS o_corrects, s.n_claims, (SELECT COUNT(*) FROM divisions d WHERE d.candidate_id = c.id) AS divided
         FROM candidates c JOIN candidates o ON o.id = c.corrects_id LEFT JOIN scores s ON s.candidate_id = c.id`,
      )
      .all() as { id: string; prompt_id: string; sample_index: number; text: string; editor: string; edits_json: string; o_prompt: string; o_text: string; o_corrects: string | null; n_claims: number | null; divided: number }[];
    expect(new Set(rows.map((r) => r.editor))).toEqual(new Set(['drop', 'overwrite']));
    for (const r of rows) {
      expect(r.sample_index).toBeLessThan(0);
      expect(r.o_prompt).toBe(r.prompt_id);
      expect(r.o_corrects).toBeNull(); // an original is always a sampled answer
      expect(r.text).not.toBe(r.o_text);
      expect(r.divided).toBe(1);
      expect(r.n_claims).not.toBeNull();
      const edits = JSON.parse(r.edits_json) as { old: string; new: string | null }[];
      expect(edits.length).toBeGreaterThan(0);
      for (const e of edits) {
        expect(r.o_text).toContain(e.old);
        if (r.editor === 'drop') expect(e.new).toBeNull();
        if (e.new !== null) expect(r.text).toContain(e.new);
      }
    }
  });

  test('a correction pair: the corrected answer over its own original, with fewer rejected claims (none, or pair.diff fewer)', () => {
    const pairs = fixed.db
      .prepare(
        `SELECT pr.kind, pr.editor, ch.editor AS ch_editor, ch.corrects_id, pr.rejected_id, sc.n_rejected AS c_rej, sr.n_rejected AS r_rej,
           sc.n_judged = sc.n_claims AS judged, pr.balance_kept
         FROM pairs pr JOIN candidates ch ON ch.id = pr.chosen_id JOIN scores sc ON sc.candidate_id = pr.chosen_id
         JOIN scores sr ON sr.candidate_id = pr.rejected_id WHERE pr.kind = 'correction'`,
      )
      .all() as { editor: string; ch_editor: string; corrects_id: string; rejected_id: string; c_rej: number; r_rej: number; judged: number; balance_kept: number }[];
    expect(pairs.filter((p) => p.editor === 'overwrite').length).toBeGreaterThan(5);
    expect(pairs.filter((p) => p.editor === 'drop').length).toBeGreaterThan(0);
    for (const p of pairs) {
      expect(p.editor).toBe(p.ch_editor);
      expect(p.rejected_id).toBe(p.corrects_id);
      expect(p.c_rej === 0 || p.r_rej - p.c_rej >= fixed.config.pair.diff).toBe(true);
      expect(p.r_rej).toBeGreaterThan(0);
      expect(p.judged).toBe(1);
      // Length balance weighs rank pairs only: a correction's length change is its edit.
      expect(p.balance_kept).toBe(1);
    }
    // At most max_pairs correction pairs per prompt.
    const perPrompt = fixed.db.prepare("SELECT MAX(n) AS n FROM (SELECT COUNT(*) AS n FROM pairs WHERE kind = 'correction' GROUP BY prompt_id)").get() as { n: number };
    expect(perPrompt.n).toBeLessThanOrEqual(2);
  });

  test("stats and the views count the policy's samples only; corrections are reported apart", () => {
    const s = roundStats(fixed.db, fixed.round.id);
    const p = roundStats(plain.db, plain.round.id);
    expect(s.candidates).toBe(LIMIT * 10);
    for (const k of ['candidates', 'divided', 'claims', 'questions', 'labeled', 'rejected_claims', 'scored'] as const) expect(s[k]).toBe(p[k]);
    expect(count(fixed.db, 'SELECT COUNT(*) AS n FROM v_answers')).toBe(LIMIT * 10);
    expect((fixed.db.prepare('SELECT answers FROM v_rounds').get() as { answers: number }).answers).toBe(LIMIT * 10);
    const corrected = count(fixed.db, "SELECT COUNT(*) AS n FROM candidates WHERE editor = 'overwrite'");
    expect(s.corrections.overwrite!.answers).toBe(corrected);
    expect(s.corrections.overwrite!.pairs).toBe(pairsOf(fixed.db, 'correction').filter((x) => x.editor === 'overwrite').length);
    expect(count(fixed.db, 'SELECT COUNT(*) AS n FROM v_corrections')).toBe(count(fixed.db, 'SELECT COUNT(*) AS n FROM candidates WHERE corrects_id IS NOT NULL'));
    expect(p.corrections).toEqual({});
  });

  test('running the round again adds nothing', async () => {
    const before = ['candidates', 'pairs', 'claims', 'divisions', 'scores'].map((t) => count(fixed.db, `SELECT COUNT(*) AS n FROM ${t}`));
    const { config } = loadConfig(undefined, { db: fixed.file, seed: 0, workers: 2 });
    config.pair.corrections = ['drop', 'overwrite'];
    await runRound(config, { choice: 'latest', stages: STAGES, limit: LIMIT, pool: pool() });
    expect(['candidates', 'pairs', 'claims', 'divisions', 'scores'].map((t) => count(fixed.db, `SELECT COUNT(*) AS n FROM ${t}`))).toEqual(before);
  });

  test('eval: per editor, corrected answers and chosen sides judged by the truth, and true claims lost', () => {
    const r = loadEvalRound(fixed.db, fixed.round.id);
    expect(r.prompts.every((p) => p.answers.length === 10)).toBe(true);
    const report = evaluateRound(r);
    const c = report.corrections;
    const truths = judgeRound(r);
    for (const editor of ['drop', 'overwrite']) {
      const kept = pairsOf(fixed.db, 'correction').filter((x) => x.editor === editor && x.balance_kept === 1);
      expect(c[editor]!.pairs).toBe(kept.length);
      const free = kept.filter((x) => truths.get(x.chosen_id)!.nFalse === 0).length;
      expect(c[editor]!.chosen_false_free).toBeCloseTo(free / kept.length, 12);
      expect(c[editor]!.true_claims_lost).toBeGreaterThanOrEqual(0);
    }
    // The text report has one line per editor with the same figures.
    const text = renderReport(report);
    expect(text).toContain(`corrections by overwrite: ${c.overwrite!.answers} corrected answers, ${pct(c.overwrite!.answers_false_free)} free of false claims; ${c.overwrite!.pairs} kept pairs`);
    // drop can only remove: its chosen sides have no more false claims than their originals, and lose true ones.
    expect(c.drop!.chosen_false!).toBeLessThanOrEqual(c.drop!.original_false!);
    expect(report.check!.pairs_match).toBe(true);
  });

  test('rank_pairs false: the round pairs only corrections', () => {
    expect(pairsOf(only.db, 'rank')).toEqual([]);
    const c = pairsOf(only.db, 'correction');
    expect(c.length).toBeGreaterThan(5);
    expect(new Set(c.map((x) => x.editor))).toEqual(new Set(['overwrite']));
    expect(evaluateRound(loadEvalRound(only.db, only.round.id)).check).toBeNull();
  });

  test('reference log-probs: both sides of a correction pair have them; the on-policy check ranks a corrected answer among the samples only', () => {
    const kept = only.db.prepare("SELECT id, chosen_id, rejected_id FROM pairs WHERE kind = 'correction' AND balance_kept = 1").all() as { id: string; chosen_id: string; rejected_id: string }[];
    const has = only.db.prepare('SELECT COUNT(*) AS n FROM answer_logprobs WHERE candidate_id = ?');
    for (const p of kept) for (const id of [p.chosen_id, p.rejected_id]) expect((has.get(id) as { n: number }).n).toBe(1);
    const check = roundOnPolicy(only.db, only.round.id)!;
    expect(check.checks).toHaveLength(kept.length);
    // The siblings are the prompt's 10 samples, never another corrected answer of the prompt.
    for (const c of check.checks) expect(c.siblings).toBe(10);
  });

  test('a pull in the rlaifv format: correction rows carry kind, editor and edits; rank rows are as before', async () => {
    const out = path.join(tempDir(), 'pairs.jsonl');
    await pull(fixed.db, { consumer: 't', format: 'rlaifv', out, rounds: 'all' }, fixed.file);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const kept = count(fixed.db, 'SELECT COUNT(*) AS n FROM pairs WHERE balance_kept = 1');
    expect(rows).toHaveLength(kept);
    const corr = rows.filter((r) => r.kind === 'correction');
    expect(corr).toHaveLength(count(fixed.db, "SELECT COUNT(*) AS n FROM pairs WHERE balance_kept = 1 AND kind = 'correction'"));
    for (const r of corr) {
      expect(['drop', 'overwrite']).toContain(r.editor);
      const edits = r.edits as { old: string; new: string | null }[];
      for (const e of edits) expect(r.rejected as string).toContain(e.old);
    }
    for (const r of rows.filter((x) => x.kind === undefined)) expect(Object.keys(r)).not.toContain('edits');
  });

  test("the report's pair browser filters by pair kind and shows a correction's edit as a diff", async () => {
    const file = path.join(tempDir(), 'report.html');
    writeFileAtomic(file, buildReport(fixed.db, fixed.round.id, { pairs: 1000 }));
    let browser: Browser | null = null;
    try {
      browser = await launchChromium();
      const p = await loadFile(browser, file);
      // The counts table: each editor's corrected answers and correction pairs, as stats has them.
      const stats = roundStats(fixed.db, fixed.round.id);
      for (const e of ['drop', 'overwrite']) {
        expect(await p.page.textContent(`#counts tr[data-key="correction_pairs_${e}"] td`)).toBe(String(stats.corrections[e]!.pairs));
        expect(await p.page.textContent(`#counts tr[data-key="corrections_${e}"] td`)).toBe(String(stats.corrections[e]!.answers));
      }
      await p.page.click('#pb-pair button[data-value="correction"]');
      const shown = await p.page.$$eval('article.pair:not([hidden])', (as) => as.map((a) => a.getAttribute('data-pair-id')!));
      const corr = pairsOf(fixed.db, 'correction');
      expect(shown.sort()).toEqual(corr.map((x) => x.id).sort());
      const one = corr.find((x) => x.editor === 'overwrite')!;
      const edits = JSON.parse((fixed.db.prepare('SELECT edits_json FROM candidates WHERE id = ?').get(one.chosen_id) as { edits_json: string }).edits_json) as { sentence: number; old: string; new: string | null }[];
      const card = p.page.locator(`article[data-pair-id="${one.id}"]`);
      expect(await card.locator('.badge.correction').textContent()).toBe('correction by overwrite');
      expect(await card.locator('.edit del').allTextContents()).toEqual(edits.map((e) => `− [${e.sentence + 1}] ${e.old}`));
      expect(await card.locator('.edit ins').allTextContents()).toEqual(edits.map((e) => (e.new === null ? '+ (dropped)' : `+ ${e.new}`)));
      await p.page.click('#pb-pair button[data-value="rank"]');
      expect(await p.page.locator('article.pair:not([hidden]) .edit').count()).toBe(0);
      expect(p.errors).toEqual([]);
    } finally {
      await browser?.close();
    }
  });
});

describe('pair.corrections config', () => {
  test('needs the divide method, and rank_pairs false needs an editor', () => {
    const file = path.join(tempDir(), 'c.json');
    const bad = (cfg: unknown) => {
      writeFileAtomic(file, JSON.stringify(cfg));
      return () => loadConfig(file);
    };
    expect(bad({ feedback: { method: 'holistic' }, pair: { corrections: ['drop'] } })).toThrow(ConfigError);
    expect(bad({ feedback: { method: 'holistic' }, pair: { corrections: ['drop'] } })).toThrow(/pair\.corrections.*feedback\.method "divide"/);
    expect(bad({ pair: { rank_pairs: false } })).toThrow(/rank_pairs: false leaves a round with no pairs/);
    expect(bad({ pair: { corrections: ['drop', 'drop'] } })).toThrow(/each editor once/);
    expect(bad({ pair: { corrections: ['rewrite'] } })).toThrow(/pair\.corrections/);
  });
});
