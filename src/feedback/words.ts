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
