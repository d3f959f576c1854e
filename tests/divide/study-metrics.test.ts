// The division study's measures (scripts/study/divide-real.ts) that the figures rest on: the two coverage
// readings, a ready-made split scored like the divider, and a skipped sentence that only repeats the answer's claims.
import { describe, expect, it } from 'vitest';
import { coverageOf, measureSplit, missedOnlyByFold, repeatsClaims } from '../../scripts/study/divide-real.js';
import { divideRules } from '../../src/divide/rules.js';

describe('division study measures', () => {
  it('reads "is" and "his" as content words after the fold only: a fact lacking them in the claim is covered only on the second reading', () => {
    const answer = 'Doug Sheehan is an American actor best known for his role as Ben Galvin.';
    const fact = 'Doug Sheehan is an actor.';
    // [coverable, covered] fold-first, then stop-first.
    expect(coverageOf(answer, [fact], ['Doug Sheehan worked as an actor.'])).toEqual([1, 0, 1, 1]);
    expect(coverageOf(answer, [fact], ['Doug Sheehan is an actor.'])).toEqual([1, 1, 1, 1]);
    // A fact with a word the answer lacks is not coverable on either reading.
    expect(coverageOf(answer, ['Doug Sheehan is a singer.'], ['Doug Sheehan is an actor.'])).toEqual([0, 0, 0, 0]);
  });

  it('counts a fold-first miss that a claim covers but for "was", "is", "has" or "his"', () => {
    const answer = 'He later became a proconsul in Africa and was a close ally of Emperor Trajan.';
    // "He was proconsul in Africa." lacks only "was" (folded to "wa") in the claim; "He was an ally of Trajan." is covered.
    expect(missedOnlyByFold(answer, ['He was proconsul in Africa.'], ['Senecio later became a proconsul in Africa.'])).toBe(1);
    expect(missedOnlyByFold(answer, ['He was a close ally of Emperor Trajan.'], ['Senecio was a close ally of Emperor Trajan.'])).toBe(0);
    // A miss for a content word is no such miss ("Africa" is not in the claim).
    expect(missedOnlyByFold(answer, ['He was proconsul in Africa.'], ['Senecio later became a proconsul.'])).toBe(0);
  });

  it('scores a ready-made split on the lines that carry one, with its long claims', () => {
    const long = 'He appeared in the long running and widely praised hit television drama series Knots Landing for many years.';
    const f = measureSplit([
      { answer: 'Doug Sheehan is an American actor. He appeared in the long running and widely praised hit television drama series Knots Landing for many years.', facts: ['Doug Sheehan is an actor.', 'He appeared in Knots Landing.'], split: ['Doug Sheehan is an American actor.', long] },
      { answer: 'No split here.', facts: ['No split.'] },
    ]);
    expect(f).not.toBeNull();
    expect(f!.answers).toBe(1);
    expect(f!.claims).toBe(2);
    expect(f!.long_claims_count).toBe(1);
    expect(f!.coverable).toBe(2);
    expect(f!.covered).toBe(2);
    expect(measureSplit([{ answer: 'x', facts: ['x'] }])).toBeNull();
  });

  it('counts a skipped hedge as repeating only when its concrete content is already claimed', () => {
    const first = 'There is a price tag on the suitcase.';
    const hedge = 'The presence of the price tag suggests that the suitcase might be for sale.';
    const d = divideRules(`${first} ${hedge}`);
    // The divider asks nothing new of the hedge: the price tag is already a claim.
    expect(d.claims.some((c) => c.sentence === hedge)).toBe(false);
    expect(d.skipped.some((s) => s.sentence === hedge)).toBe(true);
    expect(repeatsClaims(hedge, d, divideRules)).toBe(true);
    // After another first sentence, the same hedge is not skipped whole: it gives "There is a price tag.".
    const other = divideRules(`The suitcase is brown. ${hedge}`);
    expect(other.claims.filter((c) => c.sentence === hedge).map((c) => c.claim)).toEqual(['There is a price tag.']);
    // Pure speculation gives nothing even alone: skipped, and not a repeat.
    expect(repeatsClaims('He might have been learning how to balance.', d, divideRules)).toBe(false);
    // A sentence whose claim names something the answer's claims lack is not a repeat.
    expect(repeatsClaims('The dog may be sleeping.', d, divideRules)).toBe(false);
  });
});
