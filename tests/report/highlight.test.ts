// Marking claims' sentences in their answer: pure, so pinned here case by case.
import { describe, expect, test } from 'vitest';
import { sentenceSegments } from '../../src/report/highlight.js';

const joined = (r: ReturnType<typeof sentenceSegments>) => r.segments.map((s) => s.text).join('');

describe('sentenceSegments', () => {
  test('marks each sentence once, in order, and keeps the text whole', () => {
    const text = 'There is a red circle. It is small. There is a blue square.';
    const r = sentenceSegments(text, ['There is a red circle.', 'There is a blue square.']);
    expect(joined(r)).toBe(text);
    expect(r.segments).toEqual([
      { text: 'There is a red circle.', claims: [0] },
      { text: ' It is small. ', claims: [] },
      { text: 'There is a blue square.', claims: [1] },
    ]);
    expect(r.missing).toEqual([]);
  });

  test('claims of one sentence share its mark, even where the sentence occurs twice', () => {
    const text = 'A red circle and a blue star. Yes. A red circle and a blue star.';
    const s = 'A red circle and a blue star.';
    expect(sentenceSegments(text, [s, s]).segments.filter((x) => x.claims.length)).toEqual([{ text: s, claims: [0, 1] }]);
    const r = sentenceSegments(text, [s, 'Yes.']);
    expect(r.segments.map((x) => x.claims)).toEqual([[0], [], [1], []]);
  });

  test('a sentence not in the answer is reported missing, never guessed; text with markup stays as it is', () => {
    const text = '<b>One</b> & "two" shapes.';
    const r = sentenceSegments(text, ['Three shapes.', '"two" shapes.', '']);
    expect(r.missing).toEqual([0, 2]);
    expect(joined(r)).toBe(text);
    expect(r.segments).toEqual([
      { text: '<b>One</b> & ', claims: [] },
      { text: '"two" shapes.', claims: [1] },
    ]);
  });

  test('an earlier sentence found after a later one is still marked (the divider reordered)', () => {
    const r = sentenceSegments('First. Second.', ['Second.', 'First.']);
    expect(r.segments).toEqual([
      { text: 'First.', claims: [1] },
      { text: ' ', claims: [] },
      { text: 'Second.', claims: [0] },
    ]);
  });
});
