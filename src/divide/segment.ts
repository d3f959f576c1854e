/** Sentences of an answer with their character spans, from wink's sentence boundaries plus line structure. */
import { analyze, retext, type Tok } from './nlp.js';

/** One sentence: its exact text in the answer, its span and its tokens (bullet markers and line breaks removed). */
export interface Sentence {
  text: string;
  start: number;
  end: number;
  tokens: Tok[];
}

const BULLETS = new Set(['-', '*', '\u2022', '\u2023', '\u25aa', '\u2013', '\u2014', '+', '#', '##', '###']);
const FINAL = /^[.!?:\u2026]+$/;

// A list marker at the start of a line: "-", "*", "1.", "2)", "(a)", "#".
function bulletLength(toks: readonly Tok[], i: number): number {
  const t = toks[i];
  if (!t) return 0;
  if (BULLETS.has(t.text) || /^#+$/.test(t.text)) return 1;
  const next = toks[i + 1];
  if (/^\d{1,3}$|^[a-zA-Z]$/.test(t.text) && next && /^[.)]$/.test(next.text) && next.start === t.end) return 2;
  if (/^\d{1,3}\.$/.test(t.text)) return 1;
  return 0;
}

// Does a line break before token i end the sentence? A blank line, a list marker or a finished line does;
// a wrapped line (the next one starting lower-case) does not.
function breaksAt(toks: readonly Tok[], i: number, space: string): boolean {
  if (/\n\s*\n/.test(space)) return true;
  if (bulletLength(toks, i) > 0) return true;
  const prev = toks[i - 1];
  if (prev && FINAL.test(prev.text)) return true;
  return !/^[a-z(]/.test(toks[i]?.text ?? '');
}

/** Split an answer into sentences; list items, headings and paragraphs are always separate sentences. */
export function segmentSentences(answer: string): Sentence[] {
  const { tokens, sentences } = analyze(answer);
  const out: Sentence[] = [];
  for (const [a, b] of sentences) {
    let cur: Tok[] = [];
    let lineStart = true;
    let pendingBreak = '';
    for (let i = a; i <= b; i++) {
      const t = tokens[i];
      if (!t) continue;
      if (t.pos === 'SPACE' || /^\s+$/.test(t.text)) {
        pendingBreak += t.text;
        continue;
      }
      const space = pendingBreak + t.space;
      pendingBreak = '';
      if (space.includes('\n') && cur.length > 0 && breaksAt(tokens, i, space)) {
        push(answer, cur, out);
        cur = [];
        lineStart = true;
      }
      if (lineStart) {
        const skip = bulletLength(tokens, i);
        lineStart = false;
        if (skip > 0) {
          i += skip - 1;
          lineStart = true;
          continue;
        }
      }
      // A line break inside a sentence (wrapped text) is a space between its words, never a join.
      cur.push(space === t.space ? t : retext(t, t.text, t.lower, space));
      joinHyphen(cur, tokens[i + 1]);
    }
    push(answer, cur, out);
  }
  return joinAbbreviations(answer, out);
}

// Titles and abbreviations that wink may take for a sentence end: "Warner Bros. Studios", "Dr. Smith".
const ABBREVIATIONS = new Set(['bros', 'dr', 'mr', 'mrs', 'ms', 'st', 'mt', 'prof', 'gen', 'col', 'lt', 'sgt', 'capt', 'rev', 'no', 'jr', 'sr', 'inc', 'ltd', 'co', 'vs']);

// "He received his Ph." + "D. in Electrical Engineering ...", "the North Korea-U." + "S. Agreed Framework": a
// "sentence" that ends in an initial or an abbreviation and is followed by a letter-dot, a lower-case word or a
// name belongs with the next.
function joinAbbreviations(answer: string, sentences: Sentence[]): Sentence[] {
  const out: Sentence[] = [];
  for (const s of sentences) {
    const prev = out[out.length - 1];
    const n = prev?.tokens.length ?? 0;
    const word = prev?.tokens[n - 2];
    const first = s.tokens[0];
    const dotted = prev !== undefined && prev.tokens[n - 1]?.text === '.' && word !== undefined;
    const initial = dotted && /(?:^|-)[A-Z][a-z]?$/.test(word!.text) && first !== undefined && /^[A-Z]\.$/.test(first.text);
    const abbreviation = dotted && ABBREVIATIONS.has(word!.lower) && first !== undefined && (/^[a-z]/.test(first.text) || first.pos === 'PROPN');
    const lower = dotted && first !== undefined && /^[a-z]/.test(first.text) && /^[A-Z]/.test(word!.text) && word!.text.length <= 3;
    if (prev !== undefined && (initial || abbreviation || lower) && !answer.slice(prev.end, s.start).includes('\n')) {
      out[out.length - 1] = { text: answer.slice(prev.start, s.end), start: prev.start, end: s.end, tokens: [...prev.tokens, ...s.tokens] };
    } else out.push(s);
  }
  return out;
}

// "old - fashioned" arrives as three tokens; written without spaces it is one word, an adjective before a noun.
function joinHyphen(cur: Tok[], next: Tok | undefined): void {
  // Indexed, not `cur.slice(-3)`: this runs at every token of every answer, and the copy was garbage at each.
  const n = cur.length;
  const dash = cur[n - 2];
  if (dash === undefined || dash.text !== '-') return;
  const a = cur[n - 3];
  const b = cur[n - 1];
  if (!a || !dash || !b || dash.text !== '-' || dash.space !== '' || b.space !== '' || !/[a-z]/i.test(a.text + b.text)) return;
  const text = `${a.text}-${b.text}`;
  const pos = next && ['NOUN', 'ADJ', 'PROPN'].includes(next.pos) && b.pos !== 'NOUN' ? 'ADJ' : b.pos;
  cur.splice(-3, 3, { text, lower: text.toLowerCase(), pos, start: a.start, end: b.end, space: a.space });
}

function push(answer: string, toks: Tok[], out: Sentence[]): void {
  const first = toks[0];
  const last = toks[toks.length - 1];
  if (!first || !last || !toks.some((t) => /[a-z0-9]/i.test(t.text))) return;
  out.push({ text: answer.slice(first.start, last.end), start: first.start, end: last.end, tokens: toks });
}
