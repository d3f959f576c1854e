// Pairs: what pairing produced per prompt, and the round's length-balance decision.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { ALL_PROMPTS, type OrdinalRange } from './work.js';

/** A scored answer of a prompt, as pairing reads it. */
export interface ScoredCandidate {
  id: string;
  prompt_id: string;
  text: string;
  words: number;
  n_claims: number;
  n_judged: number;
  rej_c: number | null;
  rej_p: number | null;
  /** Distinct yes/no questions among its claims. */
  n_questions: number;
}

/**
 * Prompts of a round ready for pairing by `method` and not paired yet, each with its scored answers (ordered by
 * prompt, then id). Ready: all `samples` answers are in (or failed for good) and every answer is scored.
 */
export function pendingPairings(
  db: Db,
  roundId: number,
  method: string,
  samples: number,
  range: OrdinalRange = ALL_PROMPTS,
): Map<string, ScoredCandidate[]> {
  const rows = stmt(
    db,
    `WITH ready AS (
       SELECT rp.prompt_id, rp.ordinal FROM round_prompts rp
       LEFT JOIN pairings pg ON pg.round_id = rp.round_id AND pg.prompt_id = rp.prompt_id AND pg.method = ?
       WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND pg.prompt_id IS NULL
         AND (SELECT COUNT(*) FROM candidates c JOIN scores s ON s.candidate_id = c.id
              WHERE c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id)
           + (SELECT COUNT(*) FROM failures f WHERE f.round_id = rp.round_id AND f.stage = 'generate'
              AND f.retried_at IS NULL AND f.item LIKE rp.prompt_id || '#%') >= ?
     )
     SELECT c.id, c.prompt_id, c.text, c.words, s.n_claims, s.n_judged, s.rej_c, s.rej_p,
       (SELECT COUNT(DISTINCT cl.question_id) FROM claims cl WHERE cl.candidate_id = c.id) AS n_questions
     FROM ready JOIN candidates c ON c.round_id = ? AND c.prompt_id = ready.prompt_id
     JOIN scores s ON s.candidate_id = c.id
     ORDER BY ready.ordinal, c.id`,
  ).all(method, roundId, range.from, range.to, samples, roundId) as ScoredCandidate[];
  const out = new Map<string, ScoredCandidate[]>();
  for (const r of rows) {
    let l = out.get(r.prompt_id);
    if (!l) out.set(r.prompt_id, (l = []));
    l.push(r);
  }
  return out;
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
       chosen_words, rejected_words, created_at)
     VALUES (@id, @round_id, @prompt_id, @method, @chosen_id, @rejected_id, @chosen_score, @rejected_score, @margin,
       @chosen_words, @rejected_words, @created_at) ON CONFLICT (id) DO NOTHING`,
  );
  const mark = stmt(
    db,
    `INSERT INTO pairings (round_id, prompt_id, method, considered, dropped_json) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of pairs) ins.run({ ...r, created_at: t });
    mark.run(p.round_id, p.prompt_id, p.method, p.considered, JSON.stringify(p.dropped));
  })();
}

/** A round's pairs of one method in a stable order (for length balance). */
export function roundPairs(db: Db, roundId: number, method: string): PairRow[] {
  return stmt(db, 'SELECT * FROM pairs WHERE round_id = ? AND method = ? ORDER BY id').all(roundId, method) as PairRow[];
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
  })();
}
