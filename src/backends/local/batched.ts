// Shared-prefix batching: an image's prompts share the chat-template prefix and the image tokens, so the prefix's
// key/value cache is computed once and every question (labeler) or every sample (policy) continues from it in
// batches. Every row gives what a one-row run of its whole prompt gives (within float noise): a real token never
// sees a padded position, and positions continue from the prefix as in the unbatched run. Across images, the prefix
// is run once with a row per image (extendPrefixRows) and a batch's rows may continue different images' rows, each
// row's past gathered from its own image's (continuationLogitsAcross).
import { keepRows, logitsAt, repeatRows, type DecoderOut, type ImageFeatures, type KvCache, type LlavaGraphs } from './graphs.js';
import { sampleToken, seededRng, type SamplingSettings } from './sampling.js';

/** How continuations are cut into decoder runs. */
export interface BatchPlanOptions {
  /** Most padded tokens (rows × longest row) in one run; a row longer than this runs alone. */
  tokenBudget: number;
  /** What one more run costs, in padded tokens (the fixed cost of a session run). */
  runCost: number;
  /** Most rows in one run (unbounded when absent). */
  maxRows?: number;
}

/**
 * Measured on the tiny models with one onnxruntime thread: a decoder run costs about 90 µs plus 16 µs per padded
 * token, so one more run is worth about 6 tokens; 2048 tokens keep a run's activations small.
 */
export const DEFAULT_PLAN: BatchPlanOptions = { tokenBudget: 2048, runCost: 6 };

/**
 * Most floats the key/value caches of one batch may hold (256 MB): a batch repeats its prefix's cache per row, which
 * for a large model with hundreds of image tokens is what bounds the rows of a run.
 */
export const CACHE_BUDGET_FLOATS = 64 * 1024 * 1024;

/** Most rows a batch may have when each row's cache reaches `length` positions (at least 1). */
export function rowsWithinCacheBudget(g: LlavaGraphs, length: number): number {
  return Math.max(1, Math.floor(CACHE_BUDGET_FLOATS / (Math.max(1, length) * g.cacheFloatsPerToken)));
}

/**
 * Cuts rows of the given lengths into batches of similar length: rows are sorted by length, and the cut minimises
 * runs × runCost + padded tokens, with no batch above the token budget or the row limit (a row longer than the budget
 * runs alone).
 * Returns row indices per batch, shortest batch first, each batch in ascending length.
 * @example planBatches([3, 10, 3, 11], { tokenBudget: 100, runCost: 4 }) // [[0, 2], [1, 3]]
 */
export function planBatches(lengths: readonly number[], opts: BatchPlanOptions = DEFAULT_PLAN): number[][] {
  const n = lengths.length;
  if (n === 0) return [];
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const len = order.map((i) => lengths[i]!);
  // best[j]: cheapest cost of the first j sorted rows; from[j]: where the last batch starts.
  const best = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const longest = len[j - 1]!;
    for (let i = j - 1; i >= 0; i--) {
      const padded = (j - i) * longest;
      if ((padded > opts.tokenBudget || (opts.maxRows !== undefined && j - i > opts.maxRows)) && i < j - 1) break;
      const c = best[i]! + opts.runCost + padded;
      if (c < best[j]!) {
        best[j] = c;
        from[j] = i;
      }
    }
  }
  const batches: number[][] = [];
  for (let j = n; j > 0; j = from[j]!) batches.push(order.slice(from[j]!, j));
  return batches.reverse();
}

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
function writeEmbeds(
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

/**
 * Last-position logits of each prompt, all continuing from one shared prefix, batched: rows of similar length go
 * together, right-padded (a real token never attends to a later position, and the padding is masked), positions
 * continuing from the prefix, the prefix cache repeated to the batch; only the logits are fetched. Every prompt must
 * start with the prefix's ids; one that is the prefix gets the prefix's last logits.
 */
export async function continuationLogits(
  g: LlavaGraphs,
  prefix: SharedPrefix,
  prompts: readonly (readonly number[])[],
  features: ImageFeatures | null,
  plan: BatchPlanOptions = DEFAULT_PLAN,
): Promise<Float32Array[]> {
  const p = prefix.ids.length;
  const out = new Array<Float32Array>(prompts.length);
  const rest: number[] = [];
  prompts.forEach((ids, i) => {
    for (let k = 0; k < p; k++) if (ids[k] !== prefix.ids[k]) throw new Error('continuationLogits: a prompt does not start with the prefix');
    if (ids.length === p) out[i] = prefix.lastLogits!;
    else rest.push(i);
  });
  const lengths = rest.map((i) => prompts[i]!.length - p);
  const maxRows = Math.min(plan.maxRows ?? Infinity, rowsWithinCacheBudget(g, p + Math.max(0, ...lengths)));
  for (const batch of planBatches(lengths, { ...plan, maxRows })) {
    const rowsIds = batch.map((b) => prompts[rest[b]!]!);
    const lens = batch.map((b) => lengths[b]!);
    const f = continuationFeeds(prefix.cache, lens);
    const h = g.hidden;
    const embeds = new Float32Array(f.rows * f.seq * h);
    const table = await g.embedRowsOf(continuationIds(rowsIds, p));
    rowsIds.forEach((ids, r) => writeEmbeds(g, table, ids, p, lens[r]!, features, embeds, r * f.seq * h));
    const res = await g.decode({ ...f, embeds }, false);
    batch.forEach((b, r) => (out[rest[b]!] = logitsAt(res, r, lens[r]! - 1)));
  }
  return out;
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

/** One prompt continuing a run prefix: its ids (starting with the prefix's), its image's features, its prefix row. */
export interface ContinuationRow {
  ids: readonly number[];
  features: ImageFeatures | null;
  prefix: PrefixRow;
}

/**
 * Last-position logits of prompts that continue prefixes of one length `p` (the same prompt prefix, run per image),
 * batched across prefixes: rows of similar length go together whatever their image, each row's past gathered from
 * its own prefix row, right-padded as in {@link continuationLogits}. A prompt that is its prefix gets the prefix's
 * last logits. Each row gives what {@link continuationLogits} gives it on its own prefix.
 */
export async function continuationLogitsAcross(
  g: LlavaGraphs,
  p: number,
  rows: readonly ContinuationRow[],
  plan: BatchPlanOptions = DEFAULT_PLAN,
): Promise<Float32Array[]> {
  const out = new Array<Float32Array>(rows.length);
  const rest: number[] = [];
  rows.forEach((r, i) => {
    if (r.ids.length === p) out[i] = r.prefix.lastLogits!;
    else rest.push(i);
  });
  await runContinuations(g, p, rest.map((i) => rows[i]!), plan, (res, k, b, len) => (out[rest[b]!] = logitsAt(res, k, len - 1)));
  return out;
}

/**
 * Teacher-forced log-probabilities of each row's tokens from `from[i]` on (each given every token before it), with
 * rows continuing prefixes of one length `p` as in {@link continuationLogitsAcross}: the token right after the prefix
 * is read from the prefix's last logits, the others from one batched run of the row (its last token is never fed).
 * `from[i]` must be at least `p` and at least 1 (the first token of a sequence has no log-probability). Full-vocabulary
 * log-softmax in double precision.
 * @example continuationTokenLogprobs(g, prompt.length, [{ ids: [...prompt, ...answer, eos], features, prefix }], [prompt.length])
 */
export async function continuationTokenLogprobs(
  g: LlavaGraphs,
  p: number,
  rows: readonly ContinuationRow[],
  from: readonly number[],
  plan: BatchPlanOptions = DEFAULT_PLAN,
): Promise<Float64Array[]> {
  const out = rows.map((r, i) => {
    const f = from[i]!;
    if (f < p || f < 1 || f > r.ids.length) throw new Error(`continuationTokenLogprobs: row ${i} scores from ${f}, its prefix is ${p} and it has ${r.ids.length} tokens`);
    return new Float64Array(r.ids.length - f);
  });
  const run: number[] = [];
  rows.forEach((r, i) => {
    if (from[i] === p && r.ids.length > p) {
      const last = r.prefix.lastLogits;
      if (!last) throw new Error(`continuationTokenLogprobs: row ${i} scores the token after an empty prefix`);
      out[i]![0] = logprobOf(last, 0, last.length, r.ids[p]!);
    }
    // Tokens after the first one past the prefix need a run (of all but the last token: it is never an input).
    if (r.ids.length > Math.max(from[i]!, p + 1)) run.push(i);
  });
  const fed = run.map((i) => ({ ...rows[i]!, ids: rows[i]!.ids.slice(0, -1) }));
  await runContinuations(g, p, fed, plan, (res, k, b) => {
    const i = run[b]!;
    const ids = rows[i]!.ids;
    const f = from[i]!;
    // Token t is predicted at position t - 1, which is run position t - 1 - p.
    for (let t = Math.max(f, p + 1); t < ids.length; t++) out[i]![t - f] = logprobOf(res.logits, (k * res.seq + t - 1 - p) * res.vocab, res.vocab, ids[t]!);
  });
  return out;
}

/** log softmax(logits[offset, offset + vocab))[id], in double precision. */
export function logprobOf(logits: Float32Array, offset: number, vocab: number, id: number): number {
  let max = -Infinity;
  for (let j = 0; j < vocab; j++) if (logits[offset + j]! > max) max = logits[offset + j]!;
  let sum = 0;
  for (let j = 0; j < vocab; j++) sum += Math.exp(logits[offset + j]! - max);
  return logits[offset + id]! - max - Math.log(sum);
}

/**
 * Runs rows (each longer than `p`) on their prefix rows in batches of similar length, right-padded, each row's past
 * gathered from its own prefix row; `take(res, k, b, len)` reads row b's outputs at batch row k (its `len` run tokens).
 */
async function runContinuations(
  g: LlavaGraphs,
  p: number,
  rows: readonly ContinuationRow[],
  plan: BatchPlanOptions,
  take: (res: DecoderOut, k: number, b: number, len: number) => void,
): Promise<void> {
  const lengths = rows.map((r) => r.ids.length - p);
  const maxRows = Math.min(plan.maxRows ?? Infinity, rowsWithinCacheBudget(g, p + Math.max(0, ...lengths)));
  const h = g.hidden;
  for (const batch of planBatches(lengths, { ...plan, maxRows })) {
    const rs = batch.map((b) => rows[b]!);
    const lens = batch.map((b) => lengths[b]!);
    const f = continuationLayout(p, lens);
    const past = p === 0 ? null : gatherRows(rs.map((r) => ({ cache: r.prefix.cache!, row: r.prefix.row })));
    const embeds = new Float32Array(f.rows * f.seq * h);
    const table = await g.embedRowsOf(continuationIds(rs.map((r) => r.ids), p));
    rs.forEach((r, k) => writeEmbeds(g, table, r.ids, p, lens[k]!, r.features, embeds, k * f.seq * h));
    const res = await g.decode({ ...f, embeds, past }, false);
    batch.forEach((b, k) => take(res, k, b, lens[k]!));
  }
}

/** The ids after the first `p` of each row (those to embed). */
function* continuationIds(rows: readonly (readonly number[])[], p: number): Generator<number> {
  for (const ids of rows) for (let i = p; i < ids.length; i++) yield ids[i]!;
}

let range = new BigInt64Array(0);
/** 0, 1, ..., n - 1 as int64 (grown on demand, shared). */
function positionRange(n: number): BigInt64Array {
  if (range.length < n) range = BigInt64Array.from({ length: Math.max(n, 2 * range.length, 256) }, (_, i) => BigInt(i));
  return range;
}

/** One sampled continuation: token ids (no EOS) and how it ended. */
export interface SampledIds {
  tokenIds: number[];
  finishReason: 'stop' | 'length';
}

/**
 * Samples one continuation per seed from a prompt that has been run, all rows in one batch: each row draws from its
 * own RNG seeded by its seed, a row that draws EOS or reaches `budget` tokens leaves the batch (its cache rows are
 * dropped), and the rest go on. Row r gives what a one-row loop with seed r gives.
 */
export async function sampleRows(
  g: LlavaGraphs,
  prompt: SharedPrefix,
  seeds: readonly number[],
  s: SamplingSettings,
  budget: number,
): Promise<SampledIds[]> {
  if (!prompt.cache || !prompt.lastLogits) throw new Error('sampleRows: the prompt has not been run');
  const res: SampledIds[] = seeds.map(() => ({ tokenIds: [], finishReason: 'length' }));
  const rngs = seeds.map((seed) => seededRng(seed));
  const h = g.hidden;
  let live = seeds.map((_, i) => i); // sample index of each row of the batch
  let rowLogits: Float32Array[] = live.map(() => prompt.lastLogits!);
  let cache = prompt.cache;
  let cacheRows = live.map(() => 0); // the cache row each live row continues (all share the prompt's one row)
  for (let step = 0; step < budget && live.length > 0; step++) {
    const next: number[] = [];
    const keep: number[] = [];
    const toks: number[] = [];
    live.forEach((i, r) => {
      const tok = sampleToken(rowLogits[r]!, s, rngs[i]!, res[i]!.tokenIds);
      if (tok === g.info.eosTokenId) {
        res[i]!.finishReason = 'stop';
        return;
      }
      res[i]!.tokenIds.push(tok);
      if (step + 1 === budget) return; // finish reason stays "length"
      next.push(i);
      keep.push(cacheRows[r]!);
      toks.push(tok);
    });
    live = next;
    if (live.length === 0) break;
    const past = keepRows(cache, keep);
    const b = live.length;
    const total = past.length + 1;
    const table = await g.embedRowsOf(toks);
    const embeds = new Float32Array(b * h);
    toks.forEach((t, r) => embeds.set(table.get(t)!, r * h));
    const out = await g.decode(
      { rows: b, seq: 1, embeds, mask: new BigInt64Array(b * total).fill(1n), positions: new BigInt64Array(b).fill(BigInt(total - 1)), past },
      true,
    );
    cache = out.cache!;
    cacheRows = live.map((_, r) => r);
    rowLogits = live.map((_, r) => logitsAt(out, r, 0));
  }
  return res;
}
