// Scores of feedback methods other than divide (src/methods/): one row per answer and method, with its evidence.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { ALL_PROMPTS, type OrdinalRange } from './work.js';

/** An answer a method has not scored yet, with its prompt (what a method needs to score it). */
export interface PendingMethodScore {
  candidate_id: string;
  prompt_id: string;
  text: string;
  words: number;
  image_path: string;
  question: string;
  history_json: string | null;
  meta_json: string | null;
}

/**
 * A round's answers (in `range`) that `method` has not scored and that have no open score failure, ordered by prompt
 * (input order) then answer id.
 */
export function pendingMethodScores(db: Db, roundId: number, method: string, range: OrdinalRange = ALL_PROMPTS): PendingMethodScore[] {
  return stmt(
    db,
    `SELECT c.id AS candidate_id, c.prompt_id, c.text, c.words, i.path AS image_path, p.question, p.history_json, p.meta_json
     FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN prompts p ON p.id = c.prompt_id JOIN images i ON i.id = p.image_id
     LEFT JOIN answer_scores a ON a.candidate_id = c.id AND a.method = @method
     LEFT JOIN failures f ON f.round_id = rp.round_id AND f.stage = 'score' AND f.item = c.id AND f.retried_at IS NULL
     WHERE rp.round_id = @round AND rp.ordinal >= @from AND rp.ordinal < @to AND a.candidate_id IS NULL AND f.id IS NULL
     ORDER BY rp.ordinal, c.id`,
  ).all({ method, round: roundId, from: range.from, to: range.to }) as PendingMethodScore[];
}

/** A method's score of one answer, as stored. */
export interface AnswerScoreRow {
  candidate_id: string;
  method: string;
  round_id: number;
  scorer: string;
  /** Higher is better; null when the method judged the answer but could give it no score. */
  value: number | null;
  evidence: unknown;
}

/** Stores method scores (idempotent: a score already stored stays). */
export function putAnswerScores(db: Db, rows: readonly AnswerScoreRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO answer_scores (candidate_id, method, round_id, scorer, value, evidence_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run(r.candidate_id, r.method, r.round_id, r.scorer, r.value, JSON.stringify(r.evidence), t);
  }).immediate();
}

/** A round's method scores by answer id (value and evidence), for evaluation and the report. */
export function roundAnswerScores(db: Db, roundId: number, method: string): Map<string, { value: number | null; evidence: unknown }> {
  const rows = stmt(db, 'SELECT candidate_id, value, evidence_json FROM answer_scores WHERE round_id = ? AND method = ?').all(roundId, method) as {
    candidate_id: string;
    value: number | null;
    evidence_json: string;
  }[];
  return new Map(rows.map((r) => [r.candidate_id, { value: r.value, evidence: JSON.parse(r.evidence_json) as unknown }]));
}
