// Where claims sit in an answer: character ranges [start, end) of the answer text, the RLHF-V fine-grained segments
// that `--spans` exports and token-weighted DPO reads. One locator for the dividers and the export alike.

/** A range of characters [start, end) of an answer. */
export interface Span {
  start: number;
  end: number;
}

// JavaScript's \s, by code unit: tested per character of every answer, so without a regex.
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The text as dividers normalise it (a whitespace run is one space; curly quotes straight; markdown emphasis marks
 * dropped), with each kept character's index in the original, so a normalised sentence found there maps back.
 */
function normalised(text: string): { norm: string; at: number[] } {
  const out: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if ((c === 42 || c === 95) && next === c) i += 2; // ** and __
    else if (c === 96) i++; // `
    else if (isSpace(c)) {
      if (out.length && out[out.length - 1] !== ' ') out.push(' '), at.push(i);
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    } else {
      out.push(c === 0x2018 || c === 0x2019 || c === 0x02bc ? "'" : c === 0x201c || c === 0x201d ? '"' : text[i]!);
      at.push(i++);
    }
  }
  return { norm: out.join(''), at };
}

/**
 * Each sentence's range in `text`, searched in order (a sentence is looked for after the previous one, then anywhere);
 * consecutive equal sentences (several claims of one sentence) share one range. A sentence not in the text verbatim
 * is looked for again forgiving what dividers normalise (spacing and line breaks, curly quotes, markdown emphasis), and
 * its range is of the original text. A sentence that is not in the text either way (a divider rewrote it) gets null.
 * @example locateSentences('A b.\n\nC  d.', ['C d.', 'X']) // [{ start: 6, end: 11 }, null]
 */
export function locateSentences(text: string, sentences: readonly string[]): (Span | null)[] {
  let n: { norm: string; at: number[] } | null = null; // made only when a sentence is not there verbatim
  let cursor = 0;
  let last: { sentence: string; span: Span } | null = null;
  const find = (sentence: string): Span | null => {
    let k = text.indexOf(sentence, cursor);
    if (k < 0) k = text.indexOf(sentence);
    if (k >= 0) return { start: k, end: k + sentence.length };
    n ??= normalised(text);
    const needle = normalised(sentence).norm.trim();
    if (needle === '') return null;
    const from = firstAtOrAfter(n.at, cursor);
    k = n.norm.indexOf(needle, from);
    if (k < 0) k = n.norm.indexOf(needle);
    return k < 0 ? null : { start: n.at[k]!, end: n.at[k + needle.length - 1]! + 1 };
  };
  return sentences.map((sentence) => {
    if (last && last.sentence === sentence) return { ...last.span };
    const span = sentence.trim() === '' ? null : find(sentence);
    if (!span) return null;
    cursor = span.end;
    last = { sentence, span };
    return { ...span };
  });
}

/** The first index k with at[k] >= pos (at is increasing), or at.length. */
function firstAtOrAfter(at: number[], pos: number): number {
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A claim's span: the divider's own when it gave one (a valid range of the text), else its sentence's located range.
 * @example claimSpan({ start: 0, end: 3 }, null, 10) // { start: 0, end: 3 }
 */
export function claimSpan(own: object, located: Span | null, textLength: number): Span | null {
  // The rules divider gives its claims' spans (its source text may be a part of a sentence); older ones do not.
  const { start, end } = own as { start?: unknown; end?: unknown };
  if (Number.isInteger(start) && Number.isInteger(end) && (start as number) >= 0 && (start as number) <= (end as number) && (end as number) <= textLength) {
    return { start: start as number, end: end as number };
  }
  return located;
}
