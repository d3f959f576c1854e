// The pair-quality gate's pure parts: a claim's reject probability, the rejected-count distribution, a pair's judged
// confidence, and pairing with a gate (unsure pairs dropped before sampling, kept apart with their confidence).
import { describe, expect, test } from 'vitest';
import { pairConfidence, rejectedCounts, rejectProbability } from '../../src/feedback/gate.js';
import { makeRlaifvPairs, type ScoredAnswer } from '../../src/feedback/pairs.js';

describe('gate: confidence', () => {
  test('reject probability renormalises p(yes)/p(no); an unscored claim is a coin flip', () => {
    expect(rejectProbability(0.2, 0.6)).toBeCloseTo(0.75, 12);
    expect(rejectProbability(0.9, 0.0)).toBe(0);
    expect(rejectProbability(null, 0.5)).toBe(0.5);
    expect(rejectProbability(0, 0)).toBe(0.5);
  });

  test('rejected counts are the Poisson-binomial distribution', () => {
    expect(rejectedCounts([])).toEqual([1]);
    expect(rejectedCounts([0.5, 0.5])).toEqual([0.25, 0.5, 0.25]);
    const d = rejectedCounts([0.1, 0.7, 0.3]);
    expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(d[3]).toBeCloseTo(0.1 * 0.7 * 0.3, 12);
    expect(d[0]).toBeCloseTo(0.9 * 0.3 * 0.7, 12);
  });

  test('certain verdicts give confidence 1 or 0; a coin-flip claim halves it', () => {
    expect(pairConfidence([0], [1], 'rejc')).toBe(1);
    expect(pairConfidence([1], [0], 'rejc')).toBe(0);
    // chosen has one unsure claim, rejected one sure rejection: the ranking holds unless the unsure one is rejected.
    expect(pairConfidence([0.5], [1], 'rejc')).toBeCloseTo(0.5, 12);
    // P(C = 0)·P(R ≥ 1) + P(C = 1)·P(R = 2), with R's distribution [0.01·0.98, 0.99·0.98 + 0.01·0.02, 0.99·0.02].
    expect(pairConfidence([0.01], [0.99, 0.02], 'rejc')).toBeCloseTo(0.99 * (1 - 0.01 * 0.98) + 0.01 * (0.99 * 0.02), 12);
    // REJ-P compares shares: 1 of 4 beats 1 of 2.
    expect(pairConfidence([1, 0, 0, 0], [1, 0], 'rejp')).toBe(1);
    expect(pairConfidence([1, 0, 0, 0], [1, 0], 'rejc')).toBe(0);
  });
});

const answer = (id: string, value: number, probs: number[]): ScoredAnswer => ({
  id,
  text: `answer ${id}`,
  words: 4,
  nClaims: probs.length,
  nJudged: probs.length,
  value,
  rejectProbs: probs,
});

describe('gate: pairing', () => {
  const answers = [
    answer('a', 0, [0.01, 0.01]), // sure: nothing rejected
    answer('b', -1, [0.99, 0.01]), // sure: one rejected
    answer('c', -1, [0.55, 0.01]), // barely rejected
    answer('d', 0, [0.45, 0.02]), // barely accepted
  ];
  const gate = { threshold: 0.9, confidence: (ch: ScoredAnswer, rj: ScoredAnswer) => pairConfidence(ch.rejectProbs!, rj.rejectProbs!, 'rejc') };

  test('unsure pairs are dropped with their confidence; sure ones kept; without a gate all are pairs', () => {
    const plain = makeRlaifvPairs(answers, { seed: 1, promptId: 'p', maxPairs: 'all' });
    expect(plain.pairs).toHaveLength(4); // a>b, a>c, d>b, d>c
    expect(plain.gated).toEqual([]);
    const r = makeRlaifvPairs(answers, { seed: 1, promptId: 'p', maxPairs: 'all', gate });
    expect(r.pairs.map((p) => `${p.chosenId}>${p.rejectedId}`)).toEqual(['a>b']);
    expect(r.gated.map((p) => `${p.chosenId}>${p.rejectedId}`).sort()).toEqual(['a>c', 'd>b', 'd>c']);
    expect(r.dropped.gate).toBe(3);
    expect(r.pairs[0]!.confidence).toBeGreaterThanOrEqual(0.9);
    for (const p of r.gated) expect(p.confidence).toBeLessThan(0.9);
    expect(r.considered).toBe(r.pairs.length + Object.values(r.dropped).reduce((a, b) => a + b, 0));
  });

  test('the gate runs before sampling: a prompt keeps its sure pairs whatever maxPairs samples', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = makeRlaifvPairs(answers, { seed, promptId: 'p', maxPairs: 1, gate });
      expect(r.pairs.map((p) => `${p.chosenId}>${p.rejectedId}`)).toEqual(['a>b']);
      expect(r.dropped.sampled_out).toBe(0);
    }
  });
});
