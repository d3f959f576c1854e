import { describe, expect, it } from 'vitest';
import { wordCount } from '../../src/feedback/words.js';

describe("wordCount: Python's len(text.split())", () => {
  it.each([
    ['', 0],
    ['   \n\t ', 0],
    ['A red circle.', 3],
    ['  A red  circle.\n', 3],
    ['line one\nline two\r\nthree', 5],
    ['a,b c-d (e)', 3], // punctuation stays attached to its word
    ['no\u00a0break', 2], // NBSP splits in Python too
    ['ideographic\u3000space', 2],
    ['next\u0085line', 2], // Python splits on U+0085; JS \s does not
    ['unit\u001fseparator', 2], // Python splits on U+001C–U+001F
    ['zero\ufeffwidth', 1], // JS \s splits on U+FEFF; Python does not
    ['zero\u200bwidth space', 2], // U+200B is not whitespace in either
  ])('%j → %i', (text, n) => {
    expect(wordCount(text)).toBe(n);
  });
});
