// Continuations of run prefixes, batched: last-position logits (the labeler's first token) and teacher-forced token
// log-probabilities (sequence scoring), rows of similar length together, each row's past from its own prefix row.
import { logitsAt, type DecoderOut, type ImageFeatures, type LlavaGraphs } from '../graphs.js';
import { continuationFeeds, continuationIds, continuationLayout, writeEmbeds } from './feeds.js';
import { DEFAULT_PLAN, planBatches, rowsWithinCacheBudget, type BatchPlanOptions } from './plan.js';
import { gatherRows, type PrefixRow, type SharedPrefix } from './prefix.js';

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
