// The evaluation's reads of a round (rlaifv eval, the truth-free figures, compare's judges, the multi-turn ablation):
// read-only queries with typed rows, moved here from eval/ with the SQL unchanged.
import type { Db } from './open.js';
import { stmt } from './statements.js';

/** The prompts of a round that the pair stage has paired under `method`. */
export function pairedPromptIds(db: Db, roundId: number, method: string): string[] {
  return (stmt(db, 'SELECT prompt_id FROM pairings WHERE round_id = ? AND method = ?').all(roundId, method) as { prompt_id: string }[]).map(
    (r) => r.prompt_id,
  );
}

/** An answer (sampled or corrected) of a round with its division and score, as eval loads it. */
export interface EvalCandidateRow {
  id: string;
  prompt_id: string;
  sample_index: number;
  text: string;
  words: number;
  corrects_id: string | null;
  editor: string | null;
  edits_json: string | null;
  divided: string | null;
  skipped_json: string | null;
  scored: string | null;
  n_claims: number | null;
  n_judged: number | null;
  n_rejected: number | null;
  rej_c: number | null;
  rej_p: number | null;
}

/** Every answer of a round with its division and score (by prompt, then sample). */
export function evalCandidates(db: Db, roundId: number): EvalCandidateRow[] {
  return stmt(
    db,
    `SELECT c.id, c.prompt_id, c.sample_index, c.text, c.words, c.corrects_id, c.editor, c.edits_json, d.candidate_id AS divided, d.skipped_json,
       s.candidate_id AS scored, s.n_claims, s.n_judged, s.n_rejected, s.rej_c, s.rej_p
     FROM candidates c LEFT JOIN divisions d ON d.candidate_id = c.id LEFT JOIN scores s ON s.candidate_id = c.id
     WHERE c.round_id = ? ORDER BY c.prompt_id, c.sample_index`,
  ).all(roundId) as EvalCandidateRow[];
}

/** A claim of a round's answer with its question and labels: `labeler`'s (p_yes, p_no, source) and `own`'s beside. */
export interface EvalClaimRow {
  candidate_id: string;
  idx: number;
  sentence: string;
  claim: string;
  question_id: string;
  question: string;
  p_yes: number | null;
  p_no: number | null;
  source: string | null;
  own_p_yes: number | null;
  own_p_no: number | null;
}

/** Every claim of a round's answers, with the labels of `labeler` and of `own` (by answer, then claim order). */
export function evalClaims(db: Db, roundId: number, labeler: string, own: string): EvalClaimRow[] {
  return stmt(
    db,
    `SELECT cl.candidate_id, cl.idx, cl.sentence, cl.claim, cl.question_id, q.text AS question, l.p_yes, l.p_no, l.source,
       own.p_yes AS own_p_yes, own.p_no AS own_p_no
     FROM claims cl JOIN candidates c ON c.id = cl.candidate_id JOIN questions q ON q.id = cl.question_id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     LEFT JOIN labels own ON own.question_id = cl.question_id AND own.labeler = ?
     WHERE c.round_id = ? ORDER BY cl.candidate_id, cl.idx`,
  ).all(labeler, own, roundId) as EvalClaimRow[];
}

/** A stored pair of a round as eval judges it. */
export interface EvalPairRow {
  prompt_id: string;
  chosen_id: string;
  rejected_id: string;
  balance_kept: number | null;
  gate_kept: number | null;
  kind: 'rank' | 'correction';
  editor: string | null;
}

/** Every stored pair of a round under `method`, kept or not. */
export function evalPairs(db: Db, roundId: number, method: string): EvalPairRow[] {
  return stmt(db, 'SELECT prompt_id, chosen_id, rejected_id, balance_kept, gate_kept, kind, editor FROM pairs WHERE round_id = ? AND method = ?').all(
    roundId,
    method,
  ) as EvalPairRow[];
}

/** A round's failures counted per stage (by stage name). */
export function failureCountsByStage(db: Db, roundId: number): { stage: string; n: number }[] {
  return stmt(db, 'SELECT stage, COUNT(*) AS n FROM failures WHERE round_id = ? GROUP BY stage ORDER BY stage').all(roundId) as {
    stage: string;
    n: number;
  }[];
}

/** One scored answer as the truth-free figures and the `claims` judge read it. */
export interface ScoredAnswer {
  id: string;
  promptId: string;
  sampleIndex: number;
  text: string;
  words: number;
  /** null: never scored. */
  claims: number | null;
  judged: number | null;
  rejected: number | null;
}

/** Every answer of a round with its stored score (answers in prompt order, then sample order). */
export function scoredAnswers(db: Db, roundId: number): ScoredAnswer[] {
  return stmt(
    db,
    `SELECT c.id, c.prompt_id AS promptId, c.sample_index AS sampleIndex, c.text, c.words,
       s.n_claims AS claims, s.n_judged AS judged, s.n_rejected AS rejected
     FROM candidates c JOIN round_prompts rp ON rp.round_id = c.round_id AND rp.prompt_id = c.prompt_id
     LEFT JOIN scores s ON s.candidate_id = c.id
     WHERE c.round_id = ? AND c.corrects_id IS NULL ORDER BY rp.ordinal, c.sample_index`,
  ).all(roundId) as ScoredAnswer[];
}

/** Whether every prompt of a round carries a shapes truth (meta.truth): only then are the truth's figures made. */
export function roundHasTruth(db: Db, roundId: number): boolean {
  const r = stmt(
    db,
    `SELECT count(*) AS n, sum(CASE WHEN json_valid(p.meta_json) AND json_type(p.meta_json, '$.truth') IS NOT NULL THEN 1 ELSE 0 END) AS t
     FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id WHERE rp.round_id = ?`,
  ).get(roundId) as { n: number; t: number | null };
  return r.n > 0 && r.t === r.n;
}

/** Each prompt's instruction kind (meta.kind; 'other' without one), by prompt id, for a round's prompts. */
export function promptKinds(db: Db, roundId: number): Map<string, string> {
  const rows = stmt(
    db,
    `SELECT p.id, CASE WHEN json_valid(p.meta_json) THEN json_extract(p.meta_json, '$.kind') END AS kind
     FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id WHERE rp.round_id = ?`,
  ).all(roundId) as { id: string; kind: unknown }[];
  return new Map(rows.map((r) => [r.id, typeof r.kind === 'string' && r.kind ? r.kind : 'other']));
}

/** Whether any prompt of a round has earlier turns (the ablation runs only on multi-turn prompts). */
export function roundHasHistory(db: Db, roundId: number): boolean {
  const r = stmt(
    db,
    `SELECT count(*) AS n FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id
     WHERE rp.round_id = ? AND p.history_json IS NOT NULL AND p.history_json <> '[]'`,
  ).get(roundId) as { n: number };
  return r.n > 0;
}

/** Each claim (in order) of the first answer (sample 0) of each prompt of a round; one row with claim null for an answer without claims. */
export function firstAnswerClaims(db: Db, roundId: number): { promptId: string; text: string; claim: string | null }[] {
  return stmt(
    db,
    `SELECT c.prompt_id AS promptId, c.text, cl.claim FROM candidates c LEFT JOIN claims cl ON cl.candidate_id = c.id
     WHERE c.round_id = ? AND c.sample_index = 0 ORDER BY c.prompt_id, cl.idx`,
  ).all(roundId) as { promptId: string; text: string; claim: string | null }[];
}
