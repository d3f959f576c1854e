// Spearman's ρ against values worked out by hand (average ranks for ties).
import { describe, expect, test } from 'vitest';
import { ranks, spearman } from '../../src/eval/correlation.js';

describe('spearman', () => {
  test('average ranks share ties', () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
  test('monotone data give ±1; a hand-worked case gives 0.8', () => {
    expect(spearman([1, 2, 3, 4], [2, 4, 8, 16])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [9, 7, 5, 1])).toBeCloseTo(-1, 12);
    // ranks (1,2,3,4) vs (1,3,2,4): 1 − 6·Σd²/(n(n²−1)) = 1 − 6·2/60 = 0.8.
    expect(spearman([1, 2, 3, 4], [10, 20, 15, 40])).toBeCloseTo(0.8, 12);
  });
  test('too few points or a constant side give null', () => {
    expect(spearman([1, 2], [3, 4])).toBeNull();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
  });
});
