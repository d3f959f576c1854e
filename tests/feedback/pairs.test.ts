import { describe, expect, it } from 'vitest';
import {
  getPairStrategy,
  makeExtremesPairs,
  makeRlaifvPairs,
  rlaifvPairStrategy,
  type PairOptions,
  type PairResult,
  type ScoredAnswer,
} from '../../src/feedback/pairs.js';
import { rankValue, scoreAnswer } from '../../src/feedback/scores.js';

const ans = (id: string, value: number, over: Partial<ScoredAnswer> = {}): ScoredAnswer => ({
  id, text: `answer ${id}`, words: 10, nClaims: 4, nJudged: 4, value, ...over,
});
const opts = (over: Partial<PairOptions> = {}): PairOptions => ({ seed: 1, promptId: 'p1', ...over });
const ids = (r: PairResult): [string, string][] => r.pairs.map((p) => [p.chosenId, p.rejectedId]);
const total = (r: PairResult): number => r.pairs.length + Object.values(r.dropped).reduce((a, b) => a + b, 0);

// Ten REJ-C values: 0 ×2, −1 ×3, −2 ×2, −3 ×1, −4 ×2.
// Ties: C(2,2) + C(3,2) + C(2,2) + 0 + C(2,2) = 1 + 3 + 1 + 1 = 6, so diff 1 leaves 45 − 6 = 39 pairs.
// Gaps of exactly 1: (0,−1) 2·3 + (−1,−2) 3·2 + (−2,−3) 2·1 + (−3,−4) 1·2 = 16, so diff 2 leaves 39 − 16 = 23.
const TEN = [0, 0, -1, -1, -1, -2, -2, -3, -4, -4].map((v, i) => ans(`a${i}`, v, { words: 10 + i }));

describe('makeRlaifvPairs: which combinations are pairs (REFERENCE §5)', () => {
  it('diff 1 vs diff 2 on three answers', () => {
    const three = [ans('x', 0), ans('y', -1), ans('z', -3)];
    expect(ids(makeRlaifvPairs(three, opts({ maxPairs: 'all' })))).toEqual([['x', 'y'], ['x', 'z'], ['y', 'z']]);
    const d2 = makeRlaifvPairs(three, opts({ diff: 2, maxPairs: 'all' }));
    expect(ids(d2)).toEqual([['x', 'z'], ['y', 'z']]);
    expect(d2.dropped.below_diff).toBe(1);
  });

  it('the higher value is chosen whichever side it is on, with its margin and lengths', () => {
    const r = makeRlaifvPairs([ans('a', -3, { words: 7 }), ans('b', -1, { words: 12 })], opts());
    expect(r.pairs).toEqual([{ chosenId: 'b', rejectedId: 'a', chosenValue: -1, rejectedValue: -3, margin: 2, chosenWords: 12, rejectedWords: 7 }]);
  });

  it('ties and equal values are never pairs, whatever the diff', () => {
    for (const diff of [1, 0.5, 1e-6]) {
      const r = makeRlaifvPairs([ans('a', -2), ans('b', -2), ans('c', -0.5), ans('d', -0.5)], opts({ diff, maxPairs: 'all' }));
      expect(ids(r)).toEqual([['c', 'a'], ['d', 'a'], ['c', 'b'], ['d', 'b']]); // a–b and c–d are ties
      expect(r.dropped.below_diff).toBe(2);
    }
    // Two answers that differ only by float noise are a tie too.
    expect(makeRlaifvPairs([ans('a', 0.1 + 0.2), ans('b', 0.3)], opts({ diff: 1e-12 })).pairs).toEqual([]);
  });

  it('REJ-P: a float gap just under diff still passes; a real shortfall does not', () => {
    // 3/10 and 1/10 rejected: 0.3 − 0.1 = 0.19999999999999998 in binary, but the gap is 0.2.
    const p3 = rankValue('rejp', scoreAnswer([true, true, true, false, false, false, false, false, false, false])!);
    const p1 = rankValue('rejp', scoreAnswer([true, false, false, false, false, false, false, false, false, false])!);
    expect(Math.abs(p1 - p3)).toBeLessThan(0.2);
    expect(ids(makeRlaifvPairs([ans('p3', p3), ans('p1', p1)], opts({ diff: 0.2 })))).toEqual([['p1', 'p3']]);
    expect(makeRlaifvPairs([ans('p3', p3), ans('p1', p1)], opts({ diff: 0.2 + 1e-6 })).pairs).toEqual([]);
    // 1/3 vs 2/3 rejected: gap 1/3 passes diff 1/3 and 0.33, fails 0.34.
    const third = [ans('one', -1 / 3), ans('two', -2 / 3)];
    expect(ids(makeRlaifvPairs(third, opts({ diff: 1 / 3 })))).toEqual([['one', 'two']]);
    expect(makeRlaifvPairs(third, opts({ diff: 0.33 })).pairs).toHaveLength(1);
    expect(makeRlaifvPairs(third, opts({ diff: 0.34 })).pairs).toEqual([]);
    // With the default diff 1, REJ-P shares (all within [0, 1]) pair only a perfect answer with an all-rejected one.
    expect(makeRlaifvPairs(third, opts()).pairs).toEqual([]);
    expect(ids(makeRlaifvPairs([ans('clean', 0), ans('bad', -1)], opts()))).toEqual([['clean', 'bad']]);
  });
});

describe('makeRlaifvPairs: drops', () => {
  it('drops a pair when either side has an unjudged claim', () => {
    const r = makeRlaifvPairs([ans('a', 0), ans('b', -2, { nJudged: 3 }), ans('c', -1)], opts({ maxPairs: 'all' }));
    expect(ids(r)).toEqual([['a', 'c']]);
    expect(r.dropped).toEqual({ below_diff: 0, unjudged: 2, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 0 });
  });

  it('drops a pair whose texts are identical after trimming', () => {
    const r = makeRlaifvPairs(
      [ans('a', 0, { text: ' There is a cat.\n' }), ans('b', -1, { text: 'There is a cat.' }), ans('c', -2, { text: 'There is a dog.' })],
      opts({ maxPairs: 'all' }),
    );
    expect(ids(r)).toEqual([['a', 'c'], ['b', 'c']]);
    expect(r.dropped.identical).toBe(1);
  });

  it('counts a combination under its first failing rule: below_diff, then unjudged, then identical', () => {
    const r = makeRlaifvPairs([ans('a', 0, { nJudged: 0, text: 't' }), ans('b', 0, { text: 't' }), ans('c', -1, { text: 't' })], opts());
    // a–b: tie; a–c: unjudged (and identical); b–c: identical.
    expect(r.dropped).toEqual({ below_diff: 1, unjudged: 1, repeated_claims: 0, identical: 1, gate: 0, sampled_out: 0 });
  });

  it('all dropped: no pairs, every combination accounted for', () => {
    const r = makeRlaifvPairs([ans('a', 0, { nJudged: 1 }), ans('b', -1, { nJudged: 1 }), ans('c', -2, { nJudged: 1 })], opts());
    expect(r).toEqual({ pairs: [], gated: [], considered: 3, dropped: { below_diff: 0, unjudged: 3, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 0 } });
  });

  it('empty input, one answer, and answers without claims (never scored) give nothing', () => {
    const none = { pairs: [], gated: [], considered: 0, dropped: { below_diff: 0, unjudged: 0, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 0 } };
    expect(makeRlaifvPairs([], opts())).toEqual(none);
    expect(makeRlaifvPairs([ans('a', 0)], opts())).toEqual(none);
    expect(makeRlaifvPairs([ans('a', 0), ans('b', -3, { nClaims: 0, nJudged: 0 })], opts())).toEqual(none);
  });
});

describe('makeRlaifvPairs: ten answers, at most two pairs', () => {
  it('considers exactly 45 combinations and keeps 2 of the 39 candidates', () => {
    const r = makeRlaifvPairs(TEN, opts());
    expect(r.considered).toBe(45);
    expect(r.pairs).toHaveLength(2);
    expect(r.dropped).toEqual({ below_diff: 6, unjudged: 0, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 37 });
    expect(total(r)).toBe(45);
  });

  it('diff 2 leaves 23 candidates', () => {
    const r = makeRlaifvPairs(TEN, opts({ diff: 2, maxPairs: 'all' }));
    expect(r.pairs).toHaveLength(23);
    expect(r.dropped.below_diff).toBe(22);
    expect(r.pairs.every((p) => p.margin >= 2)).toBe(true);
  });

  it('pins the sampled pairs for seed 1, prompt p1 (in combination order)', () => {
    expect(makeRlaifvPairs(TEN, opts()).pairs).toEqual([
      { chosenId: 'a1', rejectedId: 'a5', chosenValue: 0, rejectedValue: -2, margin: 2, chosenWords: 11, rejectedWords: 15 },
      { chosenId: 'a6', rejectedId: 'a7', chosenValue: -2, rejectedValue: -3, margin: 1, chosenWords: 16, rejectedWords: 17 },
    ]);
  });

  it('the seed and the prompt id both change the sample', () => {
    expect(ids(makeRlaifvPairs(TEN, opts({ seed: 2 })))).toEqual([['a1', 'a3'], ['a5', 'a8']]);
    expect(ids(makeRlaifvPairs(TEN, opts({ promptId: 'p2' })))).toEqual([['a0', 'a4'], ['a1', 'a7']]);
  });

  it('does not depend on the input order', () => {
    const base = makeRlaifvPairs(TEN, opts());
    const reversed = TEN.slice().reverse();
    const interleaved = [...TEN.filter((_, i) => i % 2), ...TEN.filter((_, i) => i % 2 === 0)];
    expect(makeRlaifvPairs(reversed, opts())).toEqual(base);
    expect(makeRlaifvPairs(interleaved, opts())).toEqual(base);
  });

  it("maxPairs: 'all' keeps every candidate; a larger cap samples nothing out; 0 keeps none", () => {
    expect(makeRlaifvPairs(TEN, opts({ maxPairs: 'all' })).pairs).toHaveLength(39);
    expect(makeRlaifvPairs(TEN, opts({ maxPairs: 50 })).dropped.sampled_out).toBe(0);
    const zero = makeRlaifvPairs(TEN, opts({ maxPairs: 0 }));
    expect(zero.pairs).toEqual([]);
    expect(zero.dropped.sampled_out).toBe(39);
  });
});

describe('makeRlaifvPairs: errors, and the strategy seam', () => {
  it('refuses duplicate ids and bad options', () => {
    expect(() => makeRlaifvPairs([ans('a', 0), ans('a', -1)], opts())).toThrow('duplicate answer id "a" in prompt "p1"');
    expect(() => makeRlaifvPairs(TEN, opts({ diff: 0 }))).toThrow(/diff must be a positive number/);
    expect(() => makeRlaifvPairs(TEN, opts({ diff: Number.NaN }))).toThrow(/diff must be a positive number/);
    expect(() => makeRlaifvPairs(TEN, opts({ maxPairs: -1 }))).toThrow(/maxPairs must be/);
    expect(() => makeRlaifvPairs(TEN, opts({ maxPairs: 1.5 }))).toThrow(/maxPairs must be/);
  });

  it('the RLAIF-V strategy is found by name; unknown names list the valid ones', () => {
    expect(getPairStrategy('rlaifv')).toBe(rlaifvPairStrategy);
    expect(rlaifvPairStrategy.makePairs(TEN, opts())).toEqual(makeRlaifvPairs(TEN, opts()));
    expect(() => getPairStrategy('holistic')).toThrow('Unsupported pair strategy: holistic. Must be one of [rlaifv, extremes].');
    expect(() => getPairStrategy('toString')).toThrow(/Unsupported pair strategy/);
  });
});

describe('makeRlaifvPairs: answers that ask the same question twice (pair.repeated_claims)', () => {
  // r asks 4 claims but only 3 distinct questions: the scripts key its verdicts by question text, find 3 verdicts for
  // 4 claims, and never pair it. x and y ask 4 distinct questions each.
  const answers = [ans('x', 0, { nQuestions: 4 }), ans('r', -2, { nQuestions: 3 }), ans('y', -1, { nQuestions: 4 })];

  it('drop (the scripts, the default): no pair with the repeating answer, and the reason is counted', () => {
    const r = makeRlaifvPairs(answers, opts({ maxPairs: 'all' }));
    expect(ids(r)).toEqual([['x', 'y']]);
    expect(r.dropped).toEqual({ below_diff: 0, unjudged: 0, repeated_claims: 2, identical: 0, gate: 0, sampled_out: 0 });
    expect(makeRlaifvPairs(answers, opts({ maxPairs: 'all', repeatedClaims: 'drop' }))).toEqual(r);
  });

  it('keep: the repeating answer is paired like any other', () => {
    const r = makeRlaifvPairs(answers, opts({ maxPairs: 'all', repeatedClaims: 'keep' }));
    expect(ids(r)).toEqual([['x', 'r'], ['y', 'r'], ['x', 'y']]);
    expect(r.dropped.repeated_claims).toBe(0);
  });

  it('a pair below diff is below diff first; an answer without a question count is not checked', () => {
    const r = makeRlaifvPairs([ans('x', 0, { nQuestions: 3 }), ans('y', 0, { nQuestions: 4 })], opts({ maxPairs: 'all' }));
    expect(r.dropped).toMatchObject({ below_diff: 1, repeated_claims: 0 });
    expect(ids(makeRlaifvPairs([ans('x', 0), ans('y', -1)], opts()))).toEqual([['x', 'y']]);
  });
});

describe('makeExtremesPairs: Anyprefer\'s best against worst (pair.strategy "extremes")', () => {
  it('one pair per prompt, the best answer against the worst; every other candidate counts as sampled out', () => {
    const four = [ans('a', 0), ans('b', -1), ans('c', -3), ans('d', -2)];
    const r = makeExtremesPairs(four, opts());
    expect(ids(r)).toEqual([['a', 'c']]);
    expect(r.pairs[0]!.margin).toBe(3);
    expect(r.considered).toBe(6);
    expect(r.dropped.sampled_out).toBe(5);
    expect(total(r)).toBe(r.considered);
    expect(getPairStrategy('extremes').makePairs(four, opts())).toEqual(r);
  });

  it('ties for best or worst are drawn with the prompt\'s seed, whatever the input order', () => {
    const r = makeExtremesPairs(TEN, opts());
    expect(r.pairs).toHaveLength(1);
    const [chosen, rejected] = ids(r)[0]!;
    expect(['a0', 'a1']).toContain(chosen);
    expect(['a8', 'a9']).toContain(rejected);
    expect(makeExtremesPairs([...TEN].reverse(), opts())).toEqual(r);
    expect(total(r)).toBe(45);
    // Other prompts draw other ties.
    const drawn = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((k) => ids(makeExtremesPairs(TEN, opts({ promptId: `p${k}` })))[0]!.join('>')));
    expect(drawn.size).toBeGreaterThan(1);
  });

  it('is still subject to diff, judged claims and identical texts: the widest gap among what RLAIF-V would pair', () => {
    expect(makeExtremesPairs([ans('a', 0), ans('b', -1)], opts({ diff: 2 })).pairs).toEqual([]);
    // The worst answer has an unjudged claim: the pair is the best against the next worst.
    const r = makeExtremesPairs([ans('a', 0), ans('b', -2), ans('c', -4, { nJudged: 3 })], opts());
    expect(ids(r)).toEqual([['a', 'b']]);
    expect(r.dropped.unjudged).toBe(2);
    const same = makeExtremesPairs([ans('a', 0, { text: 'x' }), ans('b', -3, { text: 'x' }), ans('c', -1)], opts());
    expect(ids(same)).toEqual([['c', 'b']]); // a and b are the same text: the widest pair left is c against b
  });

  it('the gate judges the extremes pair only: an unsure one leaves the prompt without a pair', () => {
    const gate = { threshold: 0.9, confidence: (c: ScoredAnswer, r: ScoredAnswer) => (c.id === 'a' && r.id === 'c' ? 0.5 : 1) };
    const r = makeExtremesPairs([ans('a', 0), ans('b', -1), ans('c', -3)], opts({ gate }));
    expect(r.pairs).toEqual([]);
    expect(r.gated.map((p) => [p.chosenId, p.rejectedId])).toEqual([['a', 'c']]);
    expect(r.dropped.gate).toBe(1);
    expect(total(r)).toBe(r.considered);
  });
});
