// The stages' rows: candidates, divisions, claims, questions, labels, scores; and what each stage has left to do.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

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
}

/** Sample indices already stored (or failed for good) per prompt of a round. */
export function doneSamples(db: Db, roundId: number): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const rows = stmt(
    db,
    `SELECT prompt_id, sample_index FROM candidates WHERE round_id = ?`,
  ).all(roundId) as { prompt_id: string; sample_index: number }[];
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
       prompt_tokens, completion_tokens, words, created_at)
     VALUES (@id, @round_id, @prompt_id, @sample_index, @seed, @model_id, @decoding_json, @text, @finish_reason,
       @prompt_tokens, @completion_tokens, @words, @created_at)
     ON CONFLICT (id) DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run({ ...r, created_at: t });
  })();
}

/** Candidates of a round not divided yet, with their prompt's question and image. */
export function pendingDivision(
  db: Db,
  roundId: number,
  limit: number,
): (CandidateRow & { question: string; image_id: string })[] {
  return stmt(
    db,
    `SELECT c.*, p.question, p.image_id FROM candidates c JOIN prompts p ON p.id = c.prompt_id
     LEFT JOIN divisions d ON d.candidate_id = c.id
     WHERE c.round_id = ? AND d.candidate_id IS NULL
     ORDER BY c.prompt_id, c.sample_index LIMIT ?`,
  ).all(roundId, limit) as (CandidateRow & { question: string; image_id: string })[];
}

/** One divided candidate: its claims with their question ids, and the division record. */
export interface Division {
  candidateId: string;
  divider: string;
  truncated: boolean;
  skipped: { sentence: string; reason: string }[];
  claims: { id: string; idx: number; sentence: string; claim: string; questionId: string; questionText: string; imageId: string }[];
}

/** Stores divisions (questions shared, claims and division rows) in one transaction. */
export function putDivisions(db: Db, divs: Division[]): void {
  const q = stmt(db, `INSERT INTO questions (id, image_id, text) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`);
  const c = stmt(
    db,
    `INSERT INTO claims (id, candidate_id, idx, sentence, claim, question_id) VALUES (?, ?, ?, ?, ?, ?)
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
        c.run(cl.id, div.candidateId, cl.idx, cl.sentence, cl.claim, cl.questionId);
      }
      d.run(div.candidateId, div.divider, div.claims.length, JSON.stringify(div.skipped), div.truncated ? 1 : 0, t);
    }
  })();
}

/** A question waiting for the labeler, with its image path. */
export interface PendingQuestion {
  id: string;
  image_id: string;
  image_path: string;
  text: string;
}

/** Distinct questions of a round's claims without a label from this labeler (nor a failure), grouped by image. */
export function pendingLabels(db: Db, roundId: number, labeler: string, limit: number): PendingQuestion[] {
  return stmt(
    db,
    `SELECT DISTINCT q.id, q.image_id, i.path AS image_path, q.text
     FROM candidates c JOIN claims cl ON cl.candidate_id = c.id JOIN questions q ON q.id = cl.question_id
     JOIN images i ON i.id = q.image_id
     LEFT JOIN labels l ON l.question_id = q.id AND l.labeler = ?
     LEFT JOIN failures f ON f.round_id = c.round_id AND f.stage = 'label' AND f.item = q.id
     WHERE c.round_id = ? AND l.question_id IS NULL AND f.id IS NULL
     ORDER BY q.image_id, q.id LIMIT ?`,
  ).all(labeler, roundId, limit) as PendingQuestion[];
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
  })();
}

/** Per divided, unscored candidate of a round: its claims' label probabilities (null when not labeled). */
export function pendingScores(
  db: Db,
  roundId: number,
  labeler: string,
): { candidate_id: string; n_claims: number; probs: { p_yes: number | null; p_no: number | null }[] }[] {
  const rows = stmt(
    db,
    `SELECT c.id AS candidate_id, d.n_claims, l.p_yes, l.p_no, cl.idx
     FROM candidates c JOIN divisions d ON d.candidate_id = c.id
     LEFT JOIN scores s ON s.candidate_id = c.id
     LEFT JOIN claims cl ON cl.candidate_id = c.id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE c.round_id = ? AND s.candidate_id IS NULL
       -- ready only when every claim has this labeler's answer or a recorded label failure
       AND NOT EXISTS (
         SELECT 1 FROM claims c2 LEFT JOIN labels l2 ON l2.question_id = c2.question_id AND l2.labeler = ?
         LEFT JOIN failures f2 ON f2.round_id = c.round_id AND f2.stage = 'label' AND f2.item = c2.question_id
         WHERE c2.candidate_id = c.id AND l2.question_id IS NULL AND f2.id IS NULL)
     ORDER BY c.id, cl.idx`,
  ).all(labeler, roundId, labeler) as { candidate_id: string; n_claims: number; p_yes: number | null; p_no: number | null; idx: number | null }[];
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
  })();
}
