// pair.reference_logprobs on a real round: every answer of each paired prompt teacher-forced under the round's policy
// (the tiny shapes policy through the real worker pool), stored once per answer and model, and the same numbers the
// scorer gives on its own; a second pair run finds nothing to do.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalSequenceScorer } from '../../src/backends/local/index.js';
import { runRound, STAGES } from '../../src/round.js';
import { answerLogprobs, type Db, type RoundRow } from '../../src/store/index.js';
import type { Config } from '../../src/config/schema.js';
import { runDemoRound } from '../helpers/round.js';
import { POLICY } from '../helpers/paths.js';

let db: Db;
let round: RoundRow;
let config: Config;
beforeAll(async () => {
  ({ db, round, config } = await runDemoRound({ limit: 8, edit: (c) => (c.pair.reference_logprobs = true) }));
}, 120_000);
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
    const pool = new WorkerPool(1);
    try {
      const rows = all<{ id: string; text: string; question: string; path: string }>(
        `SELECT c.id, c.text, p.question, i.path FROM candidates c JOIN prompts p ON p.id = c.prompt_id JOIN images i ON i.id = p.image_id
         WHERE c.round_id = ? AND c.id IN (SELECT candidate_id FROM answer_logprobs) ORDER BY c.id LIMIT 4`,
        round.id,
      );
      const got = await new LocalSequenceScorer(pool, POLICY).logprobs(rows.map((r) => ({ imagePath: r.path, question: r.question, answers: [r.text] })));
      const stored = answerLogprobs(db, round.policy_model, rows.map((r) => r.id));
      rows.forEach((r, i) => {
        const g = got[i]![0]!;
        if (g instanceof Error) throw g;
        const s = stored.get(r.id)!;
        expect(s.tokens).toBe(g.tokens);
        // Batched with other answers or alone, the same tokens to float noise.
        s.per_token.forEach((v, k) => expect(v).toBeCloseTo(g.perToken![k]!, 4));
      });
    } finally {
      await pool.close();
    }
    const before = all<{ n: number }>('SELECT COUNT(*) AS n FROM answer_logprobs')[0]!.n;
    await runRound({ ...config }, { choice: 'latest', stages: ['pair'] });
    expect(all<{ n: number }>('SELECT COUNT(*) AS n FROM answer_logprobs')[0]!.n).toBe(before);
  }, 60_000);
});
