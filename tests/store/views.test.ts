// The analyst views on a real round of the tiny models: each view checked against the tables and the pure method,
// and the README's example questions run as written.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import type { Db, RoundRow } from '../../src/store/index.js';
import { roundStats } from '../../src/store/index.js';
import { isRejected } from '../../src/feedback/verdict.js';
import { pull } from '../../src/export/pull.js';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { expectSpanInSentence } from '../helpers/spans.js';

describe('analyst views on a real round', () => {
  let db: Db;
  let round: RoundRow;
  let file: string;
  beforeAll(async () => {
    // Seed 11: this round has a pair that length balance drops (most seeds have none).
    ({ db, round, file } = await runDemoRound({ limit: 8, seed: 11 }));
  });
  afterAll(() => db.close());

  const all = <T = Record<string, unknown>>(sql: string, ...a: unknown[]) => db.prepare(sql).all(...a) as T[];

  test('v_rounds has the counts `rlaifv stats` prints', () => {
    const s = roundStats(db, round.id);
    const [v] = all('SELECT * FROM v_rounds WHERE round = ?', round.id);
    expect(v).toMatchObject({
      round: round.id,
      status: 'done',
      policy_model: round.policy_model,
      labeler_model: round.labeler_model,
      accept_rule: 'scripts',
      method: 'rejc',
      prompts: s.prompts,
      answers: s.candidates,
      claims: s.claims,
      rejected_claims: s.rejected_claims,
      scored_answers: s.scored,
      pairs: s.pairs,
      pairs_kept: s.pairs_after_balance,
      balance_r: s.balance_r,
      failures: s.failures,
    });
    expect(s.rejected_claims).toBeGreaterThan(0);
    expect(s.pairs).toBeGreaterThan(s.pairs_after_balance);
  });

  test("v_claims: every claim with its question, probabilities and the accept rule's verdict", () => {
    const rows = all<{ claim_id: string; question: string; p_yes: number | null; p_no: number | null; rejected: number | null; labeler: string }>(
      'SELECT * FROM v_claims WHERE round = ?',
      round.id,
    );
    expect(rows).toHaveLength(roundStats(db, round.id).claims);
    const text = new Map(all<{ id: string; text: string }>('SELECT cl.id, q.text FROM claims cl JOIN questions q ON q.id = cl.question_id').map((r) => [r.id, r.text]));
    let judged = 0;
    for (const r of rows) {
      expect(r.question).toBe(text.get(r.claim_id));
      expect(r.labeler).toBe(round.labeler_model);
      if (r.p_yes === null || r.p_no === null) expect(r.rejected).toBeNull();
      else {
        judged++;
        expect(r.rejected).toBe(isRejected(r.p_yes, r.p_no, 'scripts') ? 1 : 0);
      }
    }
    expect(judged).toBeGreaterThan(0);
  });

  test("v_claims: each claim's span is where its sentence sits in the answer's text", () => {
    const rows = all<{ sentence: string; span_start: number | null; span_end: number | null; text: string }>(
      'SELECT v.sentence, v.span_start, v.span_end, c.text FROM v_claims v JOIN candidates c ON c.id = v.answer_id WHERE v.round = ?',
      round.id,
    );
    expect(rows.length).toBeGreaterThan(0);
    // The rules divider's span covers the claim's source text: its sentence, or a part of it.
    for (const r of rows) expectSpanInSentence(r.text, { sentence: r.sentence, start: r.span_start, end: r.span_end });
  });

  test("v_answers: each answer's score, and its rejected claims add up from v_claims", () => {
    const rows = all<{ answer_id: string; n_claims: number; n_rejected: number; rej_c: number | null; rej_p: number | null; text: string; recount: number }>(
      `SELECT a.*, (SELECT COALESCE(SUM(c.rejected), 0) FROM v_claims c WHERE c.answer_id = a.answer_id) AS recount
       FROM v_answers a WHERE a.round = ?`,
      round.id,
    );
    expect(rows).toHaveLength(roundStats(db, round.id).candidates);
    const scores = new Map(all<{ candidate_id: string; n_rejected: number; rej_c: number | null }>('SELECT * FROM scores').map((s) => [s.candidate_id, s]));
    for (const r of rows) {
      expect(r.n_rejected).toBe(r.recount);
      expect(r.n_rejected).toBe(scores.get(r.answer_id)!.n_rejected);
      expect(r.rej_c).toBe(scores.get(r.answer_id)!.rej_c);
    }
  });

  test('v_pairs: both texts and scores; kept = what exports deliver', () => {
    const rows = all<Record<string, unknown>>('SELECT * FROM v_pairs WHERE round = ?', round.id);
    const s = roundStats(db, round.id);
    expect(rows).toHaveLength(s.pairs);
    expect(rows.filter((r) => r.kept === 1)).toHaveLength(s.pairs_after_balance);
    const text = new Map(all<{ id: string; text: string }>('SELECT id, text FROM candidates').map((r) => [r.id, r.text]));
    const score = new Map(all<{ candidate_id: string; rej_c: number; rej_p: number }>('SELECT * FROM scores').map((r) => [r.candidate_id, r]));
    for (const r of rows) {
      expect(r.chosen).toBe(text.get(r.chosen_id as string));
      expect(r.rejected).toBe(text.get(r.rejected_id as string));
      expect(r.chosen_rej_c).toBe(r.chosen_score); // a REJ-C round stores REJ-C as the pair scores
      expect(r.rejected_rej_p).toBe(score.get(r.rejected_id as string)!.rej_p);
      expect(r.kept).toBe(r.balance_kept === 1 ? 1 : 0);
    }
  });

  test('v_balances agrees with the pairs it was computed from', () => {
    const [b] = all<Record<string, number>>('SELECT * FROM v_balances WHERE round = ?', round.id);
    const [before] = all<Record<string, number>>('SELECT COUNT(*) AS n, AVG(chosen_words) AS c, AVG(rejected_words) AS r FROM v_pairs WHERE round = ?', round.id);
    const [after] = all<Record<string, number>>('SELECT COUNT(*) AS n, AVG(chosen_words) AS c, AVG(rejected_words) AS r FROM v_pairs WHERE round = ? AND kept', round.id);
    expect(b!.pairs_before).toBe(before!.n);
    expect(b!.avg_chosen_words_before).toBeCloseTo(before!.c!, 9);
    expect(b!.avg_rejected_words_before).toBeCloseTo(before!.r!, 9);
    expect(b!.pairs_after).toBe(after!.n);
    expect(b!.avg_chosen_words_after).toBeCloseTo(after!.c!, 9);
    expect(b!.avg_rejected_words_after).toBeCloseTo(after!.r!, 9);
  });

  test("the README's questions run as written", () => {
    // Which claims are most often rejected.
    const claims = all<{ claim: string; times: number; rejected: number }>(
      `SELECT claim, COUNT(*) AS times, SUM(rejected) AS rejected, ROUND(AVG(p_no), 3) AS avg_p_no
       FROM v_claims GROUP BY claim ORDER BY rejected DESC, times DESC LIMIT 5`,
    );
    const top = all<{ n: number }>('SELECT SUM(rejected) AS n FROM v_claims GROUP BY claim ORDER BY n DESC LIMIT 1')[0]!.n;
    expect(claims[0]!.rejected).toBe(top);
    // REJ-C vs REJ-P: answer pairs of one prompt the two scores order oppositely.
    const [d] = all<{ answer_pairs: number; disagree: number; recount: number }>(
      `SELECT COUNT(*) AS answer_pairs, SUM((a.rej_c - b.rej_c) * (b.rej_p - a.rej_p) < 0) AS disagree
       FROM v_answers a JOIN v_answers b ON b.round = a.round AND b.prompt_id = a.prompt_id AND a.answer_id < b.answer_id
       WHERE a.rej_c IS NOT NULL AND b.rej_c IS NOT NULL AND a.round = ?`,
      round.id,
    );
    const answers = all<{ prompt_id: string; rej_c: number | null; rej_p: number | null }>('SELECT * FROM scores s JOIN candidates c ON c.id = s.candidate_id WHERE s.rej_c IS NOT NULL');
    let n = 0;
    let disagree = 0;
    for (const [i, a] of answers.entries()) {
      for (const b of answers.slice(i + 1)) {
        if (a.prompt_id !== b.prompt_id) continue;
        n++;
        const byC = Math.sign(a.rej_c! - b.rej_c!); // higher REJ-C is better
        const byP = Math.sign(b.rej_p! - a.rej_p!); // lower REJ-P is better
        if (byC * byP < 0) disagree++;
      }
    }
    expect(d).toEqual({ answer_pairs: n, disagree });
    // Pairs per round.
    expect(all('SELECT round, pairs, pairs_kept, balance_r FROM v_rounds ORDER BY round')).toEqual([
      { round: round.id, pairs: roundStats(db, round.id).pairs, pairs_kept: roundStats(db, round.id).pairs_after_balance, balance_r: roundStats(db, round.id).balance_r },
    ]);
  });

  test('v_deliveries and v_delivered_pairs show who got which pair in which row', async () => {
    const r = await pull(db, { consumer: 'trainer', rounds: 'all', format: 'trl', out: path.join(tempDir(), 'p.jsonl') }, file);
    expect(all('SELECT delivery, consumer, format, pairs, rounds FROM v_deliveries')).toEqual([
      { delivery: r.delivery, consumer: 'trainer', format: 'trl', pairs: r.pairIds.length, rounds: String(round.id) },
    ]);
    const rows = all<{ pair_id: string; position: number; round: number }>('SELECT * FROM v_delivered_pairs ORDER BY position');
    expect(rows.map((x) => x.pair_id)).toEqual(r.pairIds);
    expect(new Set(rows.map((x) => x.round))).toEqual(new Set([round.id]));
  });
});
