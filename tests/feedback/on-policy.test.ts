// The on-policy check's rule (feedback/on-policy.ts): a chosen answer's percentile among its siblings by mean token
// log-prob, ties counting half, and the off-policy flag under the 10th percentile.
import { describe, expect, test } from 'vitest';
import { isOffPolicy, pairOnPolicy, siblingPercentile, summarizeOnPolicy, OFF_POLICY_PERCENTILE } from '../../src/feedback/on-policy.js';

describe('on-policy check', () => {
  test('the percentile is the share of siblings below, ties counting half; none without siblings', () => {
    expect(siblingPercentile(-0.5, [-1, -0.2, -0.5, -2])).toBe(62.5);
    expect(siblingPercentile(-3, [-1, -2])).toBe(0);
    expect(siblingPercentile(0, [-1, -2])).toBe(100);
    expect(siblingPercentile(-1, [])).toBeNull();
  });

  test('flagged under the 10th percentile: with 9 siblings only below all; with 20, below all but one', () => {
    expect(OFF_POLICY_PERCENTILE).toBe(10);
    const nine = [-1, -1.1, -1.2, -1.3, -1.4, -1.5, -1.6, -1.7, -1.8];
    expect(isOffPolicy(siblingPercentile(-2, nine)!)).toBe(true);
    expect(isOffPolicy(siblingPercentile(-1.75, nine)!)).toBe(false); // one below: 11.1
    expect(isOffPolicy(siblingPercentile(-1.8, nine)!)).toBe(true); // tied with the lowest: 5.6
    const twenty = Array.from({ length: 20 }, (_, i) => -1 - i / 10);
    expect(isOffPolicy(siblingPercentile(-2.85, twenty)!)).toBe(true); // one below: 5
    expect(isOffPolicy(siblingPercentile(-2.75, twenty)!)).toBe(false); // two below: 10
  });

  test('a pair\'s siblings are its prompt\'s other answers; the summary gives the median and the flagged pairs worst first', () => {
    const means = new Map([
      ['a', -0.1],
      ['b', -0.5],
      ['c', -0.9],
      ['d', -0.3],
    ]);
    expect(pairOnPolicy('p1', 'a', means)).toEqual({ pair_id: 'p1', chosen_mean: -0.1, percentile: 100, siblings: 3, off_policy: false });
    expect(pairOnPolicy('p2', 'c', means)).toMatchObject({ percentile: 0, off_policy: true });
    expect(pairOnPolicy('p3', 'x', means)).toBeNull();
    expect(pairOnPolicy('p4', 'a', new Map([['a', -1]]))).toBeNull();
    const s = summarizeOnPolicy([pairOnPolicy('p1', 'a', means)!, pairOnPolicy('p2', 'c', means)!, pairOnPolicy('p5', 'b', means)!]);
    expect(s).toMatchObject({ pairs: 3, median_percentile: 100 / 3, off_policy: 1 });
    expect(s.flagged.map((f) => f.pair_id)).toEqual(['p2']);
    expect(s.rule).toContain('under the 10th percentile');
  });
});
