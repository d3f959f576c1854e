// Prompt prefixes run once: an image's prompts share the chat-template prefix and the image tokens, so the prefix's
// key/value cache is computed once (across images, once with a row per image) and rows continue from it.
import { logitsAt, repeatRows, type ImageFeatures, type KvCache, type LlavaGraphs } from '../graphs.js';
import { positionRange, writeEmbeds } from './feeds.js';
import { rowsWithinCacheBudget } from './plan.js';

/** A prompt prefix that has been run: its ids (image tokens as the image token id), its cache and last logits. */
export interface SharedPrefix {
  ids: readonly number[];
  /** [1 row, ids.length] cache; null for the empty prefix. */
  cache: KvCache | null;
  /** Logits of the prefix's last position (what a prompt that is only the prefix would answer); null when empty. */
  lastLogits: Float32Array | null;
}

/** The empty prefix: nothing run yet. */
export const EMPTY_PREFIX: SharedPrefix = { ids: [], cache: null, lastLogits: null };

/** Length of the longest common prefix of the given id lists. */
export function commonPrefixLength(rows: readonly (readonly number[])[]): number {
  if (rows.length === 0) return 0;
  const first = rows[0]!;
  let n = Math.min(...rows.map((r) => r.length));
  for (const r of rows) {
    let k = 0;
    while (k < n && r[k] === first[k]) k++;
    n = k;
  }
  return n;
}

/**
 * Runs ids[prefix.ids.length, ids.length) as one row on the prefix's cache: the cache and last logits of the whole of
 * `ids`. `ids` must start with the prefix's ids.
 */
export async function extendPrefix(
  g: LlavaGraphs,
  prefix: SharedPrefix,
  ids: readonly number[],
  features: ImageFeatures | null,
): Promise<SharedPrefix> {
  const p = prefix.ids.length;
  for (let i = 0; i < p; i++) if (ids[i] !== prefix.ids[i]) throw new Error('extendPrefix: ids do not start with the prefix');
  const n = ids.length - p;
  if (n === 0) return prefix;
  const rows = await g.embedRowsOf(ids.slice(p));
  const embeds = new Float32Array(n * g.hidden);
  writeEmbeds(g, rows, ids, p, n, features, embeds, 0);
  const out = await g.decode(
    {
      rows: 1,
      seq: n,
      embeds,
      mask: new BigInt64Array(p + n).fill(1n),
      positions: positionRange(p + n).slice(p, p + n),
      past: prefix.cache,
    },
    true,
  );
  return { ids: [...ids], cache: out.cache!, lastLogits: logitsAt(out, 0, n - 1) };
}

/** One row of a run prefix: which cache and row hold it, and the logits of its last position. */
export interface PrefixRow {
  /** null when the prefix is empty */
  cache: KvCache | null;
  row: number;
  lastLogits: Float32Array | null;
}

/**
 * The cache of the given rows, each taken from its own cache (all of the same length), in order: the past of a
 * batch whose rows continue different prefixes (the same prompt prefix run on different images).
 */
export function gatherRows(refs: readonly { cache: KvCache; row: number }[]): KvCache {
  const first = refs[0]!.cache;
  if (refs.every((r) => r.cache === first && r.row === 0) && first.rows === 1) return repeatRows(first, refs.length);
  return {
    rows: refs.length,
    length: first.length,
    data: first.data.map((_, i) => {
      const per = first.data[i]!.length / first.rows;
      const out = new Float32Array(per * refs.length);
      refs.forEach((r, k) => {
        if (r.cache.length !== first.length) throw new Error('gatherRows: caches of different lengths');
        out.set(r.cache.data[i]!.subarray(r.row * per, (r.row + 1) * per), k * per);
      });
      return out;
    }),
  };
}

/**
 * Runs ids[head.ids.length, ids.length) on the head's cache once per feature set, as rows of batched runs (the same
 * prompt prefix with different images): row k's cache and last logits equal what {@link extendPrefix} gives for
 * features[k]. Runs hold at most `maxRows` rows.
 */
export async function extendPrefixRows(
  g: LlavaGraphs,
  head: SharedPrefix,
  ids: readonly number[],
  features: readonly (ImageFeatures | null)[],
  maxRows = Infinity,
): Promise<PrefixRow[]> {
  const p = head.ids.length;
  for (let i = 0; i < p; i++) if (ids[i] !== head.ids[i]) throw new Error('extendPrefixRows: ids do not start with the head');
  const n = ids.length - p;
  if (n === 0) return features.map(() => ({ cache: head.cache, row: 0, lastLogits: head.lastLogits }));
  const table = await g.embedRowsOf(ids.slice(p));
  const per = Math.max(1, Math.min(maxRows, rowsWithinCacheBudget(g, ids.length)));
  const out: PrefixRow[] = [];
  const positions = positionRange(p + n).slice(p, p + n);
  for (let at = 0; at < features.length; at += per) {
    const fs = features.slice(at, at + per);
    const rows = fs.length;
    const embeds = new Float32Array(rows * n * g.hidden);
    fs.forEach((f, r) => writeEmbeds(g, table, ids, p, n, f, embeds, r * n * g.hidden));
    const pos = new BigInt64Array(rows * n);
    for (let r = 0; r < rows; r++) pos.set(positions, r * n);
    const res = await g.decode(
      { rows, seq: n, embeds, mask: new BigInt64Array(rows * (p + n)).fill(1n), positions: pos, past: head.cache ? repeatRows(head.cache, rows) : null },
      true,
    );
    for (let r = 0; r < rows; r++) out.push({ cache: res.cache!, row: r, lastLogits: logitsAt(res, r, n - 1) });
  }
  return out;
}
