import { describe, expect, it } from 'vitest';
import { betterOf, DEFAULT_SCORE_METHOD, rankValue, scoreAnswer, type AnswerScore, type ScoreMethod } from '../../src/feedback/scores.js';

const score = (verdicts: boolean[]): AnswerScore => {
  const s = scoreAnswer(verdicts);
  if (!s) throw new Error('expected a score');
  return s;
};
const T = true;
const F = false;

describe('scoreAnswer: REJ-C and REJ-P (REFERENCE §4)', () => {
  it.each([
    [[F], { nClaims: 1, nRejected: 0, rejC: 0, rejP: 0 }],
    [[F, F, F], { nClaims: 3, nRejected: 0, rejC: 0, rejP: 0 }],
    [[T, F, F], { nClaims: 3, nRejected: 1, rejC: -1, rejP: 1 / 3 }],
    [[F, T, T, F], { nClaims: 4, nRejected: 2, rejC: -2, rejP: 0.5 }],
    [[T, T], { nClaims: 2, nRejected: 2, rejC: -2, rejP: 1 }],
    [[T, F, F, F, F, F, F, F, F, F], { nClaims: 10, nRejected: 1, rejC: -1, rejP: 0.1 }],
  ])('%j → %j', (verdicts, expected) => {
    expect(scoreAnswer(verdicts)).toEqual(expected);
  });

  it('an answer with no claims is never scored', () => {
    expect(scoreAnswer([])).toBeNull();
  });

  it('a clean answer scores +0, not -0, under both methods', () => {
    const s = score([F, F]);
    expect(Object.is(s.rejC, 0)).toBe(true);
    expect(Object.is(rankValue('rejc', s), 0)).toBe(true);
    expect(Object.is(rankValue('rejp', s), 0)).toBe(true);
  });
});

describe('rankValue and betterOf: higher REJ-C is better, lower REJ-P is better', () => {
  // a: 1 of 2 claims rejected (REJ-C −1, REJ-P 0.5); b: 2 of 10 rejected (REJ-C −2, REJ-P 0.2): the methods disagree.
  const a = score([T, F]);
  const b = score([T, T, F, F, F, F, F, F, F, F]);

  it('maps both methods to "higher is better"', () => {
    expect(rankValue('rejc', a)).toBe(-1);
    expect(rankValue('rejc', b)).toBe(-2);
    expect(rankValue('rejp', a)).toBe(-0.5);
    expect(rankValue('rejp', b)).toBe(-0.2);
  });

  it('REJ-C prefers fewer rejected claims; REJ-P prefers a smaller share', () => {
    expect(betterOf('rejc', a, b)).toBe('a');
    expect(betterOf('rejc', b, a)).toBe('b');
    expect(betterOf('rejp', a, b)).toBe('b');
    expect(betterOf('rejp', b, a)).toBe('a');
  });

  it('equal scores are a tie (1/3 and 2/6 are the same share)', () => {
    expect(betterOf('rejc', score([T, F]), score([F, T, F]))).toBe('tie');
    expect(betterOf('rejp', score([T, F, F]), score([T, T, F, F, F, F]))).toBe('tie');
    expect(betterOf('rejc', score([T, F, F]), score([T, T, F, F, F, F]))).toBe('a');
  });

  it('defaults to REJ-C and refuses unknown methods, naming the valid ones', () => {
    expect(DEFAULT_SCORE_METHOD).toBe('rejc');
    expect(() => rankValue('holistic' as ScoreMethod, a)).toThrow('Unsupported score method: holistic. Must be one of [rejc, rejp].');
  });
});
