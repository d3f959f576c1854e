// The rows the report's pair browser reads: a round's pair ids (to sample from), then only the sampled pairs,
// their answers' claims with this labeler's label, and their images' files.
import type { Db } from './open.js';
import { stmt } from './statements.js';

/** The ids of a round's pairs of one method, in prompt order then id: the population the browser samples. */
export function roundPairIds(db: Db, roundId: number, method: string): string[] {
  return stmt(
    db,
    `SELECT pr.id FROM pairs pr LEFT JOIN round_prompts rp ON rp.round_id = pr.round_id AND rp.prompt_id = pr.prompt_id
     WHERE pr.round_id = ? AND pr.method = ? ORDER BY rp.ordinal, pr.id`,
  )
    .pluck()
    .all(roundId, method) as string[];
}

/** One answer of a pair: its text and its score (null where the score stage has not run). */
export interface BrowserAnswerRow {
  id: string;
  text: string;
  words: number;
  finish_reason: string;
  n_claims: number | null;
  n_rejected: number | null;
  rej_c: number | null;
  rej_p: number | null;
}

/** One pair with its prompt and image. */
export interface BrowserPairRow {
  id: string;
  prompt_id: string;
  question: string;
  meta_json: string | null;
  /** The conversation's earlier turns (JSON), or null for a single-turn prompt. */
  history_json: string | null;
  image_id: string;
  image_path: string;
  chosen_id: string;
  rejected_id: string;
  chosen_score: number;
  rejected_score: number;
  margin: number;
  balance_kept: number | null;
  /** The quality gate's confidence and decision (null: no gate ran). */
  confidence: number | null;
  gate_kept: number | null;
  kind: 'rank' | 'correction';
  editor: string | null;
  /** The chosen (corrected) answer's edit list, for a correction pair. */
  edits_json: string | null;
}

/** A pair by id, or undefined. */
export function getBrowserPair(db: Db, pairId: string): BrowserPairRow | undefined {
  return stmt(
    db,
    `SELECT pr.id, pr.prompt_id, p.question, p.meta_json, p.history_json, i.id AS image_id, i.path AS image_path, pr.chosen_id, pr.rejected_id,
       pr.chosen_score, pr.rejected_score, pr.margin, pr.balance_kept, pr.confidence, pr.gate_kept, pr.kind, pr.editor, ch.edits_json
     FROM pairs pr JOIN prompts p ON p.id = pr.prompt_id JOIN images i ON i.id = p.image_id JOIN candidates ch ON ch.id = pr.chosen_id
     WHERE pr.id = ?`,
  ).get(pairId) as BrowserPairRow | undefined;
}

/** An answer with its score, or undefined. */
export function getBrowserAnswer(db: Db, candidateId: string): BrowserAnswerRow | undefined {
  return stmt(
    db,
    `SELECT c.id, c.text, c.words, c.finish_reason, s.n_claims, s.n_rejected, s.rej_c, s.rej_p
     FROM candidates c LEFT JOIN scores s ON s.candidate_id = c.id WHERE c.id = ?`,
  ).get(candidateId) as BrowserAnswerRow | undefined;
}

/** One claim of an answer with this labeler's p(yes)/p(no) (null when unlabeled or unscored). */
export interface BrowserClaimRow {
  idx: number;
  sentence: string;
  claim: string;
  question: string;
  p_yes: number | null;
  p_no: number | null;
}

/** An answer's claims in order. */
export function answerClaims(db: Db, candidateId: string, labeler: string): BrowserClaimRow[] {
  return stmt(
    db,
    `SELECT cl.idx, cl.sentence, cl.claim, q.text AS question, l.p_yes, l.p_no
     FROM claims cl JOIN questions q ON q.id = cl.question_id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE cl.candidate_id = ? ORDER BY cl.idx`,
  ).all(labeler, candidateId) as BrowserClaimRow[];
}
