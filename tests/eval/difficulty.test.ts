// The difficulty lens of pairs on hand-made answers: word edit distance, the claim-set difference and the deciding
// claim's form, computed exactly as the definitions in src/eval/difficulty.ts say.
import { describe, expect, test } from 'vitest';
import { decidingClaim, lensAnswer, pairDifficulty, wordEditDistance } from '../../src/eval/difficulty.js';
import type { EvalAnswer, EvalRound } from '../../src/eval/types.js';

// p(yes), p(no): accepted and rejected under either accept rule.
const YES = { pYes: 0.9, pNo: 0.05 };
const NO = { pYes: 0.05, pNo: 0.9 };
const answer = (id: string, claims: [string, typeof YES][]): EvalAnswer => ({
  id,
  sampleIndex: 0,
  text: claims.map(([c]) => c).join(' '),
  words: 0,
  division: { skipped: [] },
  claims: claims.map(([claim, p], idx) => ({ idx, sentence: claim, claim, questionId: `q${id}${idx}`, question: claim, ...p })),
  score: null,
});

describe('the pair difficulty lens', () => {
  test('word edit distance is Levenshtein over words, case-folded', () => {
    expect(wordEditDistance('There is a red square.', 'There is a blue square.')).toBe(1);
    expect(wordEditDistance('There is a red square.', 'there is a red square.')).toBe(0);
    expect(wordEditDistance('A b c', 'A c')).toBe(1);
    expect(wordEditDistance('', 'one two three')).toBe(3);
    expect(wordEditDistance('a b c d', 'd c b a')).toBe(4);
  });

  test('the deciding claim is the rejected side\'s first rejected claim the chosen side does not make', () => {
    const chosen = answer('c', [['There are two shapes.', YES], ['There is a red square.', YES]]);
    const rejected = answer('r', [['There are two shapes.', NO], ['There is a blue circle.', NO], ['The circle is small.', YES]]);
    // "There are two shapes." is rejected on the rejected side but the chosen side says it too: not what decided.
    expect(decidingClaim(lensAnswer(chosen, 'scripts'), lensAnswer(rejected, 'scripts'))).toBe('There is a blue circle.');
    const shared = answer('r2', [['There are two shapes.', NO]]);
    expect(decidingClaim(lensAnswer(chosen, 'scripts'), lensAnswer(shared, 'scripts'))).toBe('There are two shapes.');
    expect(decidingClaim(lensAnswer(chosen, 'scripts'), lensAnswer(answer('r3', [['There is a red square.', YES]]), 'scripts'))).toBeNull();
  });

  test('over a round\'s pairs: mean claim-set difference, mean edit distance, deciding forms counted', () => {
    const a = answer('a', [['There are two shapes.', YES], ['There is a red square.', YES]]);
    const b = answer('b', [['There are three shapes.', NO], ['There is a red square.', YES]]);
    const c = answer('c', [['There is a red square.', YES], ['There is a blue circle.', NO]]);
    const round = { acceptRule: 'scripts', prompts: [{ id: 'p', answers: [a, b, c] }] } as unknown as EvalRound;
    const d = pairDifficulty(round, [
      { chosenId: 'a', rejectedId: 'b' },
      { chosenId: 'a', rejectedId: 'c' },
      { chosenId: 'a', rejectedId: 'missing' },
    ]);
    expect(d.pairs).toBe(2);
    // a vs b: {two shapes} vs {three shapes} differ (2); a vs c: {two shapes} vs {blue circle} (2).
    expect(d.claim_diff).toBe(2);
    // a vs b: "two" → "three" (1 word); a vs c: the distance between their texts.
    expect(d.edit_distance).toBe((1 + wordEditDistance(a.text, c.text)) / 2);
    expect(d.deciding_form).toEqual({ count: 1, exists: 1 });
    expect(pairDifficulty(round, [])).toEqual({ pairs: 0, claim_diff: null, edit_distance: null, deciding_form: {} });
  });
});
