import { describe, expect, it } from 'vitest';
import { createRng, hashSeed, sampleWithoutReplacement } from '../../src/feedback/rng.js';

const draws = (seed: number, n: number): number[] => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng());
};

describe('hashSeed', () => {
  it('is a deterministic uint32', () => {
    const h = hashSeed(42, 'prompt-7');
    expect(h).toBe(hashSeed(42, 'prompt-7'));
    expect(Number.isInteger(h) && h >= 0 && h <= 0xffffffff).toBe(true);
  });

  it('is pinned, so sampled pairs stay the same across versions and platforms', () => {
    expect(hashSeed(42, 'prompt-7')).toBe(830376037);
    expect(createRng(830376037)()).toBe(0.7761427299119532);
  });

  it('separates parts, so shifting a boundary changes the hash', () => {
    expect(hashSeed('ab', 'c')).not.toBe(hashSeed('a', 'bc'));
    expect(hashSeed(1, 'p')).not.toBe(hashSeed(2, 'p'));
    expect(hashSeed(1, 'p1')).not.toBe(hashSeed(1, 'p2'));
    expect(hashSeed()).not.toBe(hashSeed(''));
  });

  it('handles non-ASCII text (hashed as UTF-8)', () => {
    expect(hashSeed('café')).not.toBe(hashSeed('cafe'));
  });
});

describe('createRng', () => {
  it('replays the same stream for the same seed, in [0, 1)', () => {
    const a = draws(123, 1000);
    expect(draws(123, 1000)).toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('gives different streams for different seeds', () => {
    expect(draws(1, 5)).not.toEqual(draws(2, 5));
    expect(draws(hashSeed(1, 'p'), 5)).not.toEqual(draws(hashSeed(2, 'p'), 5));
  });

  it('is roughly uniform (10 bins of 10,000 draws)', () => {
    const bins = new Array<number>(10).fill(0);
    for (const x of draws(7, 10_000)) bins[Math.floor(x * 10)]!++;
    for (const b of bins) expect(Math.abs(b - 1000)).toBeLessThan(100);
  });
});

describe('sampleWithoutReplacement', () => {
  const items = Array.from({ length: 20 }, (_, i) => `i${i}`);

  it('is reproducible for a seed, and seeds differ', () => {
    const a = sampleWithoutReplacement(items, 5, createRng(11));
    expect(sampleWithoutReplacement(items, 5, createRng(11))).toEqual(a);
    expect(sampleWithoutReplacement(items, 5, createRng(12))).not.toEqual(a);
  });

  it('draws k distinct items from the input without touching it', () => {
    const copy = items.slice();
    const s = sampleWithoutReplacement(items, 7, createRng(3));
    expect(s).toHaveLength(7);
    expect(new Set(s).size).toBe(7);
    expect(s.every((x) => items.includes(x))).toBe(true);
    expect(items).toEqual(copy);
  });

  it('returns every item when k ≥ n, and none when k is 0', () => {
    expect(sampleWithoutReplacement(['a', 'b', 'c'], 5, createRng(1)).sort()).toEqual(['a', 'b', 'c']);
    expect(sampleWithoutReplacement(['a', 'b', 'c'], 0, createRng(1))).toEqual([]);
    expect(sampleWithoutReplacement([], 2, createRng(1))).toEqual([]);
  });

  it('gives each item an equal chance (2 of 5, 20,000 times)', () => {
    const rng = createRng(99);
    const counts = new Map<string, number>();
    for (let t = 0; t < 20_000; t++) {
      for (const x of sampleWithoutReplacement(['a', 'b', 'c', 'd', 'e'], 2, rng)) counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    for (const c of counts.values()) expect(Math.abs(c - 8000)).toBeLessThan(300);
  });

  it('refuses a negative or fractional k', () => {
    expect(() => sampleWithoutReplacement(items, -1, createRng(1))).toThrow(/non-negative integer/);
    expect(() => sampleWithoutReplacement(items, 1.5, createRng(1))).toThrow(/non-negative integer/);
  });
});
