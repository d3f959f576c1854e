// Token choice: greedy, temperature and top-p behave as transformers' samplers do, from a per-sample seeded RNG.
import { describe, expect, test } from 'vitest';
import { sampleToken, seededRng } from '../../src/backends/local/sampling.js';

const logits = Float32Array.of(1, 3, 2, 0.5);

describe('sampleToken', () => {
  test('temperature 0 is greedy', () => {
    expect(sampleToken(logits, { temperature: 0, topP: 1 }, seededRng(1))).toBe(1);
  });

  test('the same seed gives the same sequence; a different seed a different one', () => {
    const draw = (seed: number) => {
      const rng = seededRng(seed);
      return Array.from({ length: 50 }, () => sampleToken(logits, { temperature: 1, topP: 1 }, rng));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  test('frequencies follow softmax(logits / T)', () => {
    const rng = seededRng(3);
    const n = 40_000;
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) counts[sampleToken(logits, { temperature: 0.7, topP: 1 }, rng)]!++;
    const e = Array.from(logits, (x) => Math.exp(x / 0.7));
    const z = e.reduce((a, b) => a + b, 0);
    counts.forEach((c, i) => expect(c / n).toBeCloseTo(e[i]! / z, 2));
  });

  test('top-p keeps the smallest set of likely tokens reaching p', () => {
    // softmax(1,3,2,0.5) ≈ [0.086, 0.636, 0.234, 0.044]: top_p 0.8 keeps tokens 1 and 2 only.
    const rng = seededRng(5);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) seen.add(sampleToken(logits, { temperature: 1, topP: 0.8 }, rng));
    expect([...seen].sort()).toEqual([1, 2]);
    const rng2 = seededRng(5);
    for (let i = 0; i < 200; i++) expect(sampleToken(logits, { temperature: 1, topP: 0.5 }, rng2)).toBe(1);
  });

  test('top-k keeps the k most likely tokens; top_k 1 is greedy whatever the seed and temperature', () => {
    const rng = seededRng(9);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) seen.add(sampleToken(logits, { temperature: 1, topP: 1, topK: 2 }, rng));
    expect([...seen].sort()).toEqual([1, 2]);
    for (const seed of [1, 2, 3, 4]) expect(sampleToken(logits, { temperature: 1.5, topP: 1, topK: 1 }, seededRng(seed))).toBe(1);
    // 0 and -1 switch it off, as in vLLM.
    for (const topK of [0, -1]) {
      const r = seededRng(9);
      const all = new Set<number>();
      for (let i = 0; i < 5000; i++) all.add(sampleToken(logits, { temperature: 1, topP: 1, topK }, r));
      expect(all.size).toBe(4);
    }
  });

  test('min-p drops tokens below p × the top probability', () => {
    // p(2)/p(1) = e^-1 ≈ 0.37, p(0)/p(1) = e^-2 ≈ 0.14: min_p 0.2 keeps tokens 1 and 2.
    const rng = seededRng(11);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) seen.add(sampleToken(logits, { temperature: 1, topP: 1, minP: 0.2 }, rng));
    expect([...seen].sort()).toEqual([1, 2]);
  });

  test('the repetition penalty lowers the tokens already generated, as transformers does', () => {
    // 3 / 4 = 0.75 < 2: with token 1 generated and penalty 4, greedy picks token 2.
    expect(sampleToken(logits, { temperature: 0, topP: 1, repetitionPenalty: 4 }, seededRng(1), [1])).toBe(2);
    expect(sampleToken(logits, { temperature: 0, topP: 1, repetitionPenalty: 4 }, seededRng(1), [])).toBe(1);
    expect(sampleToken(logits, { temperature: 0, topP: 1, repetitionPenalty: 1 }, seededRng(1), [1])).toBe(1);
  });
});
