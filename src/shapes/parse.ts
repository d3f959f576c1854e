// Parser from one sentence of the shapes language to its structured form.
import type {
  AttributeStatement,
  Description,
  Mood,
  Predicate,
  QuantifiedStatement,
  Statement,
} from './statement.js';
import { isColor, isCorner, isShape, isSize, numberValue, positionValue, type Position, type Shape } from './vocabulary.js';

/** The labeler's prompt suffix, ignored wherever it appears at the end of a question. */
export const YES_NO_SUFFIX = /\s*please\s+answer\s+(?:with\s+)?(?:"?yes"?\s+or\s+"?no"?)\s*[.!]?\s*$/i;

/** Lower-cases, expands contractions and splits one sentence into tokens; null if it holds stray punctuation. */
export function tokenize(text: string): string[] | null {
  let t = text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(YES_NO_SUFFIX, '')
    .replace(/[\s.!?]+$/, '')
    .trim();
  t = t
    .replace(/\bthere's\b/g, 'there is')
    .replace(/\bisn't\b/g, 'is not')
    .replace(/\baren't\b/g, 'are not')
    .replace(/([a-z])-(?=[a-z])/g, '$1 ')
    .replace(/,/g, ' , ');
  const tokens = t.split(/\s+/).filter((w) => w.length > 0);
  if (tokens.length === 0) return null;
  if (tokens.some((w) => !/^(?:[a-z]+|\d+|,)$/.test(w))) return null;
  return tokens;
}

/** A cursor over tokens. */
class Cursor {
  constructor(
    readonly tokens: readonly string[],
    public i = 0,
  ) {}

  peek(k = 0): string | undefined {
    return this.tokens[this.i + k];
  }

  /** Consumes the given words if they come next, all of them; else consumes nothing. */
  eat(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) if (this.tokens[this.i + k] !== words[k]) return false;
    this.i += words.length;
    return true;
  }

  get done(): boolean {
    return this.i >= this.tokens.length;
  }
}

/** "in the image" (meaningless), or "in the POS [corner] [of the image]"; null (nothing consumed) otherwise. */
function parsePlace(c: Cursor): 'image' | Position | null {
  const start = c.i;
  if (!c.eat('in')) return null;
  for (const det of ['the', 'this']) {
    for (const noun of ['image', 'picture']) if (c.eat(det, noun)) return 'image';
  }
  if (!c.eat('the')) {
    c.i = start;
    return null;
  }
  for (const len of [2, 1]) {
    if (c.i + len > c.tokens.length) continue;
    const p = positionValue(c.tokens.slice(c.i, c.i + len).join(' '));
    if (p === null) continue;
    c.i += len;
    if (isCorner(p)) c.eat('corner');
    if (!c.eat('of', 'the', 'image')) c.eat('of', 'the', 'picture');
    return p;
  }
  c.i = start;
  return null;
}

/** Skips any number of "in the image" phrases. */
function skipImage(c: Cursor): void {
  for (;;) {
    const save = c.i;
    if (parsePlace(c) !== 'image') {
      c.i = save;
      return;
    }
  }
}

/** A noun: a shape or the generic "shape"/"object", singular or plural; undefined shape = generic. */
function parseNoun(word: string | undefined): { shape: Shape | undefined } | null {
  if (word === undefined) return null;
  const stem = word.endsWith('s') ? word.slice(0, -1) : word;
  for (const w of word === stem ? [word] : [word, stem]) {
    if (isShape(w)) return { shape: w };
    if (w === 'shape' || w === 'object') return { shape: undefined };
  }
  return null;
}

/** "[size] [color] NOUN [in the POS]" with adjectives in any order, each at most once. */
function parseDescription(c: Cursor, allowPosition: boolean): Description | null {
  const desc: Description = {};
  for (;;) {
    const w = c.peek();
    if (w !== undefined && isSize(w)) {
      if (desc.size) return null;
      desc.size = w;
    } else if (w !== undefined && isColor(w)) {
      if (desc.color) return null;
      desc.color = w;
    } else break;
    c.i++;
  }
  const noun = parseNoun(c.peek());
  if (noun === null) return null;
  c.i++;
  if (noun.shape) desc.shape = noun.shape;
  for (;;) {
    const save = c.i;
    const place = parsePlace(c);
    if (place === null) break;
    if (place === 'image') continue;
    if (!allowPosition || desc.position) {
      c.i = save;
      break;
    }
    desc.position = place;
  }
  return desc;
}

type Quantifier = { exists: true } | { exists: false; n: number };

function parseQuantifier(c: Cursor): Quantifier | null {
  const w = c.peek();
  if (w === undefined) return null;
  let q: Quantifier | null = null;
  if (w === 'a' || w === 'an' || w === 'any') q = { exists: true };
  else if (w === 'no') q = { exists: false, n: 0 };
  else {
    const n = numberValue(w);
    if (n !== null) q = { exists: false, n };
  }
  if (q) c.i++;
  return q;
}

/** One item of "there is/are [not] ITEM, ITEM and ITEM". */
function parseItem(c: Cursor, mood: Mood, negated: boolean): QuantifiedStatement | null {
  const q = parseQuantifier(c);
  if (q === null) return null;
  const desc = parseDescription(c, true);
  if (desc === null) return null;
  if (negated) return q.exists ? { kind: 'absent', mood, desc } : null;
  if (q.exists) return { kind: 'exists', mood, desc };
  if (q.n === 0) return { kind: 'absent', mood, desc };
  return { kind: 'count', mood, desc, n: q.n };
}

function parseItems(c: Cursor, mood: Mood, negated: boolean): Statement | null {
  const items: QuantifiedStatement[] = [];
  for (;;) {
    const item = parseItem(c, mood, negated);
    if (item === null) return null;
    items.push(item);
    if (c.eat(',')) c.eat('and');
    else if (!c.eat('and')) break;
  }
  if (!c.done) return null;
  const [only] = items;
  if (items.length === 1 && only) return only;
  return { kind: 'conjunction', mood, items };
}

/** "red" | "large" | "in the POS" | "a/an SHAPE", then any "in the image". */
function parsePredicate(c: Cursor): Predicate | null {
  const w = c.peek();
  let p: Predicate | null = null;
  if (w === undefined) return null;
  if (isColor(w)) p = { attr: 'color', value: w };
  else if (isSize(w)) p = { attr: 'size', value: w };
  else if ((w === 'a' || w === 'an') && isShape(c.peek(1) ?? '')) {
    p = { attr: 'shape', value: c.peek(1) as Shape };
    c.i++;
  }
  if (p) c.i++;
  else {
    const place = parsePlace(c);
    if (place === null || place === 'image') return null;
    p = { attr: 'position', value: place };
  }
  skipImage(c);
  return p;
}

/** The rest of a definite sentence after "the" (claim: "DESC is [not] PRED"; question: "DESC [not] PRED"). */
function parseDefinite(c: Cursor, mood: Mood, allowPosition: boolean): AttributeStatement | null {
  const desc = parseDescription(c, allowPosition);
  if (desc === null) return null;
  if (mood === 'claim' && !c.eat('is')) return null;
  const negated = c.eat('not');
  const predicate = parsePredicate(c);
  if (predicate === null || !c.done) return null;
  return { kind: 'attribute', mood, desc, negated, predicate };
}

function parseTokens(tokens: readonly string[]): Statement | null {
  const c = new Cursor(tokens);
  if (c.eat('there')) {
    if (!c.eat('is') && !c.eat('are')) return null;
    return parseItems(c, 'claim', c.eat('not'));
  }
  if (c.eat('is', 'there') || c.eat('are', 'there')) return parseItems(c, 'question', false);
  if (c.eat('the')) return parseDefinite(c, 'claim', true);
  if (c.eat('is', 'the')) {
    // "Is the red circle in the top left?": the position is the predicate unless more follows.
    const start = c.i;
    const bare = parseDefinite(c, 'question', false);
    if (bare) return bare;
    c.i = start;
    return parseDefinite(c, 'question', true);
  }
  return null;
}

/** The structured form of one claim or yes/no question, or null if it is outside the language. */
export function parseStatement(text: string): Statement | null {
  if (typeof text !== 'string' || text.length > 2000) return null;
  try {
    const tokens = tokenize(text);
    return tokens === null ? null : parseTokens(tokens);
  } catch {
    return null;
  }
}
