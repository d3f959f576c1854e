// What claim spans read for an exported pair (export/spans.ts): the pair's sides, its round's labeler and accept
// rule, and each answer's claims with their spans and labels. The SQL moved here from export/ unchanged.
import type { AcceptRule } from '../feedback/verdict.js';
import type { Db } from './open.js';
import { stmt } from './statements.js';

/** A pair's chosen and rejected answer ids, and the chosen side's edits (a correction's; null otherwise). */
export function pairSides(db: Db, pairId: string): { chosen_id: string; rejected_id: string; edits_json: string | null } {
  return stmt(db, 'SELECT pr.chosen_id, pr.rejected_id, ch.edits_json FROM pairs pr JOIN candidates ch ON ch.id = pr.chosen_id WHERE pr.id = ?').get(
    pairId,
  ) as { chosen_id: string; rejected_id: string; edits_json: string | null };
}

/** The labeler whose labels a round reads and its accept rule. */
export function roundLabeling(db: Db, roundId: number): { labeler_model: string; accept_rule: AcceptRule } {
  return stmt(db, 'SELECT labeler_model, accept_rule FROM rounds WHERE id = ?').get(roundId) as { labeler_model: string; accept_rule: AcceptRule };
}

/** One stored claim of an answer with `labeler`'s label; span_start/span_end are null for a row stored before spans were. */
export interface SpanClaimRow {
  sentence: string;
  claim: string;
  p_yes: number | null;
  p_no: number | null;
  span_start: number | null;
  span_end: number | null;
}

/** An answer's claims in order, each with `labeler`'s p(yes)/p(no) and its stored span. */
export function spanClaims(db: Db, labeler: string, candidateId: string): SpanClaimRow[] {
  return stmt(
    db,
    `SELECT cl.sentence, cl.claim, l.p_yes, l.p_no, cl.span_start, cl.span_end FROM claims cl
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE cl.candidate_id = ? ORDER BY cl.idx`,
  ).all(labeler, candidateId) as SpanClaimRow[];
}
