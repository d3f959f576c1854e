// Where claims sit in an answer: character ranges [start, end) of the answer text, the RLHF-V fine-grained segments
// that `--spans` exports and token-weighted DPO reads. One locator for the dividers and the export alike.

/** A range of characters [start, end) of an answer. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The text as dividers normalise it (a whitespace run is one space; curly quotes straight; markdown emphasis marks
 * dropped), with each kept character's index in the original, so a normalised sentence found there maps back.
 */
function normalised(text: string): { norm: string; at: number[] } {
  let norm = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (text.startsWith('**', i) || text.startsWith('__', i)) i += 2;
    else if (ch === '`') i++;
    else if (/\s/.test(ch)) {
      if (norm !== '' && !norm.endsWith(' ')) (norm += ' '), at.push(i);
      while (i < text.length && /\s/.test(text[i]!)) i++;
    } else {
      norm += /[\u2018\u2019\u02bc]/.test(ch) ? "'" : /[\u201c\u201d]/.test(ch) ? '"' : ch;
      at.push(i++);
    }
  }
  return { norm, at };
}

/**
 * Each sentence's range in `text`, searched in order (a sentence is looked for after the previous one, then anywhere);
 * consecutive equal sentences (several claims of one sentence) share one range. The search forgives what dividers
 * normalise (spacing and line breaks, curly quotes, markdown emphasis), and the range is of the original text. A
 * sentence that is not in the text (a divider rewrote it) gets null.
 * @example locateSentences('A b.\n\nC  d.', ['C d.', 'X']) // [{ start: 6, end: 11 }, null]
 */
export function locateSentences(text: string, sentences: readonly string[]): (Span | null)[] {
  const { norm, at } = normalised(text);
  let cursor = 0;
  let last: { sentence: string; span: Span } | null = null;
  return sentences.map((sentence) => {
    if (last && last.sentence === sentence) return { ...last.span };
    const needle = normalised(sentence).norm.trim();
    if (needle === '') return null;
    let k = norm.indexOf(needle, cursor);
    if (k < 0) k = norm.indexOf(needle);
    if (k < 0) return null;
    cursor = k + needle.length;
    const span = { start: at[k]!, end: at[cursor - 1]! + 1 };
    last = { sentence, span };
    return { ...span };
  });
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
