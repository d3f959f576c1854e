/** Coordinated lists ("a red circle, a blue star and an orange square"): segmenting and deciding if a split is safe. */
import { DETERMINERS, NUMBER_WORDS, PREPOSITIONS } from './lexicon.js';
import type { Token } from './text.js';

/** How a list item begins; only lists of like items are split. */
export type ItemKind = 'det' | 'pp' | 'ing' | 'adj' | 'other';

/** Where a list is being split: after a form of "be", and whether the subject is existential "there". */
export interface ListContext {
  be: boolean;
  there: boolean;
}

const INTENSIFIERS = new Set([
  'very', 'quite', 'slightly', 'really', 'fairly', 'extremely', 'light', 'dark', 'bright', 'pale', 'deep',
]);

/** Split tokens at "and" and commas; with `andOnly`, commas stay inside items. */
export function segmentList(tokens: readonly Token[], andOnly: boolean): Token[][] {
  const segs: Token[][] = [];
  let cur: Token[] = [];
  let commas = 0;
  let last: 'and' | 'comma' | null = null;
  // "promoting growth, reducing poverty and inequality, and fostering development": with a comma before the last
  // "and" (a serial comma), an earlier "and" with no comma before it is inside its item. A quoted title's comma
  // ("Hard in Da Paint,") is no list's: then nothing is kept together.
  const serial = andOnly || tokens.some((t) => /["“”]/.test(t.raw)) ? -1 : tokens.findLastIndex((t, k) => /,$/.test(t.raw) && tokens[k + 1]?.word === 'and');
  for (const [k, t] of tokens.entries()) {
    if (t.word === 'and' && k < serial && !/,$/.test(tokens[k - 1]?.raw ?? ',')) {
      cur.push(t);
    } else if (t.word === 'and') {
      if (cur.length > 0) segs.push(cur);
      cur = [];
      last = 'and';
    } else if (!andOnly && /,$/.test(t.raw)) {
      cur.push({ raw: t.raw.replace(/,+$/, ''), word: t.word });
      segs.push(cur);
      cur = [];
      commas++;
      last = 'comma';
    } else {
      cur.push(t);
    }
  }
  if (cur.length > 0) segs.push(cur);
  // A comma list must end in "and" ("a, b and c"); bare commas may be appositions or adjective runs.
  if (commas > 0 && last !== 'and') return [[...tokens]];
  return segs;
}

/** Classify how a list item begins. */
export function itemKind(seg: readonly Token[]): ItemKind {
  const first = seg[0]?.word ?? '';
  if (DETERMINERS.has(first) || NUMBER_WORDS.has(first) || /^\d+$/.test(first)) return 'det';
  if (PREPOSITIONS.has(first)) return 'pp';
  if (/ing$/.test(first) && first.length > 4) return 'ing';
  if (seg.length === 1 || (seg.length === 2 && INTENSIFIERS.has(first))) return 'adj';
  return 'other';
}

/** Whether splitting these items keeps each claim true to the sentence ("black and white cat" is not split). */
export function isSplittableList(segs: readonly (readonly Token[])[], ctx: ListContext): boolean {
  if (segs.length < 2) return false;
  const kinds = segs.map(itemKind);
  if (kinds.every((k) => k === 'det')) return true;
  // "there are trees and a building", "there are tall buildings and a clear blue sky": things, each with a determiner
  // or a short plural noun phrase; not adjectives ("There are black and white stripes"), one thing ("a cup and
  // saucer"), nor a phrase that shares the next item's words ("a large number of cars and trucks on the highway",
  // "others on the middle and bottom shelves").
  if (ctx.there) return segs.every((s, k) => kinds[k] === 'det' || (s.length <= 4 && !s.some((t) => PREPOSITIONS.has(t.word)) && isPluralPhrase(s.map((t) => t.word))));
  if (!ctx.be) return false;
  if (kinds.every((k) => k === 'ing')) return true;
  // "large, red and in the top left" splits; "with cups and plates" (pp then bare noun) does not.
  const firstPp = kinds.indexOf('pp');
  return kinds.every((k, i) => k === 'pp' || (k === 'adj' && (firstPp < 0 || i < firstPp)));
}

/** Plural noun phrase? Decides "There is" versus "There are" for a list item. */
export function isPluralPhrase(words: readonly string[]): boolean {
  const first = words[0] ?? '';
  if (['a', 'an', 'one', 'another', 'each', 'every', 'this', 'that'].includes(first)) return false;
  if (['several', 'many', 'multiple', 'various', 'numerous', 'both', 'few', 'these', 'those'].includes(first)) return true;
  const n = NUMBER_WORDS.get(first) ?? (/^\d+$/.test(first) ? Number(first) : undefined);
  if (n !== undefined && n > 1) return true;
  // "no stars" / "some apples" / bare "dogs": follow the head noun, the last word before any preposition.
  const cut = words.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  const head = words[(cut < 0 ? words.length : cut) - 1] ?? '';
  return /[^su']s$/.test(head) || ['people', 'children', 'men', 'women', 'feet', 'teeth', 'mice'].includes(head);
}

/** The form of "be" that agrees with an item, keeping the original tense. */
export function agreeBe(original: string, item: readonly string[]): string {
  const past = original === 'was' || original === 'were';
  const plural = isPluralPhrase(item);
  const word = past ? (plural ? 'were' : 'was') : plural ? 'are' : 'is';
  return /^[A-Z]/.test(original) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

// "..., Blood In Blood Out, Tom and Huck and Home Fries": in a comma list one "and" of the last item joins the list
// (the one right after the comma, else the last); another is inside a title ("..., and Forecasting Love and Weather").
export function andInLastItem(list: string): string {
  const comma = list.lastIndexOf(',');
  if (comma < 0) return list;
  const tail = list.slice(comma);
  const ands = tail.match(/ and /g)?.length ?? 0;
  if (ands < 2) return list;
  const oxford = /^,\s*and /.test(tail);
  let k = 0;
  return list.slice(0, comma) + tail.replace(/ and /g, (a) => ((oxford ? k++ > 0 : k++ < ands - 1) ? ' \u0002 ' : a));
}

/**
 * "is equipped with a stove, a refrigerator, and a microwave": a list of things, each with its article, as the object
 * of the preposition that opens the predicate; each item takes the preposition ("with a refrigerator"). Not where an
 * item says more than a short noun phrase ("a child sitting on a bench" hangs what follows on the last item only),
 * nor where the first item holds its own preposition ("with a cup of tea, a plate and a fork" lists things, but
 * "of" then is no longer the one that opens it).
 */
export function prepositionObjects(segs: readonly (readonly Token[])[]): Token[][] | null {
  const first = segs[0];
  // The preposition opens the predicate, or follows its participle ("equipped with", "covered with").
  const at = first?.[0] !== undefined && PREPOSITIONS.has(first[0].word) ? 0 : /ed$/.test(first?.[0]?.word ?? '') && PREPOSITIONS.has(first?.[1]?.word ?? '') ? 1 : -1;
  const prep = first?.[at];
  if (first === undefined || prep === undefined || segs.length < 2) return null;
  const thing = (s: readonly Token[]): boolean => ['a', 'an', 'the'].includes(s[0]?.word ?? '') && s.length <= 5
    && !s.some((t, k) => k > 0 && (PREPOSITIONS.has(t.word) || t.word === 'and' || t.word === 'or' || (t.word.length > 4 && /(?:ing|ed)$/.test(t.word))));
  if (!thing(first.slice(at + 1)) || !segs.slice(1).every(thing)) return null;
  return [[...first], ...segs.slice(1).map((s) => [...first.slice(0, at + 1), ...s])];
}
