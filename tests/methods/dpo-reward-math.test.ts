// The DPO reward's arithmetic: β times the policy's log-prob gain over the reference, summed or per token.
import { describe, expect, test } from 'vitest';
import { bestIndex, dpoReward } from '../../src/methods/dpo-reward-math.js';

describe('dpoReward', () => {
  test("'sum' is β(Σπ − Σref), whatever the token counts", () => {
    expect(dpoReward({ sum: -4, tokens: 8 }, { sum: -6, tokens: 8 }, 0.1, 'sum')).toBeCloseTo(0.2, 12);
    expect(dpoReward({ sum: -10, tokens: 20 }, { sum: -7, tokens: 5 }, 0.5)).toBeCloseTo(-1.5, 12); // 'sum' is the default
    expect(dpoReward({ sum: -3, tokens: 4 }, { sum: -3, tokens: 4 }, 1, 'sum')).toBe(0);
  });

  test("'mean' is β(Σπ/nπ − Σref/nref): per-token log-probs, so length alone does not count", () => {
    expect(dpoReward({ sum: -4, tokens: 8 }, { sum: -6, tokens: 8 }, 0.1, 'mean')).toBeCloseTo(0.1 * (-0.5 + 0.75), 12);
    // Different token counts (a remote tokenizer may count differently from the local one): each side by its own.
    expect(dpoReward({ sum: -10, tokens: 20 }, { sum: -6, tokens: 4 }, 2, 'mean')).toBeCloseTo(2 * (-0.5 + 1.5), 12);
    // A long answer with the same per-token gain as a short one gets the same mean reward, a bigger sum reward.
    const short = dpoReward({ sum: -2, tokens: 4 }, { sum: -4, tokens: 4 }, 0.1, 'mean');
    const long = dpoReward({ sum: -8, tokens: 16 }, { sum: -16, tokens: 16 }, 0.1, 'mean');
    expect(long).toBeCloseTo(short, 12);
    expect(dpoReward({ sum: -8, tokens: 16 }, { sum: -16, tokens: 16 }, 0.1)).toBeGreaterThan(dpoReward({ sum: -2, tokens: 4 }, { sum: -4, tokens: 4 }, 0.1));
  });

  test('a bad β, variant or token count is an error that says what is allowed', () => {
    const a = { sum: -1, tokens: 2 };
    expect(() => dpoReward(a, a, 0)).toThrow(/beta must be a positive number, got 0/);
    expect(() => dpoReward(a, a, Number.NaN)).toThrow(/beta must be a positive number/);
    expect(() => dpoReward(a, a, 0.1, 'max' as 'sum')).toThrow(/Unknown reward variant max; valid: sum, mean/);
    expect(() => dpoReward({ sum: 0, tokens: 0 }, a, 0.1, 'mean')).toThrow(/at least one token/);
  });
});

describe('bestIndex', () => {
  test('the argmax, the first of equal rewards, skipping unscored answers', () => {
    expect(bestIndex([0.1, null, 0.3, 0.3])).toBe(2);
    expect(bestIndex([null, -2, -1])).toBe(2);
    expect(bestIndex([-0.5])).toBe(0);
    expect(bestIndex([null, null])).toBe(-1);
    expect(bestIndex([])).toBe(-1);
  });
});
