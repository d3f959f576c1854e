// Claim spans index the answer itself: the shared locator, a divider's own span taking precedence, and cutting an
// answer at max_words without moving any offset.
import { describe, expect, it } from 'vitest';
import { claimSpan, locateSentences } from '../../src/feedback/claim-spans.js';
import { cutWords } from '../../src/feedback/words.js';

describe('locateSentences', () => {
  const text = 'A red circle. A blue square.  A red circle.';
  it('finds each sentence after the previous one, so a repeated sentence gets its second place', () => {
    expect(locateSentences(text, ['A red circle.', 'A blue square.', 'A red circle.'])).toEqual([
      { start: 0, end: 13 },
      { start: 14, end: 28 },
      { start: 30, end: 43 },
    ]);
  });
  it('gives consecutive claims of one sentence the same range', () => {
    expect(locateSentences(text, ['A blue square.', 'A blue square.'])).toEqual([{ start: 14, end: 28 }, { start: 14, end: 28 }]);
  });
  it('looks behind the cursor when a sentence is not after it, and gives null for a rewritten one', () => {
    expect(locateSentences(text, ['A blue square.', 'A red circle.', 'There is a circle.', ''])).toEqual([
      { start: 14, end: 28 },
      { start: 30, end: 43 },
      null,
      null,
    ]);
    expect(locateSentences(text, ['A blue square.', 'A blue square.', 'A red circle.', 'A blue square.'])[3]).toEqual({ start: 14, end: 28 });
  });
});

describe('claimSpan', () => {
  it("takes the divider's own span when it is a range of the text", () => {
    expect(claimSpan({ start: 2, end: 12 }, { start: 0, end: 13 }, 43)).toEqual({ start: 2, end: 12 });
  });
  it('falls back to the located sentence without one, or with one outside the text', () => {
    for (const own of [{}, { start: null, end: null }, { start: 5, end: 2 }, { start: 0, end: 44 }, { start: -1, end: 3 }, { start: 1.5, end: 3 }]) {
      expect(claimSpan(own, { start: 0, end: 13 }, 43)).toEqual({ start: 0, end: 13 });
    }
    expect(claimSpan({}, null, 43)).toBeNull();
  });
});

describe('cutWords', () => {
  it('cuts after the Nth word and keeps the spacing, so the cut text is a prefix of the answer', () => {
    const answer = '  A red\n\ncircle.  A  blue square.';
    const r = cutWords(answer, 4);
    expect(r).toEqual({ text: '  A red\n\ncircle.  A', truncated: true });
    expect(answer.startsWith(r.text)).toBe(true);
  });
  it('leaves an answer of at most N words (or no limit) whole', () => {
    expect(cutWords('A red circle.  ', 3)).toEqual({ text: 'A red circle.  ', truncated: false });
    expect(cutWords('A red circle.', null)).toEqual({ text: 'A red circle.', truncated: false });
    expect(cutWords('', 2)).toEqual({ text: '', truncated: false });
  });
});

describe('locateSentences forgives what dividers normalise', () => {
  it('finds a sentence across a line break, double spaces, curly quotes and bold marks; the range is of the original', () => {
    const text = 'Hi.  A **red**\n circle says \u201cno\u201d. It\u2019s big.';
    const [a, b] = locateSentences(text, ['A red circle says "no".', "It's big."]);
    expect(text.slice(a!.start, a!.end)).toBe('A **red**\n circle says \u201cno\u201d.');
    expect(text.slice(b!.start, b!.end)).toBe('It\u2019s big.');
  });
});
