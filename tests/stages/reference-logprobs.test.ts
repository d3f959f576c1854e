// pair.reference_logprobs on a real round: every answer of each paired prompt teacher-forced under the round's policy
// (the tiny shapes policy through the real worker pool), stored once per answer and model, and the same numbers the
// scorer gives on its own; a second pair run finds nothing to do.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LocalSequenceScorer } from '../../src/backends/local/index.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { answerLogprobs, type Db, type RoundRow } from '../../src/store/index.js';
import type { Config } from '../../src/config/schema.js';
import { runDemoRound } from '../helpers/round.js';
import { POLICY, serverBackend } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round, scorer and server here (tests/helpers/file-pool.ts).
const pool = filePool();
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { runNode } from '../helpers/run-cli.js';

let db: Db;
let file: string;
let round: RoundRow;
let config: Config;
beforeAll(async () => {
  ({ db, round, config, file } = await runDemoRound({ limit: 8, pool: pool(), edit: (c) => (c.pair.reference_logprobs = true) }));
});
afterAll(() => db?.close());

const all = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[];

describe('reference log-probs at pairing time', () => {
  test('every answer of each paired prompt has its log-probs under the round policy; unpaired prompts none', () => {
    const paired = all<{ prompt_id: string }>('SELECT DISTINCT prompt_id FROM pairs WHERE round_id = ?', round.id).map((r) => r.prompt_id);
    expect(paired.length).toBeGreaterThan(2);
    const answers = all<{ id: string; prompt_id: string }>('SELECT id, prompt_id FROM candidates WHERE round_id = ?', round.id);
    const stored = answerLogprobs(db, round.policy_model, answers.map((a) => a.id));
    for (const a of answers) expect(stored.has(a.id), a.id).toBe(paired.includes(a.prompt_id));
    for (const r of stored.values()) {
      expect(r.per_token).toHaveLength(r.tokens);
      expect(r.per_token.reduce((s, v) => s + v, 0)).toBeCloseTo(r.sum, 9);
      expect(r.per_token.every((v) => v <= 0)).toBe(true);
    }
    // Each pair's two sides are among them.
    for (const p of all<{ chosen_id: string; rejected_id: string }>('SELECT chosen_id, rejected_id FROM pairs WHERE round_id = ?', round.id)) {
      expect(stored.has(p.chosen_id) && stored.has(p.rejected_id)).toBe(true);
    }
  });

  test('the stored values are the scorer\'s own; running the pair stage again adds nothing', async () => {
    const rows = all<{ id: string; text: string; question: string; path: string }>(
      `SELECT c.id, c.text, p.question, i.path FROM candidates c JOIN prompts p ON p.id = c.prompt_id JOIN images i ON i.id = p.image_id
       WHERE c.round_id = ? AND c.id IN (SELECT candidate_id FROM answer_logprobs) ORDER BY c.id LIMIT 4`,
      round.id,
    );
    const got = await new LocalSequenceScorer(pool(), POLICY).logprobs(rows.map((r) => ({ imagePath: r.path, question: r.question, answers: [r.text] })));
    const stored = answerLogprobs(db, round.policy_model, rows.map((r) => r.id));
    rows.forEach((r, i) => {
      const g = got[i]![0]!;
      if (g instanceof Error) throw g;
      const s = stored.get(r.id)!;
      expect(s.tokens).toBe(g.tokens);
      // Batched with other answers or alone, the same tokens to float noise.
      s.per_token.forEach((v, k) => expect(v).toBeCloseTo(g.perToken![k]!, 4));
    });
    const before = all<{ n: number }>('SELECT COUNT(*) AS n FROM answer_logprobs')[0]!.n;
    await runRound({ ...config }, { choice: 'latest', stages: ['pair'], pool: pool() });
    expect(all<{ n: number }>('SELECT COUNT(*) AS n FROM answer_logprobs')[0]!.n).toBe(before);
  });

  test('rlaifv stats ranks each kept pair\'s chosen answer among its siblings and flags those under the 10th percentile', async () => {
    const r = await runNode(['stats', '--db', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout).on_policy as { pairs: number; median_percentile: number; off_policy: number; flagged: { pair_id: string; percentile: number; siblings: number }[]; rule: string };
    // Recomputed here from the stored sums: mean = sum / tokens, siblings = the prompt's other answers.
    const kept = all<{ id: string; prompt_id: string; chosen_id: string }>(
      'SELECT id, prompt_id, chosen_id FROM pairs WHERE round_id = ? AND balance_kept = 1 AND gate_kept IS NOT 0',
      round.id,
    );
    const mean = all<{ id: string; prompt_id: string; m: number }>(
      'SELECT c.id, c.prompt_id, a.sum / a.tokens AS m FROM answer_logprobs a JOIN candidates c ON c.id = a.candidate_id',
    );
    const pct = kept.map((p) => {
      const me = mean.find((x) => x.id === p.chosen_id)!.m;
      const sib = mean.filter((x) => x.prompt_id === p.prompt_id && x.id !== p.chosen_id).map((x) => x.m);
      return { id: p.id, p: (100 * sib.reduce((n, v) => n + (v < me ? 1 : v === me ? 0.5 : 0), 0)) / sib.length };
    });
    expect(s.pairs).toBe(kept.length);
    expect(s.off_policy).toBe(pct.filter((x) => x.p < 10).length);
    expect(s.flagged.map((f) => f.pair_id).sort()).toEqual(pct.filter((x) => x.p < 10).map((x) => x.id).sort());
    const sorted = pct.map((x) => x.p).sort((a, b) => a - b);
    const n = sorted.length;
    expect(s.median_percentile).toBeCloseTo(n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2, 9);
    expect(s.rule).toMatch(/under the 10th percentile/);
    // The policy's own samples: chosen answers sit mid-pack, not at the bottom.
    expect(s.median_percentile).toBeGreaterThan(20);
    const text = await runNode(['stats', '--db', file]);
    expect(text.stdout).toMatch(/on_policy +\d+ pairs, chosen answers' median percentile [\d.]+; \d+ off-policy/);
  });

  test('a served policy: the pair stage asks the server for prompt log-probs, stored under the served model\'s name', async () => {
    const srv = await TestServer.start({ mimic: 'vllm', pool: pool() });
    try {
      const served = await runDemoRound({
        limit: 4,
        pool: pool(),
        edit: (c) => {
          c.generate.backend = serverBackend(srv.url, 'shapes-policy') as typeof c.generate.backend;
          c.pair.reference_logprobs = true;
        },
      });
      try {
        const rows = served.db
          .prepare('SELECT a.model, a.sum, a.tokens, a.per_token_json, c.text, p.question, i.path FROM answer_logprobs a JOIN candidates c ON c.id = a.candidate_id JOIN prompts p ON p.id = c.prompt_id JOIN images i ON i.id = p.image_id')
          .all() as { model: string; sum: number; tokens: number; per_token_json: string; text: string; question: string; path: string }[];
        expect(rows.length).toBeGreaterThan(0);
        expect(new Set(rows.map((r) => r.model))).toEqual(new Set(['shapes-policy']));
        const local = await new LocalSequenceScorer(srv.pool, POLICY).logprobs(rows.slice(0, 4).map((r) => ({ imagePath: r.path, question: r.question, answers: [r.text] })));
        rows.slice(0, 4).forEach((r, i) => {
          const l = local[i]![0]!;
          if (l instanceof Error) throw l;
          expect(r.tokens).toBe(l.tokens);
          (JSON.parse(r.per_token_json) as number[]).forEach((v, k) => expect(Math.abs(v - l.perToken![k]!)).toBeLessThan(1e-3));
        });
      } finally {
        served.db.close();
      }
    } finally {
      await srv.close();
    }
  });
});
