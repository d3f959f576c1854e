/**
 * Salvage the concrete content of a dropped part: "The giraffe appears to stretch its long neck" is a hedge, but it
 * still says there is a giraffe and a long neck. Each concrete noun phrase becomes an existence claim, as the
 * annotators of real answers wrote them ("There is a neck."); speculation and evaluation stay dropped.
 */
import { isAbstractNoun } from './abstract-nouns.js';
import { flatMapOf } from './arrays.js';
import type { Part } from './clause-draft.js';
import type { DividedClaim } from './divided.js';
import { definiteSubject, HEDGE_WORDS } from './hedge-scope.js';
import { SUBJECTIVE_WORDS } from './lexicon.js';
import type { Tok } from './nlp.js';
import { pluralHead } from './noun-phrase.js';
import { claimToQuestion } from './question.js';
import type { Sentence } from './segment.js';

/** An existence claim and the span of the noun phrase it came from. */
export interface Salvaged {
  claim: string;
  start: number;
  end: number;
  head: string;
}

// Heads that name no visible thing: the picture, its qualities, abstractions, or spans of time ("a good night's
// sleep" gave "There is a good night.", "at the age of five years" "There are five years.").
const ABSTRACT = new Set(`
  image picture photo photograph scene view shot focus setting composition atmosphere ambiance mood sense feeling
  presence combination moment experience excitement thrill joy fun beauty enthusiasm determination progress skill
  skills ability abilities way ways reason reasons purpose fact idea concept time times day life lifestyle nature
  environment context situation activity activities interest attention importance need needs safety comfort
  security warmth softness texture variety number lot lots part kind type sort form level amount use effect
  impression appearance element elements aspect aspects detail details overall glimpse contrast touch pop
  opportunity chance possibility source sign signs indication evidence behavior behaviour habit habits care love
  relaxation leisure adventure connection relationship bond celebration occasion event mix color colour colors colours
  style styles area areas access item items thing things stuff personality presentation artist shade protection
  transportation design concern process
  days night nights week weeks month months year years hour hours minute minutes decade decades century age
`.split(/\s+/).filter(Boolean));
const QUANTIFIERS = new Set(['a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'several', 'many', 'some']);

/**
 * Existence claims for the concrete noun phrases among `toks` whose heads `known` does not already hold; with
 * `attributes`, a known head's adjective no claim has yet is a claim of its own ("the cat's colorful fur" -> "The
 * cat's fur is colorful.").
 */
export function salvageNouns(toks: readonly Tok[], known: Set<string>, attributes = false): Salvaged[] {
  const out: Salvaged[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    // "which features a ...": a word right after a relative pronoun is its verb, whatever the tagger read.
    if (t.pos !== 'NOUN' || /ing$/.test(t.lower) || t.text !== t.lower || RELATIVE_WORDS.has(toks[i - 1]?.lower ?? '')) continue;
    let h = i;
    while (toks[h + 1]?.pos === 'NOUN' && toks[h + 1]!.text === toks[h + 1]!.lower) h++;
    const head = toks[h]!;
    const from = i;
    i = h;
    if (toks.slice(from, h + 1).some((x) => ABSTRACT.has(x.lower)) || head.lower.length < 3 || isAbstractNoun(head.lower)) continue;
    if (idiomOrMeasured(toks, from)) continue;
    // A head already claimed gives nothing more, unless its new adjectives are asked for (below).
    if (!attributes && known.has(head.lower)) continue;
    // Adjectives in front, minus evaluations ("a beautiful red car" -> "a red car").
    let a = from;
    while (toks[a - 1]?.pos === 'ADJ' || misreadAdjective(toks, a - 1)) a--;
    const adjs = toks.slice(a, from).filter((x) => !SUBJECTIVE_WORDS.has(x.lower)).map((x) => x.lower);
    if (known.has(head.lower)) {
      if (attributes) out.push(...attributeClaims(toks, a, from, h, adjs, known));
      continue;
    }
    const det = toks[a - 1];
    // "a must-have for any gaming enthusiast or collector": a generic or negated noun names nothing there.
    if (genericBefore(toks, a)) continue;
    const plural = pluralHead(head);
    const quantity = det && (QUANTIFIERS.has(det.lower) || det.pos === 'NUM') ? det.lower : plural ? '' : 'a';
    const of = ofComplement(toks, h);
    const words = toks.slice(from, of < 0 ? h + 1 : of + 1).map((x) => x.lower);
    const np = [quantity, ...adjs, ...words].filter(Boolean).join(' ').replace(/^a (?=[aeiou])/, 'an ');
    known.add(head.lower);
    if (of >= 0) {
      known.add(toks[of]!.lower);
      i = of;
    }
    out.push({ claim: `There ${plural ? 'are' : 'is'} ${np}.`, start: toks[a]!.start, end: toks[Math.max(h, of)]!.end, head: head.lower });
  }
  return out;
}

const RELATIVE_WORDS = new Set(['which', 'that', 'who']);
// "a large wooden tiger statue": the tagger read "large" as an adverb; a word right after the determiner, not in -ly
// and not a degree word ("the most expensive defenders"), before an adjective, is one.
const DEGREE = new Set(['most', 'more', 'less', 'least', 'very', 'so', 'too', 'quite', 'rather', 'pretty', 'fairly', 'really', 'much', 'even', 'also', 'just']);
const misreadAdjective = (toks: readonly Tok[], k: number): boolean =>
  toks[k]?.pos === 'ADV' && !/ly$/.test(toks[k]!.lower) && !DEGREE.has(toks[k]!.lower) && toks[k - 1]?.pos === 'DET' && toks[k + 1]?.pos === 'ADJ';

// "a large bottle of wine", "a pair of sunglasses", "layers of ingredients": a bare noun after "of" is part of the
// thing ("There is a large bottle of wine.", not "There is a large bottle." and "There is a wine."). The index of the
// complement's last noun, or -1.
function ofComplement(toks: readonly Tok[], h: number): number {
  if (toks[h + 1]?.lower !== 'of') return -1;
  let k = h + 2;
  while (toks[k]?.pos === 'ADJ') k++;
  if (toks[k]?.pos !== 'NOUN' || toks[k]!.text !== toks[k]!.lower) return -1;
  while (toks[k + 1]?.pos === 'NOUN' && toks[k + 1]!.text === toks[k + 1]!.lower) k++;
  const last = toks[k]!.lower;
  return /ing$/.test(last) || ABSTRACT.has(last) || isAbstractNoun(last) ? -1 : k;
}

// "In this case", "In addition", "Of course", "for example": an adverbial phrase's noun names no thing; nor does
// what "a touch of", "a sense of", "a kind of" measures ("adding a touch of color", "a sense of style").
const IDIOM = /^(?:in (?:this |that |any |either |each |which )?case|in addition|of course|for (?:example|instance)|in fact|in turn|in general|in particular|on the (?:other|one) hand)$/;
const MEASURES = new Set(['touch', 'sense', 'hint', 'kind', 'type', 'sort', 'air', 'feeling', 'element', 'splash', 'pop']);
function idiomOrMeasured(toks: readonly Tok[], from: number): boolean {
  const before = toks.slice(Math.max(0, from - 3), from + 1).map((t) => t.lower);
  for (let k = 0; k < before.length - 1; k++) if (IDIOM.test(before.slice(k).join(' '))) return true;
  if (toks[from - 1]?.lower !== 'of') return false;
  let m = from - 2;
  while (toks[m]?.pos === 'ADJ') m--;
  return MEASURES.has(toks[m]?.lower ?? '');
}

// "the cat's colorful fur": each new adjective of a known head, with the head's possessor ("The cat's fur is colorful.").
function attributeClaims(toks: readonly Tok[], a: number, from: number, h: number, adjs: readonly string[], known: Set<string>): Salvaged[] {
  const owner = toks[a - 1]?.text === "'s" && toks[a - 2]?.pos === 'NOUN' ? `${toks[a - 2]!.lower}'s ` : '';
  const head = toks[h]!;
  const np = `${owner}${toks.slice(from, h + 1).map((x) => x.lower).join(' ')}`;
  const out: Salvaged[] = [];
  for (const adj of adjs.filter((x) => !known.has(x))) {
    known.add(adj);
    out.push({ claim: `The ${np} ${pluralHead(head) ? 'are' : 'is'} ${adj}.`, start: toks[owner ? a - 2 : a]!.start, end: head.end, head: head.lower });
  }
  return out;
}

/**
 * The existence claims a dropped part still gives, into `out` (rules.ts). With `listed`, the part lists things an
 * evaluation is about ("The combination of the cat's colorful fur, the red velvet couch"): up to its verb, their new
 * adjectives are claims too.
 */
export function salvagePart(s: Sentence, part: Part, hedged: boolean, out: { claims: DividedClaim[] }, listed = false, subjective = false): void {
  const known = new Set(flatMapOf(out.claims, (c) => c.claim.toLowerCase().match(/[a-z]+/g) ?? []));
  let toks = s.tokens.filter((t) => t.start >= part.start && t.end <= part.end);
  // An evaluation's subject is what the picture shows; what follows the verb is what it is judged by ("can be
  // appealing to collectors and enthusiasts", "making him relatable to a wide audience"), not a thing in it.
  if (listed || subjective) {
    const verb = toks.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
    if (verb >= 0) toks = toks.slice(0, verb);
  }
  let presupposed: Tok[] = [];
  if (hedged) {
    const cut = toks.findIndex((t) => HEDGE_WORDS.test(t.lower));
    // "I think ...", "It seems ...": the guess covers the whole sentence.
    presupposed = cut < 0 ? [] : definiteSubject(toks);
    toks = cut < 0 ? toks : toks.slice(0, cut);
  }
  for (const n of [...salvageNouns(toks, known, listed), ...salvageNouns(presupposed, known)]) {
    const q = claimToQuestion(n.claim);
    if (q !== null) out.claims.push({ sentence: s.text, claim: n.claim, question: q, start: n.start, end: n.end });
  }
}

// "any", "every", "no" or "each" opens the noun phrase before `a` (past its modifiers and an "or"/"and" list).
function genericBefore(toks: readonly Tok[], a: number): boolean {
  for (let d = a - 1; d >= 0 && d >= a - 6; d--) {
    const t = toks[d]!;
    if (/^(?:any|every|no|each)$/.test(t.lower)) return true;
    if (!['NOUN', 'ADJ', 'CCONJ', 'PROPN'].includes(t.pos) && !/ing$/.test(t.lower)) return false;
  }
  return false;
}
