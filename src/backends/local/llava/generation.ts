// Sampling answers from a LLaVA model: the plain path (one transformers.js forward over image and prompt, then one
// token at a time on its cache) and the batched path (the prompt run once, all seeds continuing from its cache).
import { Tensor } from '@huggingface/transformers';
import type { RawImage } from '@huggingface/transformers';
import type { Turn } from '../../../domain.js';
import { rowsWithinCacheBudget, sampleRows, type SampledIds } from '../batched.js';
import { sampleToken, seededRng, type SamplingSettings } from '../sampling.js';
import type { LlavaParts } from './parts.js';

/** How a sampled answer ended, in OpenAI's words. */
export type FinishReason = 'stop' | 'length';

/** One sampled answer with its provenance. */
export interface Sample {
  text: string;
  tokenIds: number[];
  promptTokens: number;
  finishReason: FinishReason;
}

/** Named input or output tensors of a transformers.js forward. */
export type Feeds = Record<string, Tensor>;

/** A transformers.js model's forward: its outputs hold `logits` and the `present.*` cache. */
export type Forward = (feeds: Record<string, Tensor | Feeds>) => Promise<Feeds & { logits: Tensor }>;

/** LlavaModel.sampleMany: one answer per seed for one prompt, all seeds continuing from one run of the prompt. */
export async function sampleMany(
  m: LlavaParts,
  image: RawImage,
  question: string,
  seeds: readonly number[],
  s: SamplingSettings & { maxNewTokens: number },
  history: readonly Turn[] = [],
): Promise<Sample[]> {
  const enc = await m.encoder.encodeImage(image);
  const ids = m.text.promptIds(question, enc.imageTokens, history);
  const promptTokens = ids.length;
  const budget = Math.min(s.maxNewTokens, m.info.maxPositions - promptTokens);
  if (budget <= 0) throw new Error(`prompt is ${promptTokens} tokens, the model's context is ${m.info.maxPositions}`);
  const bad = m.prefixes.promptProblem(ids, enc.features);
  if (bad) throw bad;
  if (seeds.length === 0) return [];
  const prompt = await m.prefixes.runPrompt(ids, enc.features);
  let rows: SampledIds[];
  if (s.temperature <= 0 || s.topK === 1) {
    // Greedy: the seed is never drawn from, so every seed gives the first one's answer.
    const [one] = await sampleRows(m.graphs, prompt, seeds.slice(0, 1), s, budget);
    rows = seeds.map(() => ({ tokenIds: [...one!.tokenIds], finishReason: one!.finishReason }));
  } else {
    // As many rows at once as the cache budget allows at the longest answer (all of them for small models).
    const per = rowsWithinCacheBudget(m.graphs, promptTokens + budget);
    rows = [];
    for (let i = 0; i < seeds.length; i += per) rows.push(...(await sampleRows(m.graphs, prompt, seeds.slice(i, i + per), s, budget)));
  }
  return rows.map((r) => ({ text: m.text.decode(r.tokenIds), tokenIds: r.tokenIds, promptTokens, finishReason: r.finishReason }));
}

/** LlavaModel.sample: one answer on the plain path from the processor's `inputs`; the RNG is the sample's own. */
export async function samplePlain(
  m: LlavaParts,
  forward: Forward,
  inputs: Feeds,
  s: SamplingSettings & { seed: number; maxNewTokens: number },
): Promise<Sample> {
  const rng = seededRng(s.seed);
  const promptTokens = inputs.input_ids!.dims[1]!;
  // Never past the decoder's context: the answer then ends with finish reason "length".
  const budget = Math.min(s.maxNewTokens, m.info.maxPositions - promptTokens);
  if (budget <= 0) throw new Error(`prompt is ${promptTokens} tokens, the model's context is ${m.info.maxPositions}`);
  let out = await forward(inputs);
  const ids: number[] = [];
  for (let step = 0; step < budget; step++) {
    const tok = sampleToken(lastRow(out.logits), s, rng, ids);
    if (tok === m.info.eosTokenId) {
      return { text: m.text.decode(ids), tokenIds: ids, promptTokens, finishReason: 'stop' };
    }
    ids.push(tok);
    if (step + 1 === budget) break;
    const total = promptTokens + ids.length;
    out = await forward({
      input_ids: new Tensor('int64', BigInt64Array.of(BigInt(tok)), [1, 1]),
      attention_mask: new Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      past_key_values: presentToPast(out),
    });
  }
  return { text: m.text.decode(ids), tokenIds: ids, promptTokens, finishReason: 'length' };
}

/** The logits of the last position of a [1, seq, vocab] output. */
export function lastRow(logits: Tensor): Float32Array {
  const [, seq, vocab] = logits.dims as [number, number, number];
  const data = logits.data as Float32Array;
  return data.slice((seq - 1) * vocab, seq * vocab);
}

function presentToPast(out: Record<string, Tensor>): Feeds {
  const past: Feeds = {};
  for (const [k, v] of Object.entries(out)) {
    if (k.startsWith('present.')) past[k.replace('present.', 'past_key_values.')] = v;
  }
  return past;
}
