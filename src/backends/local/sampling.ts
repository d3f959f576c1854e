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
}

/**
 * Picks the next token from one row of logits.
 * @example sampleToken(Float32Array.of(0, 5, 1), { temperature: 0, topP: 1 }, rng) // 1 (greedy)
 */
export function sampleToken(logits: ArrayLike<number>, s: SamplingSettings, rng: Rng): number {
  const n = logits.length;
  let best = 0;
  for (let i = 1; i < n; i++) if (logits[i]! > logits[best]!) best = i;
  if (s.temperature <= 0) return best;
  const max = logits[best]! / s.temperature;
  const probs = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(logits[i]! / s.temperature - max);
    probs[i] = e;
    sum += e;
  }
  let order: number[] | null = null;
  let limit = n;
  if (s.topP < 1) {
    // Smallest set of most likely tokens whose mass reaches top_p, as transformers' TopPLogitsWarper keeps.
    order = Array.from({ length: n }, (_, i) => i).sort((a, b) => probs[b]! - probs[a]! || a - b);
    let acc = 0;
    limit = 0;
    while (limit < n && acc < s.topP * sum) acc += probs[order[limit++]!]!;
    sum = acc;
  }
  let u = rng.random() * sum;
  for (let k = 0; k < limit; k++) {
    const i = order ? order[k]! : k;
    u -= probs[i]!;
    if (u < 0) return i;
  }
  return order ? order[limit - 1]! : n - 1;
}
