// Kept pairs as exports read them, and deliveries: which pair went to which consumer, recorded once.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import type { RoundRow } from './rounds.js';

/** A kept pair with everything a trainer format needs (a row of v_pairs). */
export interface ExportPair {
  pair_id: string;
  round: number;
  method: string;
  prompt_id: string;
  instruction: string;
  image_id: string;
  image_path: string;
  chosen: string;
  rejected: string;
  chosen_score: number;
  rejected_score: number;
  margin: number;
  chosen_words: number;
  rejected_words: number;
  policy_model: string;
  labeler_model: string;
  meta_json: string | null;
  prompt_source: string;
  /** The prompt's earlier turns as JSON; null for a single-turn prompt. */
  history_json: string | null;
  /** 'rank' or 'correction' (pair.corrections), with a correction's editor and edit list (JSON); absent in old rows. */
  kind?: 'rank' | 'correction';
  editor?: string | null;
  edits_json?: string | null;
  /** Claim spans of each side (export/pull with spans, src/export/spans.ts); absent otherwise. */
  chosen_spans?: { start: number; end: number; claim: string; verdict: 'rejected' | 'accepted' | 'unjudged'; p_no: number | null; edited?: true }[];
  rejected_spans?: { start: number; end: number; claim: string; verdict: 'rejected' | 'accepted' | 'unjudged'; p_no: number | null }[];
  /** Each side's reference log-probs (export/pull with reference log-probs, src/export/reference.ts); absent otherwise. */
  ref_chosen?: ReferenceLogprob;
  ref_rejected?: ReferenceLogprob;
}

/** An answer's log-probs under the round's policy: summed over its tokens and the end token, their count, each token's. */
export interface ReferenceLogprob {
  sum: number;
  tokens: number;
  per_token: number[];
}

/** Images that a held-out evaluation round has seen: no pair on them is ever delivered or exported. */
export const HELD_OUT_IMAGES = `SELECT p.image_id FROM rounds r JOIN round_prompts rp ON rp.round_id = r.id JOIN prompts p ON p.id = rp.prompt_id
  WHERE r.purpose = 'eval'`;

/** How many kept pairs of `rounds` are withheld because their image is held out for evaluation. */
export function heldOutPairs(db: Db, rounds: readonly number[]): number {
  return (
    stmt(
      db,
      `SELECT COUNT(*) AS n FROM v_pairs v WHERE v.kept = 1 AND v.round IN (SELECT value FROM json_each(@rounds))
         AND v.image_id IN (${HELD_OUT_IMAGES})`,
    ).get({ rounds: JSON.stringify(rounds) }) as { n: number }
  ).n;
}

/**
 * The kept pairs (v_pairs.kept) of `rounds` whose image no evaluation round holds out, in delivery order: round, the prompt's input order, pair id. With a
 * consumer, only the pairs it has not been delivered yet. Iterated, never loaded whole.
 */
export function iterateKeptPairs(db: Db, rounds: readonly number[], consumer?: string): IterableIterator<ExportPair> {
  return stmt(
    db,
    `SELECT pair_id, round, method, prompt_id, instruction, image_id, image_path, chosen, rejected, chosen_score,
       rejected_score, margin, chosen_words, rejected_words, policy_model, labeler_model, meta_json, prompt_source,
       (SELECT history_json FROM prompts WHERE id = v.prompt_id) AS history_json, kind, editor, edits_json
     FROM v_pairs v
     WHERE v.kept = 1 AND v.round IN (SELECT value FROM json_each(@rounds))
       AND v.image_id NOT IN (${HELD_OUT_IMAGES})
       AND (@consumer IS NULL OR NOT EXISTS (
         SELECT 1 FROM delivered_pairs d WHERE d.consumer = @consumer AND d.pair_id = v.pair_id))
     ORDER BY v.round, v.prompt_ordinal, v.pair_id`,
  ).iterate({ rounds: JSON.stringify(rounds), consumer: consumer ?? null }) as IterableIterator<ExportPair>;
}

/** Every training round (evaluation rounds make no pairs), oldest first. */
export function allRounds(db: Db): RoundRow[] {
  return stmt(db, "SELECT * FROM rounds WHERE purpose = 'train' ORDER BY id").all() as RoundRow[];
}

/** A delivery to record. */
export interface NewDelivery {
  consumer: string;
  format: string;
  container: string;
  target: string;
  selector: string;
  bytes: number;
  sha256: string;
  /** The delivered pairs in file order. */
  pairIds: readonly string[];
}

/** Thrown when a pair was already delivered to the consumer (another pull for it committed first). */
export class AlreadyDeliveredError extends Error {
  override name = 'AlreadyDeliveredError';
}

/**
 * Records a delivery and its pairs; returns the delivery id. Call it inside the transaction that finishes the output.
 * Plain inserts: a pair already delivered to this consumer throws AlreadyDeliveredError and the caller's transaction
 * rolls back, so a pair never goes to one consumer twice.
 */
export function insertDelivery(db: Db, d: NewDelivery): number {
  const info = stmt(
    db,
    `INSERT INTO deliveries (consumer, format, container, target, selector, n_pairs, bytes, sha256, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(d.consumer, d.format, d.container, d.target, d.selector, d.pairIds.length, d.bytes, d.sha256, now());
  const id = Number(info.lastInsertRowid);
  const ins = stmt(db, 'INSERT INTO delivered_pairs (consumer, pair_id, delivery_id, position) VALUES (?, ?, ?, ?)');
  d.pairIds.forEach((pairId, position) => {
    try {
      ins.run(d.consumer, pairId, id, position);
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new AlreadyDeliveredError(
          `pair ${pairId} was delivered to consumer "${d.consumer}" by another pull that finished first; ` +
            'this pull delivered nothing: pull again for what is left.',
        );
      }
      throw e;
    }
  });
  return id;
}

/** A recorded delivery. */
export interface DeliveryRow {
  id: number;
  consumer: string;
  format: string;
  container: string;
  target: string;
  selector: string;
  n_pairs: number;
  bytes: number;
  sha256: string;
  created_at: string;
}

/** A consumer's deliveries, oldest first. */
export function deliveries(db: Db, consumer: string): DeliveryRow[] {
  return stmt(db, 'SELECT * FROM deliveries WHERE consumer = ? ORDER BY id').all(consumer) as DeliveryRow[];
}
