// Reference log-probs (pair.reference_logprobs): each answer of a paired prompt teacher-forced under the round's
// policy, keyed by (answer, model) so a pair's sides and their siblings share one row each.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { ALL_PROMPTS, type OrdinalRange } from './work.js';

/** One answer's teacher-forced log-probs: the sum over its tokens (and the end token), their count, each token's value. */
export interface AnswerLogprob {
  candidate_id: string;
  model: string;
  sum: number;
  tokens: number;
  per_token: number[];
}

/** An answer still to be teacher-forced, with what its prompt needs. */
export interface PendingLogprob {
  candidate_id: string;
  prompt_id: string;
  text: string;
  image_path: string;
  question: string;
  history_json: string | null;
}

/**
 * Answers of a round's paired prompts (prompts with at least one pair of `method`) that have no log-probs under
 * `model` yet and no open failure, ordered by prompt then answer: every sampled answer of such a prompt, as the
 * on-policy check compares a chosen answer with its siblings.
 */
export function pendingAnswerLogprobs(db: Db, roundId: number, method: string, model: string, range: OrdinalRange = ALL_PROMPTS): PendingLogprob[] {
  return stmt(
    db,
    `SELECT c.id AS candidate_id, c.prompt_id, c.text, i.path AS image_path, p.question, p.history_json
     FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN prompts p ON p.id = rp.prompt_id JOIN images i ON i.id = p.image_id
     WHERE rp.round_id = @round AND rp.ordinal >= @from AND rp.ordinal < @to
       AND EXISTS (SELECT 1 FROM pairs pr WHERE pr.round_id = rp.round_id AND pr.prompt_id = rp.prompt_id AND pr.method = @method)
       AND NOT EXISTS (SELECT 1 FROM answer_logprobs a WHERE a.candidate_id = c.id AND a.model = @model)
       AND NOT EXISTS (SELECT 1 FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'pair' AND f.item = c.id AND f.retried_at IS NULL)
     ORDER BY rp.ordinal, c.id`,
  ).all({ round: roundId, method, model, from: range.from, to: range.to }) as PendingLogprob[];
}

/** Stores answers' log-probs in one transaction; a row already there is kept (the same answer under the same model). */
export function putAnswerLogprobs(db: Db, rows: readonly AnswerLogprob[]): void {
  const ins = stmt(
    db,
    `INSERT INTO answer_logprobs (candidate_id, model, sum, tokens, per_token_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run(r.candidate_id, r.model, r.sum, r.tokens, JSON.stringify(r.per_token), t);
  }).immediate();
}

/** The stored log-probs of some answers under `model` (answers without any are absent from the map). */
export function answerLogprobs(db: Db, model: string, candidateIds: readonly string[]): Map<string, AnswerLogprob> {
  const rows = stmt(
    db,
    `SELECT candidate_id, model, sum, tokens, per_token_json FROM answer_logprobs
     WHERE model = ? AND candidate_id IN (SELECT value FROM json_each(?))`,
  ).all(model, JSON.stringify(candidateIds)) as { candidate_id: string; model: string; sum: number; tokens: number; per_token_json: string }[];
  return new Map(rows.map((r) => [r.candidate_id, { candidate_id: r.candidate_id, model: r.model, sum: r.sum, tokens: r.tokens, per_token: JSON.parse(r.per_token_json) as number[] }]));
}

/**
 * A round's kept pairs (after the gate and length balance) and, per prompt, the mean token log-prob of each of its
 * answers under the round's policy: what the on-policy check reads. Null for a store from before answer_logprobs.
 */
export function roundAnswerMeans(
  db: Db,
  roundId: number,
): { pairs: { pair_id: string; prompt_id: string; chosen_id: string }[]; means: Map<string, Map<string, number>>; corrected: Set<string> } | null {
  const has = stmt(db, "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'answer_logprobs'").get() as { n: number };
  if (!has.n) return null;
  const pairs = stmt(
    db,
    `SELECT p.id AS pair_id, p.prompt_id, p.chosen_id FROM pairs p JOIN rounds r ON r.id = p.round_id
     WHERE p.round_id = ? AND p.method = r.pair_method AND p.balance_kept = 1 AND p.gate_kept IS NOT 0 ORDER BY p.id`,
  ).all(roundId) as { pair_id: string; prompt_id: string; chosen_id: string }[];
  const rows = stmt(
    db,
    `SELECT c.prompt_id, c.id, a.sum / a.tokens AS mean, c.corrects_id IS NOT NULL AS corrected FROM candidates c JOIN rounds r ON r.id = c.round_id
     JOIN answer_logprobs a ON a.candidate_id = c.id AND a.model = r.policy_model WHERE c.round_id = ?`,
  ).all(roundId) as { prompt_id: string; id: string; mean: number; corrected: number }[];
  const means = new Map<string, Map<string, number>>();
  // Corrected answers (pair.corrections) are never siblings: the check ranks a chosen answer among the policy's samples.
  const corrected = new Set(rows.filter((r) => r.corrected).map((r) => r.id));
  for (const r of rows) {
    let m = means.get(r.prompt_id);
    if (!m) means.set(r.prompt_id, (m = new Map()));
    m.set(r.id, r.mean);
  }
  return { pairs, means, corrected };
}

/** A pair's side's log-probs under its round's policy (pair.reference_logprobs), or undefined when none were stored. */
export function pairSideLogprob(db: Db, pair: string, side: 'chosen' | 'rejected'): { sum: number; tokens: number; per_token_json: string } | undefined {
  return stmt(
    db,
    `SELECT a.sum, a.tokens, a.per_token_json FROM pairs p JOIN rounds r ON r.id = p.round_id
     JOIN answer_logprobs a ON a.candidate_id = CASE WHEN @side = 'chosen' THEN p.chosen_id ELSE p.rejected_id END AND a.model = r.policy_model
     WHERE p.id = @pair`,
  ).get({ pair, side }) as { sum: number; tokens: number; per_token_json: string } | undefined;
}
