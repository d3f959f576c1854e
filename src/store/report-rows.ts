// The rows the HTML report reads, streamed one at a time so a large round never sits in memory whole.
import type { Db } from './open.js';
import { stmt } from './statements.js';

/** One claim of a round with this labeler's answer (labeled 0 when none yet or it failed; p_yes/p_no null then, or when unscored). */
export interface ReportClaimRow {
  candidate_id: string;
  prompt_id: string;
  claim: string;
  question_id: string;
  labeled: number;
  p_yes: number | null;
  p_no: number | null;
}

/** Every claim of a round, ordered by answer and position. */
export function iterateRoundClaims(db: Db, roundId: number, labeler: string): IterableIterator<ReportClaimRow> {
  return stmt(
    db,
    `SELECT c.id AS candidate_id, c.prompt_id, cl.claim, cl.question_id, l.question_id IS NOT NULL AS labeled, l.p_yes, l.p_no
     FROM candidates c JOIN claims cl ON cl.candidate_id = c.id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE c.round_id = ? AND c.corrects_id IS NULL ORDER BY c.id, cl.idx`,
  ).iterate(labeler, roundId) as IterableIterator<ReportClaimRow>;
}

/** One distinct question a round asked, with this labeler's answer (null when not labeled or unscored). */
export interface ReportQuestionRow {
  question_id: string;
  text: string;
  labeled: number;
  p_yes: number | null;
  p_no: number | null;
}

/** The distinct questions of a round's claims. */
export function iterateRoundQuestions(db: Db, roundId: number, labeler: string): IterableIterator<ReportQuestionRow> {
  return stmt(
    db,
    `SELECT q.id AS question_id, q.text, l.question_id IS NOT NULL AS labeled, l.p_yes, l.p_no
     FROM questions q LEFT JOIN labels l ON l.question_id = q.id AND l.labeler = ?
     WHERE q.id IN (SELECT cl.question_id FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ? AND c.corrects_id IS NULL)
     ORDER BY q.id`,
  ).iterate(labeler, roundId) as IterableIterator<ReportQuestionRow>;
}

/** One answer of a round: its finish reason, division and score (null where not reached). */
export interface ReportAnswerRow {
  candidate_id: string;
  prompt_id: string;
  finish_reason: string;
  words: number;
  divided: number;
  division_claims: number | null;
  skipped_json: string | null;
  truncated: number | null;
  scored: number;
  n_claims: number | null;
  n_judged: number | null;
  n_rejected: number | null;
  rej_c: number | null;
  rej_p: number | null;
}

/** Every answer of a round. */
export function iterateRoundAnswers(db: Db, roundId: number): IterableIterator<ReportAnswerRow> {
  return stmt(
    db,
    `SELECT c.id AS candidate_id, c.prompt_id, c.finish_reason, c.words,
       d.candidate_id IS NOT NULL AS divided, d.n_claims AS division_claims, d.skipped_json, d.truncated,
       s.candidate_id IS NOT NULL AS scored, s.n_claims, s.n_judged, s.n_rejected, s.rej_c, s.rej_p
     FROM candidates c LEFT JOIN divisions d ON d.candidate_id = c.id LEFT JOIN scores s ON s.candidate_id = c.id
     WHERE c.round_id = ? AND c.corrects_id IS NULL ORDER BY c.id`,
  ).iterate(roundId) as IterableIterator<ReportAnswerRow>;
}

/** The prompts of a round with their meta. */
export function iterateRoundPromptMeta(db: Db, roundId: number): IterableIterator<{ prompt_id: string; meta_json: string | null }> {
  return stmt(
    db,
    `SELECT p.id AS prompt_id, p.meta_json FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id
     WHERE rp.round_id = ? ORDER BY rp.ordinal`,
  ).iterate(roundId) as IterableIterator<{ prompt_id: string; meta_json: string | null }>;
}

/** The lengths of a pair and whether length balance kept it. */
export interface ReportPairRow {
  chosen_words: number;
  rejected_words: number;
  balance_kept: number | null;
}

/** A round's pairs of one method. */
export function iterateRoundPairLengths(db: Db, roundId: number, method: string): IterableIterator<ReportPairRow> {
  return stmt(
    db,
    'SELECT chosen_words, rejected_words, balance_kept FROM pairs WHERE round_id = ? AND method = ? ORDER BY id',
  ).iterate(roundId, method) as IterableIterator<ReportPairRow>;
}

/** A stored failure. */
export interface ReportFailureRow {
  stage: string;
  item: string;
  reason: string;
  raw: string | null;
  attempts: number;
}

/** A round's failures, by stage then id. */
export function iterateRoundFailures(db: Db, roundId: number): IterableIterator<ReportFailureRow> {
  return stmt(
    db,
    'SELECT stage, item, reason, raw, attempts FROM failures WHERE round_id = ? ORDER BY stage, id',
  ).iterate(roundId) as IterableIterator<ReportFailureRow>;
}

/** Pairing's per-prompt drop counts by reason, summed over a round (one method). */
export function roundDroppedPairs(db: Db, roundId: number, method: string): { considered: number; dropped: Record<string, number> } {
  const rows = stmt(db, 'SELECT considered, dropped_json FROM pairings WHERE round_id = ? AND method = ?').all(
    roundId,
    method,
  ) as { considered: number; dropped_json: string }[];
  const dropped: Record<string, number> = {};
  let considered = 0;
  for (const r of rows) {
    considered += r.considered;
    for (const [k, v] of Object.entries(JSON.parse(r.dropped_json) as Record<string, number>)) dropped[k] = (dropped[k] ?? 0) + v;
  }
  return { considered, dropped };
}
