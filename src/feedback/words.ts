// Answer length as the released scripts measure it: Python's str.split() with no argument.

// Python's str.isspace() set, not JS's \s: Python also splits on U+001C–U+001F and U+0085, and not on U+FEFF.
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/**
 * Number of whitespace-separated words, as `len(text.split())` counts them in the released scripts.
 * @example wordCount('  A red  circle.\n') // 3
 */
export function wordCount(text: string): number {
  let n = 0;
  for (const w of text.split(PY_WHITESPACE)) if (w !== '') n++;
  return n;
}

/**
 * The answer cut after its first `maxWords` whitespace-separated words, as a prefix of the original string (spacing
 * kept), so that character offsets into the cut text are offsets into the answer; `truncated` when words were cut.
 * @example cutWords('A  red\ncircle here.', 2) // { text: 'A  red', truncated: true }
 */
export function cutWords(text: string, maxWords: number | null): { text: string; truncated: boolean } {
  if (maxWords === null) return { text, truncated: false };
  const word = /\S+/g;
  let end = 0;
  for (let n = 0; n < maxWords; n++) {
    const m = word.exec(text);
    if (!m) return { text, truncated: false };
    end = m.index + m[0].length;
  }
  return word.exec(text) ? { text: text.slice(0, end), truncated: true } : { text, truncated: false };
}
