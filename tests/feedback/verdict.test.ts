import { describe, expect, it } from 'vitest';
import { ACCEPT_RULES, DEFAULT_ACCEPT_RULE, isRejected, type AcceptRule } from '../../src/feedback/verdict.js';

describe('isRejected: the acceptance rule (REFERENCE §3)', () => {
  it.each([
    // pYes, pNo, scripts, paper
    [0.6, 0.4, false, false],
    [0.4, 0.6, true, true],
    [0.5, 0.5, true, false], // the tie: the only place the two rules differ
    [0, 0, true, false], // neither token anywhere near the top: still a tie
    [0.3000000000000001, 0.3, false, false],
    [1e-12, 0, false, false],
  ])('p(yes) %s, p(no) %s → scripts rejects %s, paper rejects %s', (pYes, pNo, scripts, paper) => {
    expect(isRejected(pYes, pNo, 'scripts')).toBe(scripts);
    expect(isRejected(pYes, pNo, 'paper')).toBe(paper);
  });

  it('defaults to the released scripts (a tie is rejected)', () => {
    expect(DEFAULT_ACCEPT_RULE).toBe('scripts');
    expect(isRejected(0.5, 0.5)).toBe(true);
    expect(ACCEPT_RULES).toEqual(['scripts', 'paper']);
  });

  it('refuses NaN and unknown rules, naming the valid ones', () => {
    expect(() => isRejected(Number.NaN, 0.5)).toThrow(/must be numbers/);
    expect(() => isRejected(0.5, 0.4, 'majority' as AcceptRule)).toThrow('Unsupported accept rule: majority. Must be one of [scripts, paper].');
  });
});
