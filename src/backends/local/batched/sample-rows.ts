// Sampling from a run prompt, one row per seed in one batch: finished rows leave the batch and their cache rows are
// dropped, each row drawing from its own seeded RNG.
import { keepRows, logitsAt, type LlavaGraphs } from '../graphs.js';
import { sampleToken, seededRng, type SamplingSettings } from '../sampling.js';
import type { SharedPrefix } from './prefix.js';

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
