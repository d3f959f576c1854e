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
  return closedQuotesApart(joinQuotes(answer, tokens, joinAbbreviations(answer, out)));
}

// 'appeared in several popular TV shows such as "The Rockford Files" and "M*A*S*H." In addition to his work on
// television, ...': a full stop inside a closing quote, then a capital, ends the sentence (American style puts the
// stop inside the quote), where wink read "H." or "P.I." as an initial's and went on. Only where the quote closes
// (an even count of straight quotes up to it, or a curly closing one).
const CLOSED = /[.!?]["\u201d](?=\s+["\u201c]?[A-Z])/g;
function closedQuotesApart(sentences: Sentence[]): Sentence[] {
  if (!sentences.some((s) => /[.!?]["\u201d]\s/.test(s.text))) return sentences;
  return sentences.flatMap((s) => {
    // Not after a title's abbreviation ('the role of "Mr." Smith's wife').
    const abbreviation = (k: number): boolean => ABBREVIATIONS.has((/([A-Za-z]+)\.["\u201d]$/.exec(s.text.slice(0, k))?.[1] ?? '').toLowerCase());
    const cuts = [...s.text.matchAll(CLOSED)].map((m) => m.index + 2).filter((k) => !abbreviation(k) && (s.text[k - 1] === '\u201d' || (s.text.slice(0, k).match(/"/g)?.length ?? 0) % 2 === 0));
    if (cuts.length === 0) return [s];
    const out: Sentence[] = [];
    let from = 0;
    for (const k of [...cuts, s.text.length]) {
      const tokens = s.tokens.filter((t) => t.start >= s.start + from && t.start < s.start + k);
      if (tokens.length > 0) out.push({ text: s.text.slice(tokens[0]!.start - s.start, k).trimEnd(), start: tokens[0]!.start, end: s.start + k, tokens });
      from = k;
    }
    return out;
  });
}

// Open double quotes in a text: an odd count of straight ones whose last opens a quotation inside the sentence (after
// a space, a bracket or a colon, before a word: not an inch mark, 6'2", nor code, class="joke"; a sentence that opens
// with its quote is dialogue, each piece read as before), curly openings over closings.
function openQuotes(text: string): number {
  const last = text.lastIndexOf('"');
  const opens = last > 0 && (text.match(/"/g)!.length % 2 === 1) && /[\s([:]/.test(text[last - 1]!) && /[^\s"]/.test(text[last + 1] ?? '');
  return (opens ? 1 : 0) + (text.match(/\u201c/g)?.length ?? 0) - (text.match(/\u201d/g)?.length ?? 0);
}

// 'The caption reads "Monday. Just Monday. . ."': a quotation's own full stops end no sentence of the answer. A
// sentence that leaves a double quote open takes the next ones on its line until one closes it (at most four;
// unclosed, they stay apart). Each piece alone gave 'The caption reads "Monday.' and 'Just Monday. . ."'.
function joinQuotes(answer: string, all: readonly Tok[], sentences: Sentence[]): Sentence[] {
  if (!sentences.some((s) => openQuotes(s.text) !== 0)) return sentences;
  const out: Sentence[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    let j = i;
    if (openQuotes(s.text) > 0) {
      let k = i + 1;
      while (k < sentences.length && k <= i + 4 && !answer.slice(sentences[k - 1]!.end, sentences[k]!.start).includes('\n')) {
        if (openQuotes(answer.slice(s.start, sentences[k]!.end)) === 0) {
          j = k;
          break;
        }
        k++;
      }
    }
    if (j === i) {
      out.push(s);
      continue;
    }
    // The piece that closes the quote may go on with a sentence of its own: '"Love Is..." She was born ...'.
    // It may close between two pieces too ('"Love Is...". She was born': wink's sentence ended at "Is.").
    const last = sentences[j]!;
    const from = sentences[j - 1]!.end;
    const close = /["\u201d]/.exec(answer.slice(from, last.end));
    const q = close === null ? -1 : from + close.index;
    const after = q < 0 ? null : /^([.!?]?)\s+["\u201c(]?[A-Z]/.exec(answer.slice(q + 1, last.end));
    const cut = after !== null && (after[1] !== '' || /[.!?\u2026]$/.test(answer.slice(0, q)));
    const end = cut ? q + 1 + after[1]!.length : last.end;
    // The pieces' tokens, and those of the text between pieces that no sentence took ("..." after "Is.").
    const pieces = [...sentences.slice(i, j).flatMap((x) => x.tokens), ...last.tokens.filter((t) => t.start < end)];
    const gaps = all.filter((t) => t.start >= s.start && t.end <= end && t.text.trim() !== '' && t.pos !== 'SPACE'
      && !sentences.slice(i, j + 1).some((x) => t.start >= x.start && t.start < x.end));
    const tokens = gaps.length === 0 ? pieces : [...pieces, ...gaps].sort((a, b) => a.start - b.start);
    out.push({ text: answer.slice(s.start, end), start: s.start, end, tokens });
    const rest = last.tokens.filter((t) => t.start >= end);
    if (cut && rest.length > 0) out.push({ text: answer.slice(rest[0]!.start, last.end), start: rest[0]!.start, end: last.end, tokens: rest });
    i = j;
  }
  return out;
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
    // "a career batting average of .317", "using a .50 caliber rifle": a decimal's point ends no sentence.
    const decimal = prev !== undefined && prev.tokens[n - 1]?.text === '.' && /\d/.test(answer.charAt(prev.tokens[n - 1]!.end));
    if (prev !== undefined && (initial || abbreviation || lower || decimal) && !answer.slice(prev.end, s.start).includes('\n')) {
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
