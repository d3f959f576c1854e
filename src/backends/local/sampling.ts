// Token choice for the local policy: temperature and nucleus (top-p) sampling from a per-sample RNG.
import { random } from '@huggingface/transformers';

/** A seeded source of uniform numbers in [0, 1); one per sample, so concurrent samples never share state. */
export interface Rng {
  random(): number;
}

/** A Mersenne Twister seeded like Python's `random.seed(n)` (transformers.js's own generator). */
export function seededRng(seed: number): Rng {
  return new random.Random(seed);
}

/** Decoding settings for one sample. */
export interface SamplingSettings {
  /** 0 means greedy. */
  temperature: number;
  topP: number;
  /** Only the k most likely tokens (as vLLM's and transformers' top-k); absent, 0 or -1: all. */
  topK?: number;
  /** Only tokens at least this share of the most likely one's probability (min-p); absent or 0: all. */
  minP?: number;
  /**
   * transformers' / vLLM's repetition penalty on the tokens generated so far: a positive logit divided by it, a
   * negative one multiplied; absent or 1: none.
   */
  repetitionPenalty?: number;
}

/** Logits with the repetition penalty applied to the tokens already generated (a copy; the input is left alone). */
function penalized(logits: ArrayLike<number>, penalty: number, generated: readonly number[]): ArrayLike<number> {
  const out = Float64Array.from(logits as ArrayLike<number>);
  for (const t of new Set(generated)) out[t] = out[t]! > 0 ? out[t]! / penalty : out[t]! * penalty;
  return out;
}

/**
 * Picks the next token from one row of logits; `generated` (the sample's tokens so far) only matters with a
 * repetition penalty.
 * @example sampleToken(Float32Array.of(0, 5, 1), { temperature: 0, topP: 1 }, rng) // 1 (greedy)
 */
export function sampleToken(raw: ArrayLike<number>, s: SamplingSettings, rng: Rng, generated: readonly number[] = []): number {
  const logits = s.repetitionPenalty !== undefined && s.repetitionPenalty !== 1 && generated.length ? penalized(raw, s.repetitionPenalty, generated) : raw;
  const n = logits.length;
  let best = 0;
  for (let i = 1; i < n; i++) if (logits[i]! > logits[best]!) best = i;
  if (s.temperature <= 0 || s.topK === 1) return best;
  const max = logits[best]! / s.temperature;
  const probs = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(logits[i]! / s.temperature - max);
    probs[i] = e;
    sum += e;
  }
  // top-k and min-p drop tokens before top-p looks at what is left (the order vLLM and transformers apply them in).
  const topK = s.topK !== undefined && s.topK > 0 && s.topK < n ? s.topK : n;
  const minP = s.minP ?? 0;
  let order: number[] | null = null;
  let limit = n;
  if (s.topP < 1 || topK < n || minP > 0) {
    order = Array.from({ length: n }, (_, i) => i).sort((a, b) => probs[b]! - probs[a]! || a - b);
    limit = topK;
    // probs[best] is exp(0) = 1: min-p keeps tokens whose probability is at least minP times the top one's.
    while (minP > 0 && limit > 1 && probs[order[limit - 1]!]! < minP) limit--;
    if (limit < n) {
      sum = 0;
      for (let k = 0; k < limit; k++) sum += probs[order[k]!]!;
    }
    if (s.topP < 1) {
      // Smallest set of most likely tokens whose mass reaches top_p, as transformers' TopPLogitsWarper keeps.
      let acc = 0;
      let m = 0;
      while (m < limit && acc < s.topP * sum) acc += probs[order[m++]!]!;
      limit = m;
      sum = acc;
    }
  }
  let u = rng.random() * sum;
  for (let k = 0; k < limit; k++) {
    const i = order ? order[k]! : k;
    u -= probs[i]!;
    if (u < 0) return i;
  }
  return order ? order[limit - 1]! : n - 1;
}
