// The correction editors on hand-made answers: what drop and overwrite change, and what they must leave alone.
import { describe, expect, test } from 'vitest';
import { contentWords, correctAnswer, makeCorrectionPairs, type EditAnswer, type EditClaim } from '../../src/feedback/corrections.js';

let n = 0;
/** An answer of sentences, each [text, its claims' verdicts ('r' rejected, 'a' accepted, 'u' unjudged), question]. */
function answer(id: string, sentences: [string, string, string?][], sep = ' '): EditAnswer {
  const claims: EditClaim[] = [];
  for (const [text, verdicts, question] of sentences) {
    for (const v of verdicts) {
      claims.push({
        id: `c${n++}`,
        sentence: text,
        question: question ?? `Is there ${text.replace(/^There is /, '').replace(/\.$/, '')}?`,
        verdict: v === 'r' ? 'rejected' : v === 'a' ? 'accepted' : 'unjudged',
      });
    }
  }
  return { id, text: sentences.map((s) => s[0]).join(sep), claims };
}

describe('drop', () => {
  test('removes exactly the sentences with a rejected claim, keeps the rest verbatim, and lists the edit', () => {
    const a = answer('a', [
      ['There are two shapes in the image.', 'a', 'Are there two shapes in the image?'],
      ['There is a small red circle in the top left.', 'r'],
      ['There is a large blue star in the center.', 'a'],
    ]);
    const c = correctAnswer('drop', a, [])!;
    expect(c.text).toBe('There are two shapes in the image. There is a large blue star in the center.');
    expect(c.edits).toEqual([{ sentence: 1, old: 'There is a small red circle in the top left.', new: null, claim_ids: [a.claims[1]!.id] }]);
  });

  test('a list sentence with one rejected item goes whole (its accepted items with it)', () => {
    const a = answer('a', [['There is a red square, a blue circle and a green star.', 'aar']]);
    expect(correctAnswer('drop', a, [])).toBeNull(); // nothing would be left
    const b = answer('b', [
      ['There is a red square, a blue circle and a green star.', 'aar'],
      ['There is a purple triangle.', 'a'],
    ]);
    expect(correctAnswer('drop', b, [])!.text).toBe('There is a purple triangle.');
  });

  test('nothing to correct, or a claim without a verdict: no corrected answer', () => {
    expect(correctAnswer('drop', answer('a', [['There is a red square.', 'a'], ['There is a cat.', 'a']]), [])).toBeNull();
    expect(correctAnswer('drop', answer('a', [['There is a red square.', 'r'], ['There is a cat.', 'u']]), [])).toBeNull();
  });

  test('keeps line breaks and text the divider did not claim', () => {
    const a = answer('a', [['Sure!', ''], ['There is a red square.', 'r'], ['There is a blue circle.', 'a']], '\n');
    expect(correctAnswer('drop', a, [])!.text).toBe('Sure!\n\nThere is a blue circle.');
  });
});

describe('overwrite', () => {
  const q = (s: string) => `Is ${s}?`;
  test("replaces a rejected sentence with the siblings' accepted sentence about the same object, by majority", () => {
    const wrong = answer('w', [['The yellow triangle is in the bottom right.', 'r', q('the yellow triangle in the bottom right')]]);
    const sibs = [
      answer('s1', [['The yellow triangle is in the top left.', 'a', q('the yellow triangle in the top left')]]),
      answer('s2', [['The yellow triangle is in the top right.', 'a', q('the yellow triangle in the top right')]]),
      answer('s3', [['The yellow triangle is in the top left.', 'a', q('the yellow triangle in the top left')]]),
      answer('s4', [['The yellow triangle is in the bottom right.', 'r', q('the yellow triangle in the bottom right')]]),
    ];
    const c = correctAnswer('overwrite', wrong, [wrong, ...sibs])!;
    expect(c.text).toBe('The yellow triangle is in the top left.');
    expect(c.edits[0]).toMatchObject({ sentence: 0, old: 'The yellow triangle is in the bottom right.', new: 'The yellow triangle is in the top left.', source_id: 's1' });
  });

  test('a false "there is no X" is overwritten by an accepted sentence about X in another form', () => {
    const wrong = answer('w', [['There is no square.', 'r', 'Is there no square?']]);
    const sib = answer('s', [['The square is large.', 'a', 'Is the square large?']]);
    expect(correctAnswer('overwrite', wrong, [sib])!.text).toBe('The square is large.');
  });

  test('never takes a rejected sentence, a sentence the answer already has, or one about nothing it said: then drops', () => {
    const wrong = answer('w', [
      ['There is a small blue circle in the top center.', 'a'],
      ['There is a small blue circle in the center.', 'r'],
    ]);
    const sibs = [
      answer('s1', [['There is a small blue circle in the top center.', 'a']]),
      answer('s2', [['There is a small blue circle in the middle.', 'r']]),
      answer('s3', [['There are two dogs.', 'a', 'Are there two dogs?']]),
    ];
    const c = correctAnswer('overwrite', wrong, [wrong, ...sibs])!;
    expect(c.text).toBe('There is a small blue circle in the top center.');
    expect(c.edits).toEqual([{ sentence: 1, old: 'There is a small blue circle in the center.', new: null, claim_ids: [wrong.claims[1]!.id] }]);
  });

  test('the same question form and the same place in the answer win over a mere shared word', () => {
    const wrong = answer('w', [
      ['There are two shapes in the image.', 'a', 'Are there two shapes in the image?'],
      ['There is a large green square in the center.', 'r'],
    ]);
    const sibs = [
      answer('s1', [
        ['There are two shapes in the image.', 'a', 'Are there two shapes in the image?'],
        ['There is a large blue star in the middle left.', 'a'],
      ]),
      answer('s2', [['The square is green.', 'a', 'Is the square green?']]),
    ];
    expect(correctAnswer('overwrite', wrong, [wrong, ...sibs])!.text).toBe('There are two shapes in the image. There is a large blue star in the middle left.');
  });

  test('content words leave out articles, be-verbs, negation and "image"', () => {
    expect([...contentWords('There is no red square in the image.')].sort()).toEqual(['red', 'square']);
  });
});

describe('correction pairs', () => {
  const side = (id: string, nRejected: number, nClaims = 2, text = id) => ({ id, text, words: 5, nClaims, nJudged: nClaims, nQuestions: nClaims, value: -nRejected, nRejected });
  test('chosen when free of rejected claims or fewer by minFewer; never identical, unjudged or claimless; at most maxPairs, seeded', () => {
    const items = [
      { editor: 'drop' as const, corrected: side('c1', 0), original: side('o1', 1) },
      { editor: 'drop' as const, corrected: side('c2', 1, 3), original: side('o2', 2, 3) },
      { editor: 'drop' as const, corrected: side('c3', 1, 3), original: side('o3', 2, 3) },
      { editor: 'drop' as const, corrected: side('c4', 0, 0), original: side('o4', 1) },
      { editor: 'drop' as const, corrected: { ...side('c5', 0), nJudged: 1 }, original: side('o5', 1) },
      { editor: 'drop' as const, corrected: side('c6', 0, 2, 'same'), original: side('o6', 1, 2, 'same') },
    ];
    const all = makeCorrectionPairs(items, { seed: 1, promptId: 'p', maxPairs: 'all', minFewer: 1 });
    expect(all.pairs.map((p) => [p.chosenId, p.rejectedId])).toEqual([['c1', 'o1'], ['c2', 'o2'], ['c3', 'o3']]);
    expect(all.dropped).toMatchObject({ below_diff: 1, unjudged: 1, identical: 1 });
    expect(all.considered).toBe(6);
    expect(makeCorrectionPairs(items, { seed: 1, promptId: 'p', maxPairs: 'all', minFewer: 2 }).pairs.map((p) => p.chosenId)).toEqual(['c1']);
    const two = makeCorrectionPairs(items, { seed: 1, promptId: 'p', maxPairs: 2, minFewer: 1 });
    expect(two.pairs).toHaveLength(2);
    expect(two.dropped.sampled_out).toBe(1);
    expect(makeCorrectionPairs(items, { seed: 1, promptId: 'p', maxPairs: 2, minFewer: 1 }).pairs).toEqual(two.pairs);
  });
});
