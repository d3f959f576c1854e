import { describe, expect, it } from 'vitest';
import { balanceLengths, LENGTH_RATIOS, lengthStats, shortenRatio, type LengthTieBreak } from '../../src/feedback/length-balance.js';

const p = (chosenWords: number, rejectedWords: number) => ({ chosenWords, rejectedWords });

describe('LENGTH_RATIOS and shortenRatio', () => {
  it('is 0, 0.02, …, 0.98 without float drift', () => {
    expect(LENGTH_RATIOS).toHaveLength(50);
    expect(LENGTH_RATIOS[0]).toBe(0);
    expect(LENGTH_RATIOS[35]).toBe(0.7); // 35 * 0.02 would be 0.7000000000000001
    expect(LENGTH_RATIOS[49]).toBe(0.98);
  });

  it('is (len_rej − len_ch) / len_rej, and 0 when the rejected answer is empty', () => {
    expect(shortenRatio(p(15, 20))).toBe(0.25);
    expect(shortenRatio(p(30, 25))).toBe(-0.2);
    expect(shortenRatio(p(5, 0))).toBe(0);
    expect(shortenRatio(p(0, 10))).toBe(1);
    expect(shortenRatio(p(15, 50)) <= LENGTH_RATIOS[35]!).toBe(true); // 0.7 ≤ 0.7: kept at r = 0.7
  });
});

describe('balanceLengths (REFERENCE §5)', () => {
  // ratio: P1 (10,20) 0.5; P2 (18,20) 0.1; P3 (30,25) −0.2; P4 (9,10) 0.1. Objective = |Σch − Σrej| / Σrej.
  //   r 0.00–0.08 keeps P3:           |30 − 25| / 25 = 0.2
  //   r 0.10–0.48 keeps P2, P3, P4:   |57 − 55| / 55 = 2/55 ≈ 0.0364   ← minimum (0.1 ≤ 0.1: kept at the boundary)
  //   r 0.50–0.98 keeps all four:     |67 − 75| / 75 = 8/75 ≈ 0.1067
  const pairs = [p(10, 20), p(18, 20), p(30, 25), p(9, 10)];

  it('picks the minimum; on a plateau, the larger r by default', () => {
    const b = balanceLengths(pairs);
    expect(b.r).toBe(0.48);
    expect(b.objective).toBe(2 / 55);
    expect(b.kept).toEqual([false, true, true, true]);
    expect(b.before).toEqual({ n: 4, avgChosen: 16.75, avgRejected: 18.75 });
    expect(b.after).toEqual({ n: 3, avgChosen: 19, avgRejected: 55 / 3 });
  });

  it("tieBreak 'smaller' reproduces the script's idxmin (the first r); the kept pairs are the same", () => {
    const b = balanceLengths(pairs, 'smaller');
    expect(b.r).toBe(0.1);
    expect(b.kept).toEqual([false, true, true, true]);
  });

  it('records the objective at every r', () => {
    const { search } = balanceLengths(pairs);
    expect(search).toHaveLength(50);
    expect(search[0]).toEqual({ r: 0, n: 1, objective: 0.2 });
    expect(search[4]).toEqual({ r: 0.08, n: 1, objective: 0.2 });
    expect(search[5]).toEqual({ r: 0.1, n: 3, objective: 2 / 55 });
    expect(search[25]).toEqual({ r: 0.5, n: 4, objective: 8 / 75 });
    expect(search[49]).toEqual({ r: 0.98, n: 4, objective: 8 / 75 });
  });

  it('a unique minimum is chosen by both tie rules', () => {
    // A (12,10) −0.2; B (8,10) 0.2; C (39,50) 0.22.
    //   r < 0.20: A only:  |12 − 10| / 10 = 0.2
    //   r = 0.20: A, B:    |20 − 20| / 20 = 0        ← minimum, only here
    //   r ≥ 0.22: all:     |59 − 70| / 70 = 11/70 ≈ 0.157
    for (const tie of ['larger', 'smaller'] as LengthTieBreak[]) {
      const b = balanceLengths([p(12, 10), p(8, 10), p(39, 50)], tie);
      expect(b.r).toBe(0.2);
      expect(b.objective).toBe(0);
      expect(b.kept).toEqual([true, true, false]);
    }
  });

  it('an r that keeps no pair is ignored', () => {
    // Both chosen answers are shorter: r = 0 keeps nothing (the script would divide by zero there).
    //   r 0.00–0.08: nothing
    //   r 0.10–0.18 keeps (9,10):  |9 − 10| / 10 = 0.1   ← minimum
    //   r ≥ 0.20 keeps both:        |17 − 20| / 20 = 0.15
    const b = balanceLengths([p(9, 10), p(8, 10)]);
    expect(b.search[0]).toEqual({ r: 0, n: 0, objective: null });
    expect(b.r).toBe(0.18);
    expect(b.kept).toEqual([true, false]);
  });

  it('no pairs: r is null and nothing to keep', () => {
    const b = balanceLengths([]);
    expect(b).toMatchObject({ r: null, objective: null, kept: [], before: { n: 0, avgChosen: null, avgRejected: null } });
    expect(b.search.every((s) => s.n === 0 && s.objective === null)).toBe(true);
  });

  it('all dropped at every r (empty chosen answers, ratio 1): r is null and no pair is kept', () => {
    const b = balanceLengths([p(0, 10), p(0, 4)]);
    expect(b.r).toBeNull();
    expect(b.kept).toEqual([false, false]);
    expect(b.after).toEqual({ n: 0, avgChosen: null, avgRejected: null });
  });

  it('empty rejected answers: ratio 0, gap 0 when both are empty, infinite otherwise', () => {
    expect(balanceLengths([p(0, 0)])).toMatchObject({ r: 0.98, objective: 0, kept: [true] });
    expect(balanceLengths([p(3, 0)])).toMatchObject({ r: 0.98, objective: Infinity, kept: [true] });
  });

  it('refuses an unknown tie rule, naming the valid ones', () => {
    expect(() => balanceLengths(pairs, 'middle' as LengthTieBreak)).toThrow('Unsupported length tie-break: middle. Must be one of [larger, smaller].');
  });

  it('lengthStats averages each side', () => {
    expect(lengthStats([p(10, 20), p(20, 40)])).toEqual({ n: 2, avgChosen: 15, avgRejected: 30 });
  });
});
