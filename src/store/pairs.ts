// Pairs: what pairing produced per prompt, and the round's length-balance decision.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { ALL_PROMPTS, type CandidateRow, type OrdinalRange } from './work.js';

/** A scored answer of a prompt, as pairing reads it. */
export interface ScoredCandidate {
  id: string;
  prompt_id: string;
  text: string;
  words: number;
  n_claims: number;
  n_judged: number;
  rej_c?: number | null;
  rej_p?: number | null;
  /** Distinct yes/no questions among its claims (divide only). */
  n_questions?: number;
  /** Another method's score (higher is better). */
  value?: number;
}

/**
 * Prompts of a round ready for pairing by `method` and not paired yet, each with its scored answers (ordered by
 * prompt, then id). Ready: all `samples` answers are in (or failed for good) and every answer is scored. `method` is a
 * pair method: rejc / rejp (divide's scores) or another feedback method's name (its answer_scores).
 */
export function pendingPairings(
  db: Db,
  roundId: number,
  method: string,
  samples: number,
  range: OrdinalRange = ALL_PROMPTS,
): Map<string, ScoredCandidate[]> {
  const rows = (DIVIDE_METHODS.includes(method) ? dividePairingRows : methodPairingRows)(db, roundId, method, samples, range);
  return byPrompt(rows);
}

/** The pair methods of the divide feedback method (its scores live in `scores`). */
const DIVIDE_METHODS: readonly string[] = ['rejc', 'rejp'];

function dividePairingRows(db: Db, roundId: number, method: string, samples: number, range: OrdinalRange): ScoredCandidate[] {
  return stmt(
    db,
    `WITH ready AS (
       SELECT rp.prompt_id, rp.ordinal FROM round_prompts rp
       LEFT JOIN pairings pg ON pg.round_id = rp.round_id AND pg.prompt_id = rp.prompt_id AND pg.method = ?
       WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND pg.prompt_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'pair' AND f.item = rp.prompt_id AND f.retried_at IS NULL)
         AND (SELECT COUNT(*) FROM candidates c JOIN scores s ON s.candidate_id = c.id
              WHERE c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id AND c.corrects_id IS NULL)
           + (SELECT COUNT(*) FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'generate'
              AND f.retried_at IS NULL AND f.item LIKE rp.prompt_id || '#%') >= ? + rp.extra_samples
     )
     SELECT c.id, c.prompt_id, c.text, c.words, s.n_claims, s.n_judged, s.rej_c, s.rej_p,
       (SELECT COUNT(DISTINCT cl.question_id) FROM claims cl WHERE cl.candidate_id = c.id) AS n_questions
     FROM ready JOIN candidates c ON c.round_id = ? AND c.prompt_id = ready.prompt_id AND c.corrects_id IS NULL
     JOIN scores s ON s.candidate_id = c.id
     ORDER BY ready.ordinal, c.id`,
  ).all(method, roundId, range.from, range.to, samples, roundId) as ScoredCandidate[];
}

// Another method's scores: ready once every answer has this method's score or an open score failure. An answer scored
// by such a method counts as one judged "claim" when it has a value, so the pair rules apply unchanged.
function methodPairingRows(db: Db, roundId: number, method: string, samples: number, range: OrdinalRange): ScoredCandidate[] {
  return stmt(
    db,
    `WITH ready AS (
       SELECT rp.prompt_id, rp.ordinal FROM round_prompts rp
       LEFT JOIN pairings pg ON pg.round_id = rp.round_id AND pg.prompt_id = rp.prompt_id AND pg.method = @method
       WHERE rp.round_id = @round AND rp.ordinal >= @from AND rp.ordinal < @to AND pg.prompt_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'pair' AND f.item = rp.prompt_id AND f.retried_at IS NULL)
         AND (SELECT COUNT(*) FROM candidates c JOIN answer_scores a ON a.candidate_id = c.id AND a.method = @method
              WHERE c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id)
           + (SELECT COUNT(*) FROM candidates c JOIN failures f ON f.round_id = c.round_id AND f.stage = 'score' AND f.item = c.id
              AND f.retried_at IS NULL WHERE c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id)
           + (SELECT COUNT(*) FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'generate'
              AND f.retried_at IS NULL AND f.item LIKE rp.prompt_id || '#%') >= @samples + rp.extra_samples
     )
     SELECT c.id, c.prompt_id, c.text, c.words, 1 AS n_claims, 1 AS n_judged, a.value
     FROM ready JOIN candidates c ON c.round_id = @round AND c.prompt_id = ready.prompt_id
     JOIN answer_scores a ON a.candidate_id = c.id AND a.method = @method
     WHERE a.value IS NOT NULL
     ORDER BY ready.ordinal, c.id`,
  ).all({ method, round: roundId, from: range.from, to: range.to, samples }) as ScoredCandidate[];
}

/** A pair as stored. */
export interface PairRow {
  id: string;
  round_id: number;
  prompt_id: string;
  method: string;
  chosen_id: string;
  rejected_id: string;
  chosen_score: number;
  rejected_score: number;
  margin: number;
  chosen_words: number;
  rejected_words: number;
  /** The quality gate's judged confidence and decision (1 kept, 0 dropped); absent: no gate ran. */
  confidence?: number | null;
  gate_kept?: number | null;
  /** 'rank' (default) or 'correction' (a corrected answer over its original), with the correction's editor. */
  kind?: 'rank' | 'correction';
  editor?: string | null;
}

/** Stores one prompt's pairs and marks the prompt paired, together. */
export function putPairing(
  db: Db,
  p: { round_id: number; prompt_id: string; method: string; considered: number; dropped: Record<string, number> },
  pairs: PairRow[],
): void {
  const ins = stmt(
    db,
    `INSERT INTO pairs (id, round_id, prompt_id, method, chosen_id, rejected_id, chosen_score, rejected_score, margin,
       chosen_words, rejected_words, confidence, gate_kept, kind, editor, created_at)
     VALUES (@id, @round_id, @prompt_id, @method, @chosen_id, @rejected_id, @chosen_score, @rejected_score, @margin,
       @chosen_words, @rejected_words, @confidence, @gate_kept, @kind, @editor, @created_at) ON CONFLICT (id) DO NOTHING`,
  );
  const mark = stmt(
    db,
    `INSERT INTO pairings (round_id, prompt_id, method, considered, dropped_json) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of pairs) ins.run({ confidence: null, gate_kept: null, kind: 'rank', editor: null, ...r, created_at: t });
    mark.run(p.round_id, p.prompt_id, p.method, p.considered, JSON.stringify(p.dropped));
  }).immediate();
}

/** A round's pairs of one method in a stable order (for length balance); pairs the quality gate dropped are left out. */
export function roundPairs(db: Db, roundId: number, method: string): PairRow[] {
  return stmt(db, 'SELECT * FROM pairs WHERE round_id = ? AND method = ? AND gate_kept IS NOT 0 ORDER BY id').all(roundId, method) as PairRow[];
}

/** Writes the length-balance decision and every pair's kept flag in one transaction. */
export function putBalance(
  db: Db,
  b: { round_id: number; method: string; r: number | null; objective: number | null; before: unknown; after: unknown },
  kept: { id: string; kept: boolean }[],
): void {
  const up = stmt(db, 'UPDATE pairs SET balance_kept = ? WHERE id = ?');
  const put = stmt(
    db,
    `INSERT INTO balances (round_id, method, r, objective, before_json, after_json) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (round_id, method) DO UPDATE SET r = excluded.r, objective = excluded.objective,
       before_json = excluded.before_json, after_json = excluded.after_json`,
  );
  db.transaction(() => {
    for (const k of kept) up.run(k.kept ? 1 : 0, k.id);
    put.run(b.round_id, b.method, b.r, b.objective, JSON.stringify(b.before), JSON.stringify(b.after));
  }).immediate();
}

/** Each answer's claims' p(yes)/p(no) under `labeler`, in claim order, for the answers of the given prompts of a round. */
export function claimProbs(db: Db, roundId: number, labeler: string, promptIds: readonly string[]): Map<string, { p_yes: number | null; p_no: number | null }[]> {
  const rows = stmt(
    db,
    `SELECT cl.candidate_id, l.p_yes, l.p_no FROM candidates c JOIN claims cl ON cl.candidate_id = c.id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE c.round_id = ? AND c.prompt_id IN (SELECT value FROM json_each(?)) ORDER BY cl.candidate_id, cl.idx`,
  ).all(labeler, roundId, JSON.stringify(promptIds)) as { candidate_id: string; p_yes: number | null; p_no: number | null }[];
  const out = new Map<string, { p_yes: number | null; p_no: number | null }[]>();
  for (const r of rows) {
    let l = out.get(r.candidate_id);
    if (!l) out.set(r.candidate_id, (l = []));
    l.push({ p_yes: r.p_yes, p_no: r.p_no });
  }
  return out;
}

/**
 * The quality gate's top-up: prompts of a round paired by `method` with no pair the gate kept, never topped up and
 * with nothing delivered, get `extra` more samples and lose their pairing (and gate-dropped pairs) so they are paired
 * again with every answer. One transaction; returns how many prompts were topped up.
 */
export function markTopUps(db: Db, roundId: number, method: string, extra: number): number {
  return db.transaction(() => {
    const ids = stmt(
      db,
      `SELECT rp.prompt_id FROM round_prompts rp JOIN pairings pg ON pg.round_id = rp.round_id AND pg.prompt_id = rp.prompt_id AND pg.method = @method
       WHERE rp.round_id = @round AND rp.extra_samples = 0
         AND NOT EXISTS (SELECT 1 FROM pairs p WHERE p.round_id = rp.round_id AND p.prompt_id = rp.prompt_id AND p.method = @method AND p.gate_kept IS NOT 0)
         AND NOT EXISTS (SELECT 1 FROM pairs p JOIN delivered_pairs d ON d.pair_id = p.id WHERE p.round_id = rp.round_id AND p.prompt_id = rp.prompt_id)`,
    ).pluck().all({ method, round: roundId }) as string[];
    const json = JSON.stringify(ids);
    stmt(db, 'UPDATE round_prompts SET extra_samples = ? WHERE round_id = ? AND prompt_id IN (SELECT value FROM json_each(?))').run(extra, roundId, json);
    stmt(db, 'DELETE FROM pairs WHERE round_id = ? AND method = ? AND prompt_id IN (SELECT value FROM json_each(?))').run(roundId, method, json);
    stmt(db, 'DELETE FROM pairings WHERE round_id = ? AND method = ? AND prompt_id IN (SELECT value FROM json_each(?))').run(roundId, method, json);
    return ids.length;
  }).immediate();
}

/** A sampled answer of a prompt with its claims' verdict inputs, as the correction editors read it. */
export interface CorrectionSource extends Pick<CandidateRow, 'id' | 'prompt_id' | 'sample_index' | 'seed' | 'model_id' | 'decoding_json' | 'text'> {
  claims: { id: string; sentence: string; claim: string; question: string; p_yes: number | null; p_no: number | null }[];
}

/** The sampled answers (not corrections) of the given prompts of a round, each with its claims and `labeler`'s labels. */
export function correctionSources(db: Db, roundId: number, labeler: string, promptIds: readonly string[]): Map<string, CorrectionSource[]> {
  const rows = stmt(
    db,
    `SELECT c.id, c.prompt_id, c.sample_index, c.seed, c.model_id, c.decoding_json, c.text,
       cl.id AS claim_id, cl.sentence, cl.claim, q.text AS question, l.p_yes, l.p_no
     FROM candidates c JOIN divisions d ON d.candidate_id = c.id
     LEFT JOIN claims cl ON cl.candidate_id = c.id LEFT JOIN questions q ON q.id = cl.question_id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE c.round_id = ? AND c.corrects_id IS NULL AND c.prompt_id IN (SELECT value FROM json_each(?))
     ORDER BY c.prompt_id, c.sample_index, cl.idx`,
  ).all(labeler, roundId, JSON.stringify(promptIds)) as (Omit<CorrectionSource, 'claims'> & {
    claim_id: string | null;
    sentence: string | null;
    claim: string | null;
    question: string | null;
    p_yes: number | null;
    p_no: number | null;
  })[];
  const out = new Map<string, CorrectionSource[]>();
  for (const r of rows) {
    let l = out.get(r.prompt_id);
    if (!l) out.set(r.prompt_id, (l = []));
    let a = l.at(-1);
    if (!a || a.id !== r.id) {
      a = { id: r.id, prompt_id: r.prompt_id, sample_index: r.sample_index, seed: r.seed, model_id: r.model_id, decoding_json: r.decoding_json, text: r.text, claims: [] };
      l.push(a);
    }
    if (r.claim_id !== null) a.claims.push({ id: r.claim_id, sentence: r.sentence!, claim: r.claim!, question: r.question!, p_yes: r.p_yes, p_no: r.p_no });
  }
  return out;
}

/** A scored corrected answer with its original's score, as correction pairing reads it. */
export interface ScoredCorrection extends ScoredCandidate {
  corrects_id: string;
  editor: string;
  n_rejected: number;
  original_n_rejected: number;
  original_rej_c: number | null;
  original_rej_p: number | null;
  original_n_claims: number;
  original_n_judged: number;
  original_n_questions: number;
  original_text: string;
  original_words: number;
}

/** The scored corrected answers of the given prompts of a round, by prompt (ordered by id); of a `refine` dialogue only its chosen revision. */
export function scoredCorrections(db: Db, roundId: number, promptIds: readonly string[]): Map<string, ScoredCorrection[]> {
  const rows = stmt(
    db,
    `SELECT c.id, c.prompt_id, c.text, c.words, s.n_claims, s.n_judged, s.n_rejected, s.rej_c, s.rej_p, c.corrects_id, c.editor,
       (SELECT COUNT(DISTINCT cl.question_id) FROM claims cl WHERE cl.candidate_id = c.id) AS n_questions,
       os.n_rejected AS original_n_rejected, os.rej_c AS original_rej_c, os.rej_p AS original_rej_p, os.n_claims AS original_n_claims, os.n_judged AS original_n_judged,
       (SELECT COUNT(DISTINCT cl.question_id) FROM claims cl WHERE cl.candidate_id = o.id) AS original_n_questions,
       o.text AS original_text, o.words AS original_words
     FROM candidates c JOIN scores s ON s.candidate_id = c.id
     JOIN candidates o ON o.id = c.corrects_id JOIN scores os ON os.candidate_id = o.id
     WHERE c.round_id = ? AND c.corrects_id IS NOT NULL AND c.prompt_id IN (SELECT value FROM json_each(?))
       -- A refinement dialogue offers one revision: the one its end chose (db/014).
       AND (c.editor IS NOT 'refine' OR c.id IN (SELECT chosen_id FROM dialogues WHERE round_id = c.round_id))
     ORDER BY c.prompt_id, c.id`,
  ).all(roundId, JSON.stringify(promptIds)) as ScoredCorrection[];
  return byPrompt(rows);
}

/** Rows grouped by their prompt, in row order. */
function byPrompt<R extends { prompt_id: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    let l = out.get(r.prompt_id);
    if (!l) out.set(r.prompt_id, (l = []));
    l.push(r);
  }
  return out;
}
