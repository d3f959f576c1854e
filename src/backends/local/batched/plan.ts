// How continuations are cut into decoder runs: rows of similar length together, within a token budget and the
// key/value cache budget (the cheapest cut of runs × runCost + padded tokens).
import type { LlavaGraphs } from '../graphs.js';

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
