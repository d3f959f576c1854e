// The stages' rows: candidates, divisions, claims, questions, labels, scores; and what each stage has left to do.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A slice of a round's prompts by their input ordinal: `from` ≤ ordinal < `to`. */
export interface OrdinalRange {
  from: number;
  to: number;
}

/** Every prompt of a round. */
export const ALL_PROMPTS: OrdinalRange = { from: 0, to: Number.MAX_SAFE_INTEGER };

/** A sampled answer as stored. */
export interface CandidateRow {
  id: string;
  round_id: number;
  prompt_id: string;
  sample_index: number;
  seed: number;
  model_id: string;
  decoding_json: string;
  text: string;
  finish_reason: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  words: number;
  /** A corrected answer (pair.corrections): the sampled answer it corrects, its editor and edit list (JSON). */
  corrects_id?: string | null;
  editor?: string | null;
  edits_json?: string | null;
}

/** Sample indices already stored (or failed for good) per prompt of a round. */
export function doneSamples(db: Db, roundId: number, range: OrdinalRange = ALL_PROMPTS): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const rows = stmt(
    db,
    `SELECT c.prompt_id, c.sample_index FROM round_prompts rp
     JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND c.corrects_id IS NULL`,
  ).all(roundId, range.from, range.to) as { prompt_id: string; sample_index: number }[];
  for (const r of rows) {
    let s = out.get(r.prompt_id);
    if (!s) out.set(r.prompt_id, (s = new Set()));
    s.add(r.sample_index);
  }
  return out;
}

/** Stores sampled answers (idempotent by id). */
export function putCandidates(db: Db, rows: CandidateRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO candidates (id, round_id, prompt_id, sample_index, seed, model_id, decoding_json, text, finish_reason,
       prompt_tokens, completion_tokens, words, corrects_id, editor, edits_json, created_at)
     VALUES (@id, @round_id, @prompt_id, @sample_index, @seed, @model_id, @decoding_json, @text, @finish_reason,
       @prompt_tokens, @completion_tokens, @words, @corrects_id, @editor, @edits_json, @created_at)
     ON CONFLICT (id) DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run({ corrects_id: null, editor: null, edits_json: null, ...r, created_at: t });
  }).immediate();
}

/** Candidates of a round (of the prompts in `range`) not divided yet nor failed, with their prompt's question and image. */
export function pendingDivision(
  db: Db,
  roundId: number,
  range: OrdinalRange = ALL_PROMPTS,
): (CandidateRow & { question: string; image_id: string })[] {
  return stmt(
    db,
    `SELECT c.*, p.question, p.image_id FROM round_prompts rp
     JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN prompts p ON p.id = c.prompt_id
     LEFT JOIN divisions d ON d.candidate_id = c.id
     LEFT JOIN failures f ON f.round_id = c.round_id AND f.stage = 'divide' AND f.item = c.id AND f.retried_at IS NULL
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND d.candidate_id IS NULL AND f.id IS NULL
     ORDER BY c.prompt_id, c.sample_index`,
  ).all(roundId, range.from, range.to) as (CandidateRow & { question: string; image_id: string })[];
}

/** One divided candidate: its claims with their question ids, and the division record. */
export interface Division {
  candidateId: string;
  divider: string;
  truncated: boolean;
  skipped: { sentence: string; reason: string }[];
  claims: {
    id: string;
    idx: number;
    sentence: string;
    claim: string;
    questionId: string;
    questionText: string;
    imageId: string;
    /** Characters [start, end) of the answer the claim came from; null when the divider gave none. */
    start: number | null;
    end: number | null;
  }[];
}

/** Stores divisions (questions shared, claims and division rows) in one transaction. */
export function putDivisions(db: Db, divs: Division[]): void {
  const q = stmt(db, `INSERT INTO questions (id, image_id, text) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`);
  const c = stmt(
    db,
    `INSERT INTO claims (id, candidate_id, idx, sentence, claim, question_id, span_start, span_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
  );
  const d = stmt(
    db,
    `INSERT INTO divisions (candidate_id, divider, n_claims, skipped_json, truncated, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (candidate_id) DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const div of divs) {
      for (const cl of div.claims) {
        q.run(cl.questionId, cl.imageId, cl.questionText);
        c.run(cl.id, div.candidateId, cl.idx, cl.sentence, cl.claim, cl.questionId, cl.start, cl.end);
      }
      d.run(div.candidateId, div.divider, div.claims.length, JSON.stringify(div.skipped), div.truncated ? 1 : 0, t);
    }
  }).immediate();
}

/** A question waiting for the labeler, with its image path. */
export interface PendingQuestion {
  id: string;
  image_id: string;
  image_path: string;
  text: string;
}

/**
 * Distinct questions of a round's claims (of the prompts in `range`) without a label from this labeler (nor a
 * failure), grouped by image.
 */
export function pendingLabels(db: Db, roundId: number, labeler: string, range: OrdinalRange = ALL_PROMPTS): PendingQuestion[] {
  return stmt(
    db,
    `SELECT DISTINCT q.id, q.image_id, i.path AS image_path, q.text
     FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN claims cl ON cl.candidate_id = c.id JOIN questions q ON q.id = cl.question_id
     JOIN images i ON i.id = q.image_id
     LEFT JOIN labels l ON l.question_id = q.id AND l.labeler = ?
     LEFT JOIN failures f ON f.round_id = c.round_id AND f.stage = 'label' AND f.item = q.id AND f.retried_at IS NULL
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND l.question_id IS NULL AND f.id IS NULL
     ORDER BY q.image_id, q.id`,
  ).all(labeler, roundId, range.from, range.to) as PendingQuestion[];
}

/** A stored label. */
export interface LabelRow {
  question_id: string;
  labeler: string;
  p_yes: number | null;
  p_no: number | null;
  top_json: string | null;
  bound_used: number;
}

/** Stores labels (idempotent). */
export function putLabels(db: Db, rows: LabelRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO labels (question_id, labeler, p_yes, p_no, top_json, bound_used, created_at)
     VALUES (@question_id, @labeler, @p_yes, @p_no, @top_json, @bound_used, @created_at)
     ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run({ ...r, created_at: t });
  }).immediate();
}

/** Per divided, unscored candidate of a round: its claims' label probabilities (null when not labeled). */
export function pendingScores(
  db: Db,
  roundId: number,
  labeler: string,
  range: OrdinalRange = ALL_PROMPTS,
): { candidate_id: string; n_claims: number; probs: { p_yes: number | null; p_no: number | null }[] }[] {
  const rows = stmt(
    db,
    `SELECT c.id AS candidate_id, d.n_claims, l.p_yes, l.p_no, cl.idx
     FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN divisions d ON d.candidate_id = c.id
     LEFT JOIN scores s ON s.candidate_id = c.id
     LEFT JOIN claims cl ON cl.candidate_id = c.id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND s.candidate_id IS NULL
       -- ready only when every claim has this labeler's answer or a recorded label failure
       AND NOT EXISTS (
         SELECT 1 FROM claims c2 LEFT JOIN labels l2 ON l2.question_id = c2.question_id AND l2.labeler = ?
         LEFT JOIN failures f2 ON f2.round_id = c.round_id AND f2.stage = 'label' AND f2.item = c2.question_id AND f2.retried_at IS NULL
         WHERE c2.candidate_id = c.id AND l2.question_id IS NULL AND f2.id IS NULL)
     ORDER BY c.id, cl.idx`,
  ).all(labeler, roundId, range.from, range.to, labeler) as { candidate_id: string; n_claims: number; p_yes: number | null; p_no: number | null; idx: number | null }[];
  const out: { candidate_id: string; n_claims: number; probs: { p_yes: number | null; p_no: number | null }[] }[] = [];
  for (const r of rows) {
    let last = out.at(-1);
    if (!last || last.candidate_id !== r.candidate_id) {
      out.push((last = { candidate_id: r.candidate_id, n_claims: r.n_claims, probs: [] }));
    }
    if (r.idx !== null) last.probs.push({ p_yes: r.p_yes, p_no: r.p_no });
  }
  return out;
}

/** A stored response score. */
export interface ScoreRow {
  candidate_id: string;
  round_id: number;
  n_claims: number;
  n_judged: number;
  n_rejected: number;
  rej_c: number | null;
  rej_p: number | null;
}

/** Stores response scores (idempotent). */
export function putScores(db: Db, rows: ScoreRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO scores (candidate_id, round_id, n_claims, n_judged, n_rejected, rej_c, rej_p)
     VALUES (@candidate_id, @round_id, @n_claims, @n_judged, @n_rejected, @rej_c, @rej_p) ON CONFLICT DO NOTHING`,
  );
  db.transaction(() => {
    for (const r of rows) ins.run(r);
  }).immediate();
}

/**
 * Whether the `llm` editor is done with an answer: its correction candidate `candidateId` exists, or its rewrite failed
 * (an unretried failure `item` of stage pair in `roundId`).
 */
export function rewriteDone(db: Db, candidateId: string, roundId: number, item: string): boolean {
  const row = stmt(
    db,
    `SELECT EXISTS (SELECT 1 FROM candidates WHERE id = ?) OR EXISTS (SELECT 1 FROM failures WHERE round_id = ? AND stage = 'pair' AND item = ? AND retried_at IS NULL) AS done`,
  ).get(candidateId, roundId, item) as { done: number };
  return !!row.done;
}

/** Each answer's finish reason in a round, by prompt id (sample 0). */
export function finishReasons(db: Db, roundId: number): Map<string, string> {
  const rows = stmt(db, 'SELECT prompt_id AS id, finish_reason AS r FROM candidates WHERE round_id = ? AND sample_index = 0').all(roundId) as { id: string; r: string }[];
  return new Map(rows.map((x) => [x.id, x.r]));
}
