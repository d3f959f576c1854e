// Reference log-probs of a pair's two sides (pair.reference_logprobs): each answer teacher-forced under the round's
// policy at pairing time. Exported when asked for (--reference-logprobs), so a trainer can skip its reference pass.
import { pairSideLogprob, type Db } from '../store/index.js';
import type { ExportPair, ReferenceLogprob } from '../store/deliveries.js';
import { ExportInputError } from './errors.js';
import { withSpans } from './spans.js';
import type { Container } from './formats.js';

/** Reference log-probs go in JSON rows only (a Parquet file's schema is fixed to the data set's columns). */
export function referenceAllowed(container: Container): void {
  if (container === 'parquet') {
    throw new ExportInputError('--reference-logprobs: reference log-probs are written to JSON Lines and JSON files only, not Parquet; give a .jsonl or .json --out.');
  }
}

/**
 * Adds `ref_chosen` and `ref_rejected` to each exported pair: its sides' log-probs under the pair's round policy. A
 * pair without them (a round made without pair.reference_logprobs) stops the export: a file where some rows have
 * reference log-probs and others not would make a trainer mix its own pass with stored values.
 */
export function* withReferenceLogprobs(db: Db, rows: Iterable<ExportPair>): IterableIterator<ExportPair> {
  const get = (pair: string, which: 'chosen' | 'rejected'): ReferenceLogprob => {
    const r = pairSideLogprob(db, pair, which);
    if (!r) {
      throw new ExportInputError(
        `--reference-logprobs: pair ${pair} has no reference log-probs for its ${which} answer; ` +
          'run the round with pair.reference_logprobs: true (`rlaifv pair --round N` with it adds them to a finished round).',
      );
    }
    return { sum: r.sum, tokens: r.tokens, per_token: JSON.parse(r.per_token_json) as number[] };
  };
  for (const p of rows) yield { ...p, ref_chosen: get(p.pair_id, 'chosen'), ref_rejected: get(p.pair_id, 'rejected') };
}

/** The exported pairs with the optional columns asked for: claim spans, reference log-probs. */
export function withColumns(db: Db, rows: Iterable<ExportPair>, o: { spans?: boolean; referenceLogprobs?: boolean }): Iterable<ExportPair> {
  const spanned = o.spans ? withSpans(db, rows) : rows;
  return o.referenceLogprobs ? withReferenceLogprobs(db, spanned) : spanned;
}
