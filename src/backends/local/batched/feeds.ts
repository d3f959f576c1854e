// Feeds of decoder runs on a cached prefix: embeddings with image tokens replaced by the image's features, masks and
// positions of right-padded batches (a real token never sees a padded position; positions continue from the prefix).
import { repeatRows, type ImageFeatures, type KvCache, type LlavaGraphs } from '../graphs.js';

/** How many image tokens ids[0, end) holds. */
export function countImageTokens(g: LlavaGraphs, ids: readonly number[], end = ids.length): number {
  let k = 0;
  for (let i = 0; i < end; i++) if (ids[i] === g.info.imageTokenIndex) k++;
  return k;
}

/**
 * Writes the embeddings of ids[from, from + count) at `out[offset...]`: token embeddings, with the image tokens
 * replaced by the image's features in order (the k-th image token of the prompt gets feature row k).
 */
export function writeEmbeds(
  g: LlavaGraphs,
  rows: Map<number, Float32Array>,
  ids: readonly number[],
  from: number,
  count: number,
  features: ImageFeatures | null,
  out: Float32Array,
  offset: number,
): void {
  const h = g.hidden;
  const img = g.info.imageTokenIndex;
  let k = from === 0 ? 0 : countImageTokens(g, ids, from);
  for (let j = 0; j < count; j++) {
    const id = ids[from + j]!;
    const at = offset + j * h;
    if (id === img) {
      if (!features || k >= features.tokens) throw new Error(`Number of tokens and features do not match: tokens: ${countImageTokens(g, ids)}, features ${features?.tokens ?? 0}`);
      out.set(features.data.subarray(k * h, (k + 1) * h), at);
      k++;
    } else {
      out.set(rows.get(id)!, at);
    }
  }
}

/**
 * Mask, positions and cache of one right-padded batch of continuations (of the given lengths) on a one-row prefix
 * cache (or none). Padded positions keep counting up, so every position stays within the longest row's.
 */
export function continuationFeeds(
  prefix: KvCache | null,
  lengths: readonly number[],
): { rows: number; seq: number; mask: BigInt64Array; positions: BigInt64Array; past: KvCache | null } {
  return { ...continuationLayout(prefix ? prefix.length : 0, lengths), past: prefix ? repeatRows(prefix, lengths.length) : null };
}

/** Mask and positions of one right-padded batch of continuations (of the given lengths) after `p` cached positions. */
export function continuationLayout(p: number, lengths: readonly number[]): { rows: number; seq: number; mask: BigInt64Array; positions: BigInt64Array } {
  const b = lengths.length;
  const seq = Math.max(...lengths);
  const mask = new BigInt64Array(b * (p + seq));
  const positions = new BigInt64Array(b * seq);
  const range = positionRange(p + seq);
  lengths.forEach((len, r) => {
    mask.fill(1n, r * (p + seq), r * (p + seq) + p + len);
    positions.set(range.subarray(p, p + seq), r * seq);
  });
  return { rows: b, seq, mask, positions };
}

/** The ids after the first `p` of each row (those to embed). */
export function* continuationIds(rows: readonly (readonly number[])[], p: number): Generator<number> {
  for (const ids of rows) for (let i = p; i < ids.length; i++) yield ids[i]!;
}

let range = new BigInt64Array(0);
/** 0, 1, ..., n - 1 as int64 (grown on demand, shared). */
export function positionRange(n: number): BigInt64Array {
  if (range.length < n) range = BigInt64Array.from({ length: Math.max(n, 2 * range.length, 256) }, (_, i) => BigInt(i));
  return range;
}
