/**
 * A guess in an apposition, not in the clause: "A dog, possibly a golden retriever, is lying on the grass." says that
 * a dog is lying on the grass, and only guesses at its breed. LLaVA-style answers name things this way ("lying on a
 * wooden floor, possibly a deck, with a caption above it", "a red animal, possibly a llama, which is positioned ...");
 * the hedge word made the whole part a guess, so everything but its nouns was lost. The part is now read without the
 * apposition, which is dropped as a guess on its own.
 */
import { isPlainPart, part as makePart, type Part } from './clause-draft.js';
import { contentSkipReason } from './filters.js';
import { HEDGE_WORDS } from './hedge-scope.js';
import { RELATIVES } from './lexicon.js';
import type { Tok } from './nlp.js';

const HEDGES = ['possibly', 'probably', 'likely', 'perhaps', 'maybe', 'presumably'];
const HEDGE_SET = new Set(HEDGES);
const ARTICLES = new Set(['a', 'an', 'the']);
// After the closing comma the clause goes on: its verb, a relative word, a preposition, a conjunction, "to". A noun
// phrase there would make the commas a list's ("a cat, possibly a kitten, a dog and a bird"), left as it is.
const GOES_ON = new Set(['AUX', 'VERB', 'ADP', 'SCONJ', 'CCONJ', 'PART']);

// A hedged apposition that ends the part ("lying on a wooden floor, possibly a deck"; "next to a building, likely a
// church."): read on the part's text, which may be rebuilt ("The small dog is lying on ...").
const AT_END = new RegExp(`,\\s+((?:${HEDGES.join('|')})\\s+(?:a|an|the)\\s+[^,;:()"“”]+?)([.!?]?)$`, 'i');

/**
 * The part without its hedged apposition (", possibly a deck,"), with the apposition's text, or null when the part
 * has none, is not plain answer text, or would still be dropped without it (then its nouns stay the guess's).
 */
function hedgedAppositionApart(part: Part, toks: readonly Tok[], answer: string): { part: Part; guess: string } | null {
  if (part.skip !== undefined) return null;
  const end = AT_END.exec(part.text);
  if (end !== null) {
    const text = part.text.slice(0, end.index) + (end[2] ?? '');
    return contentSkipReason(text).reason === null ? { part: makePart(text, part.start, part.end, undefined, part.attach), guess: end[1]! } : null;
  }
  if (!isPlainPart(part, answer)) return null;
  for (let i = 0; i + 3 < toks.length; i++) {
    const comma = toks[i]!;
    if (comma.text !== ',' || comma.start < part.start || !HEDGE_SET.has(toks[i + 1]!.lower) || !ARTICLES.has(toks[i + 2]!.lower)) continue;
    let j = i + 3;
    while (j < toks.length && toks[j]!.end <= part.end && toks[j]!.pos !== 'PUNCT') j++;
    const next = toks[j + 1];
    if (toks[j]?.text !== ',' || next === undefined || next.end > part.end) return null;
    if (!GOES_ON.has(next.pos) && !RELATIVES.has(next.lower) && next.lower !== 'where') return null;
    const text = `${part.text.slice(0, comma.start - part.start)} ${part.text.slice(next.start - part.start)}`;
    if (contentSkipReason(text).reason !== null) return null;
    return { part: makePart(text, part.start, part.end, undefined, part.attach), guess: answer.slice(toks[i + 1]!.start, toks[j - 1]!.end) };
  }
  return null;
}

/**
 * The sentence's parts with their hedged appositions taken out; each one taken out is added to `dropped` as a guess.
 * Not where another part hangs on the apposition ("a red animal, possibly a llama, which is positioned ..." reads
 * "The llama is positioned ..."): that part is the guess's, and the sentence is left as it was.
 */
export function withoutHedgedAppositions(parts: Part[], toks: readonly Tok[], answer: string, dropped: { sentence: string; reason: string }[]): Part[] {
  return parts.map((p) => {
    const apart = p.text.includes(', ') ? hedgedAppositionApart(p, toks, answer) : null;
    if (apart === null) return p;
    const at = answer.indexOf(apart.guess, p.start);
    if (at < 0 || parts.some((q) => q.attach !== undefined && q.attach >= at && q.attach < at + apart.guess.length)) return p;
    dropped.push({ sentence: apart.guess, reason: 'opinion or hedge' });
    return apart.part;
  });
}

const SUBORDINATORS = new Set(['if', 'when', 'while', 'although', 'though', 'because', 'since', 'unless', 'whether', 'despite', 'after', 'before', 'until', 'once', 'as']);

/**
 * The words before a hedge's comma stand as a clause of their own ("The book is on the desk, possibly indicating
 * ..."): they hold a verb, are not a subordinate clause or phrase alone ("If someone were to recommend a new flavor,
 * they might ...", "Despite playing for the Pirates, ..."), and the hedge is not a list's last item, whose first
 * items the left would cut ("confident, stylish, and possibly intellectual").
 */
export function standsBeforeHedge(toks: readonly Tok[], comma: number): boolean {
  const left = toks.slice(0, comma);
  if (!left.some((t) => t.pos === 'AUX' || t.pos === 'VERB')) return false;
  if (SUBORDINATORS.has(left[0]!.lower) && !left.some((t) => t.text === ',')) return false;
  const [and, hedge, then] = [toks[comma + 1], toks[comma + 2], toks[comma + 3]];
  return !(and?.pos === 'CCONJ' && hedge !== undefined && HEDGE_WORDS.test(hedge.lower) && then !== undefined && then.pos !== 'VERB' && then.pos !== 'AUX');
}
