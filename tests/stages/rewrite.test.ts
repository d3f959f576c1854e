// The `llm` correction editor against a real HTTP server on 127.0.0.1 whose rewriter is made of real parts (the rules
// divider and the real tiny policy; scripts/mimic/openai-server.ts REWRITER); the round's policy and labeler are the
// local tiny models. A rewrite is verified like any answer: it is chosen only when the labeler rejects fewer claims.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/load.js';
import { configSchema, REWRITE_PROMPT } from '../../src/config/schema.js';
import { checkRewriter } from '../../src/doctor/endpoints.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, roundStats } from '../../src/store/index.js';
import { parseRewrite, sentenceEdits } from '../../src/methods/rewriter.js';
import { DEFAULT_MODELS, REWRITER, TestServer } from '../../scripts/mimic/openai-server.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round and the server here (tests/helpers/file-pool.ts).
const pool = filePool();

describe('parseRewrite and sentenceEdits', () => {
  test.each([
    ['There is a red circle.', 'There is a red circle.'],
    ['  Rewritten answer: There is a red circle.\n', 'There is a red circle.'],
    ['Here is the revised answer: "There is a red circle."', 'There is a red circle.'],
    ['“There is a red circle.”', 'There is a red circle.'],
  ])('%j → %j', (reply, want) => expect(parseRewrite(reply)).toBe(want));
  test('an empty reply is no rewrite', () => {
    expect(parseRewrite('  ')).toBeNull();
    expect(parseRewrite('Revised answer: ""')).toBeNull();
  });
  test('edits: runs of changed sentences, at the first changed index, with the rejected claims they held', () => {
    const rejected = new Map([['There is a cat.', ['c1']]]);
    expect(sentenceEdits('There is a red circle. There is a cat. There is a star.', 'There is a red circle. There is a dog. There is a star.', rejected)).toEqual([
      { sentence: 1, old: 'There is a cat.', new: 'There is a dog.', claim_ids: ['c1'] },
    ]);
    expect(sentenceEdits('There is a red circle. There is a cat.', 'There is a red circle.', rejected)).toEqual([
      { sentence: 1, old: 'There is a cat.', new: null, claim_ids: ['c1'] },
    ]);
    expect(sentenceEdits('A b. C d.', 'A b. C d.', rejected)).toEqual([]);
  });
});

describe('a round with the llm editor', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...REWRITER } });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('rewrites are asked once per answer with a rejected claim, verified, paired; a rewrite that keeps failing costs only its answer', async () => {
    const db = path.join(tempDir(), 'llm.sqlite');
    const file = path.join(tempDir(), 'llm.json');
    writeFileSync(
      file,
      JSON.stringify({
        db,
        pair: {
          corrections: ['llm'],
          rewriter: { backend: { type: 'openai', model: 'rewriter', base_urls: [srv.url], max_retries: 1, min_backoff_ms: 10, max_backoff_ms: 20 } },
        },
      }),
    );
    const { config } = loadConfig(file, { workers: 2 });
    const limit = 12;
    // Every attempt at the answers of one prompt fails: their rewrites are failures, the prompt is still paired.
    const { round: r0 } = await runRound(config, { choice: 'next', stages: ['generate', 'divide', 'label', 'score'], limit, pool: pool() });
    const h0 = openDb(db);
    const victim = h0
      .prepare(
        `SELECT c.text FROM scores s JOIN candidates c ON c.id = s.candidate_id WHERE s.round_id = ? AND s.n_rejected > 0
         GROUP BY c.text HAVING COUNT(*) = 1 ORDER BY MIN(c.id) LIMIT 1`,
      )
      .pluck()
      .get(r0.id) as string;
    const toRewrite = (h0.prepare('SELECT COUNT(*) FROM scores WHERE round_id = ? AND n_rejected > 0 AND n_judged = n_claims').pluck().get(r0.id) as number);
    h0.close();
    srv.inject({ kind: '500', times: 100, model: 'rewriter', match: JSON.stringify(`Answer: ${victim}`).slice(1, -1) });
    const before = srv.stats.byModel['rewriter'] ?? 0;
    await runRound(config, { choice: r0.id, stages: STAGES, limit, pool: pool() });
    const asked = (srv.stats.byModel['rewriter'] ?? 0) - before;

    const h = openDb(db);
    try {
      const fails = h.prepare("SELECT item, reason FROM failures WHERE stage = 'pair'").all() as { item: string; reason: string }[];
      // The victim's: the server error after the pool's retries. The stand-in's empty replies (it struck every
      // sentence and had nothing to put in) are failures too, each asked twice (content_retries 1).
      const broken = fails.filter((f) => /HTTP 500/.test(f.reason));
      const empty = fails.filter((f) => f.reason === 'rewriter: an empty reply after 2 attempts');
      expect(broken).toHaveLength(1);
      expect(empty.length + broken.length).toBe(fails.length);
      for (const f of fails) expect(f.item).toMatch(/^rewrite:[0-9a-f]{32}$/);
      const rewritten = h.prepare("SELECT c.id, c.text, c.edits_json, o.text AS original FROM candidates c JOIN candidates o ON o.id = c.corrects_id WHERE c.editor = 'llm'").all() as { id: string; text: string; edits_json: string; original: string }[];
      // One request per answer to rewrite (+ the failing one's retries), every other answer rewritten once.
      expect(rewritten.length).toBe(toRewrite - fails.length);
      expect(asked).toBe(rewritten.length + 2 * fails.length);
      for (const r of rewritten) {
        const edits = JSON.parse(r.edits_json) as { old: string; new: string | null; claim_ids: string[] }[];
        expect(edits.length).toBeGreaterThan(0);
        for (const e of edits) expect(r.original).toContain(e.old);
      }
      // Rewrites are divided, labeled and scored; pairs only where the labeler rejects fewer of the rewrite's claims.
      const pairs = h
        .prepare(
          `SELECT sc.n_rejected c, sr.n_rejected r, sc.n_claims n FROM pairs p JOIN scores sc ON sc.candidate_id = p.chosen_id
           JOIN scores sr ON sr.candidate_id = p.rejected_id WHERE p.kind = 'correction' AND p.editor = 'llm'`,
        )
        .all() as { c: number; r: number; n: number }[];
      expect(pairs.length).toBeGreaterThan(3);
      for (const p of pairs) expect(p.c === 0 || p.r - p.c >= 1).toBe(true);
      const s = roundStats(h, r0.id);
      expect(s.corrections.llm!.answers).toBe(rewritten.length);
      expect(s.candidates).toBe(limit * 10);
      // A second run asks nothing again: done rewrites and failed ones alike.
      const again = srv.stats.byModel['rewriter'] ?? 0;
      await runRound(config, { choice: r0.id, stages: STAGES, limit, pool: pool() });
      expect(srv.stats.byModel['rewriter'] ?? 0).toBe(again);
    } finally {
      h.close();
    }
  });

  test('doctor: the rewriter endpoint rewrites a probe answer; a model the server does not serve fails with what to change', async () => {
    const cfg = (model: string) => configSchema.parse({ pair: { rewriter: { backend: { type: 'openai', model, base_urls: [srv.url] } } } }).pair.rewriter!;
    const [good] = await checkRewriter(cfg('rewriter'));
    expect(good).toMatchObject({ status: 'ok', check: 'rewriter' });
    expect(good!.detail).toMatch(/^rewrote a probe answer to "There is a red circle\./);
    const [bad] = await checkRewriter(cfg('no-such-model'));
    expect(bad).toMatchObject({ status: 'fail', check: 'rewriter' });
    expect(bad!.fix).toMatch(/pair\.rewriter/);
  });

  test('the prompt the rewriter gets lists the rejected claims and the answer', () => {
    expect(REWRITE_PROMPT).toMatch(/\{claims\}[\s\S]*Question: \{question\}\nAnswer: \{answer\}$/);
  });
});
