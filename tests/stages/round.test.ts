// A whole round on 10 shapes prompts with the real tiny models into a real SQLite file.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db, RoundRow } from '../../src/store/index.js';
import { roundStats } from '../../src/store/index.js';
import { runDemoRound } from '../helpers/round.js';

describe('a demo round on 10 prompts', () => {
  let db: Db;
  let round: RoundRow;
  beforeAll(async () => {
    ({ db, round } = await runDemoRound({ limit: 10, seed: 7, fresh: true }));
  });
  afterAll(() => db.close());

  const all = <T>(sql: string, ...a: unknown[]) => db.prepare(sql).all(...a) as T[];
  const one = (sql: string, ...a: unknown[]) => (db.prepare(sql).get(...a) as { n: number }).n;

  test('10 samples per prompt, each with its own recorded seed and the decoding settings', () => {
    expect(one('SELECT COUNT(*) AS n FROM candidates WHERE round_id = ?', round.id)).toBe(100);
    const perPrompt = all<{ n: number; seeds: number }>(
      'SELECT COUNT(*) AS n, COUNT(DISTINCT seed) AS seeds FROM candidates WHERE round_id = ? GROUP BY prompt_id',
      round.id,
    );
    expect(perPrompt).toHaveLength(10);
    for (const p of perPrompt) expect(p).toEqual({ n: 10, seeds: 10 });
    const dec = all<{ decoding_json: string }>('SELECT DISTINCT decoding_json FROM candidates');
    expect(dec.map((d) => JSON.parse(d.decoding_json))).toEqual([{ temperature: 0.7, top_p: 1, max_new_tokens: 512 }]);
  });

  test('every claim has a label or a failure row', () => {
    const orphans = one(
      `SELECT COUNT(*) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
       LEFT JOIN failures f ON f.stage = 'label' AND f.item = cl.question_id
       WHERE c.round_id = ? AND l.question_id IS NULL AND f.id IS NULL`,
      round.labeler_model,
      round.id,
    );
    expect(one('SELECT COUNT(*) AS n FROM claims')).toBeGreaterThan(100);
    expect(orphans).toBe(0);
  });

  test('scores agree with the stored verdicts: REJ-C = −rejected, REJ-P = rejected / claims', () => {
    const rows = all<{ n_claims: number; n_rejected: number; rej_c: number | null; rej_p: number | null; recount: number }>(
      `SELECT s.n_claims, s.n_rejected, s.rej_c, s.rej_p,
         (SELECT COUNT(*) FROM claims cl JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
          WHERE cl.candidate_id = s.candidate_id AND NOT (l.p_yes > l.p_no)) AS recount
       FROM scores s WHERE s.round_id = ?`,
      round.labeler_model,
      round.id,
    );
    expect(rows).toHaveLength(100);
    for (const r of rows) {
      expect(r.n_rejected).toBe(r.recount);
      if (r.n_claims === 0) expect(r.rej_c).toBeNull();
      else {
        expect(r.rej_c! + r.n_rejected).toBe(0); // REJ-C = −n_rej (stored as +0 for a clean answer)
        expect(r.rej_p).toBeCloseTo(r.n_rejected / r.n_claims, 12);
      }
    }
  });

  test('every pair: chosen beats rejected by at least diff, scores match, at most 2 per prompt', () => {
    const pairs = all<{ prompt_id: string; chosen_score: number; rejected_score: number; cs: number; rs: number; margin: number }>(
      `SELECT p.prompt_id, p.chosen_score, p.rejected_score, p.margin, sc.rej_c AS cs, sr.rej_c AS rs FROM pairs p
       JOIN scores sc ON sc.candidate_id = p.chosen_id JOIN scores sr ON sr.candidate_id = p.rejected_id
       WHERE p.round_id = ?`,
      round.id,
    );
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) {
      expect(p.chosen_score - p.rejected_score).toBeGreaterThanOrEqual(1);
      expect([p.chosen_score, p.rejected_score]).toEqual([p.cs, p.rs]);
      expect(p.margin).toBe(p.chosen_score - p.rejected_score);
    }
    const perPrompt = new Map<string, number>();
    for (const p of pairs) perPrompt.set(p.prompt_id, (perPrompt.get(p.prompt_id) ?? 0) + 1);
    for (const n of perPrompt.values()) expect(n).toBeLessThanOrEqual(2);
  });

  test('length balance flagged every pair and recorded its r', () => {
    expect(one('SELECT COUNT(*) AS n FROM pairs WHERE balance_kept IS NULL')).toBe(0);
    expect(one('SELECT COUNT(*) AS n FROM balances WHERE round_id = ?', round.id)).toBe(1);
  });

  test('stats counts match the tables', () => {
    const s = roundStats(db, round.id);
    expect(s).toMatchObject({
      round: round.id,
      status: 'done',
      prompts: 10,
      candidates: one('SELECT COUNT(*) AS n FROM candidates'),
      claims: one('SELECT COUNT(*) AS n FROM claims'),
      questions: one('SELECT COUNT(*) AS n FROM questions'),
      pairs: one('SELECT COUNT(*) AS n FROM pairs'),
      pairs_after_balance: one('SELECT COUNT(*) AS n FROM pairs WHERE balance_kept = 1'),
      failures: one('SELECT COUNT(*) AS n FROM failures'),
    });
    expect(s.labeled + s.unscored_questions * 0).toBe(one('SELECT COUNT(*) AS n FROM claims cl JOIN labels l ON l.question_id = cl.question_id WHERE l.p_yes IS NOT NULL'));
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) expect(s.seconds_by_stage[stage]).toBeGreaterThanOrEqual(0);
  });

  test('the same seed gives identical pairs in a fresh database', async () => {
    const again = await runDemoRound({ limit: 10, seed: 7, fresh: true });
    const q = `SELECT p.prompt_id, c.text AS chosen, r.text AS rejected, p.balance_kept FROM pairs p
               JOIN candidates c ON c.id = p.chosen_id JOIN candidates r ON r.id = p.rejected_id ORDER BY p.prompt_id, chosen, rejected`;
    expect(again.db.prepare(q).all()).toEqual(db.prepare(q).all());
    again.db.close();
  });
});
