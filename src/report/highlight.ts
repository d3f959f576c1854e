// Where each claim's sentence sits in its answer, as text segments the page renders as plain text or marks.

/** A piece of an answer: `claims` are the indexes (into the answer's claim list) whose sentence this piece is. */
export interface Segment {
  text: string;
  claims: number[];
}

/**
 * Splits `text` into plain pieces and the sentences the claims came from, in order. A sentence is looked for after
 * the previous one first (the divider keeps answer order) and then anywhere; claims of one sentence share one piece.
 * Returns the pieces and the indexes of claims whose sentence is not in the text (shown unmarked, never guessed).
 * @example sentenceSegments('A. B.', ['B.']) // { segments: [{ text: 'A. ', claims: [] }, { text: 'B.', claims: [0] }], missing: [] }
 */
export function sentenceSegments(text: string, sentences: readonly string[]): { segments: Segment[]; missing: number[] } {
  const spans: { start: number; end: number; claims: number[] }[] = [];
  const missing: number[] = [];
  let cursor = 0;
  sentences.forEach((s, i) => {
    const same = spans.find((sp) => text.slice(sp.start, sp.end) === s && s !== '');
    if (same) return void same.claims.push(i);
    const at = locate(text, s, cursor, spans);
    if (at < 0) return void missing.push(i);
    spans.push({ start: at, end: at + s.length, claims: [i] });
    cursor = at + s.length;
  });
  spans.sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  let pos = 0;
  for (const sp of spans) {
    if (sp.start > pos) segments.push({ text: text.slice(pos, sp.start), claims: [] });
    segments.push({ text: text.slice(sp.start, sp.end), claims: sp.claims });
    pos = sp.end;
  }
  if (pos < text.length) segments.push({ text: text.slice(pos), claims: [] });
  return { segments, missing };
}

/** The first place of `s` at or after `from` (else from the start) that overlaps no marked span; -1 when none. */
function locate(text: string, s: string, from: number, spans: { start: number; end: number }[]): number {
  if (s === '') return -1;
  const free = (at: number) => spans.every((sp) => at + s.length <= sp.start || at >= sp.end);
  for (const start of [from, 0]) {
    for (let at = text.indexOf(s, start); at >= 0; at = text.indexOf(s, at + 1)) if (free(at)) return at;
  }
  return -1;
}
