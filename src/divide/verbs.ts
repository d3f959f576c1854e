/** Finite-verb detection and base forms: the part of English the question rules need. */
import { verbLemma } from './nlp.js';
import {
  AUX_ADVERBS, AUXILIARIES, BASE_VERBS, BE_FORMS, DETERMINERS, IRREGULAR_PAST, IRREGULAR_PAST_OF, isVerbWord, NAME_PARTICLES, NOT_PAST_ED, NOUNLIKE_MODALS, NUMBER_WORDS,
  PARTICIPLES, PLURAL_HEADS, POSITION_WORDS, PREPOSITIONS, RELATIVES,
} from './lexicon.js';
import type { Token } from './text.js';

/** The finite verb of a clause and what do-support needs to invert it. */
export interface VerbInfo {
  index: number;
  /** 'aux' verbs move to the front; 'main' verbs take do/does/did plus `base`. */
  kind: 'aux' | 'main';
  word: string;
  base: string;
  doWord: 'Do' | 'Does' | 'Did';
  /** True when only a relative-clause verb was found (a fragment such as "the man who is tall"). */
  fromRelative?: boolean;
}

/**
 * A verb found, as one literal in one field order (`fromRelative` always there): every VerbInfo then shares one
 * hidden class, where spread copies (`{ ...verb, index }`) each had their own and sent V8's optimised rules back to
 * the interpreter when one reached code that had not met it.
 */
export function verbInfo(index: number, kind: VerbInfo['kind'], word: string, base: string, doWord: VerbInfo['doWord'], fromRelative = false): VerbInfo {
  return { index, kind, word, base, doWord, fromRelative };
}

/** Base form of a third-person singular verb ("watches" -> "watch", "carries" -> "carry"). */
export function sFormToBase(word: string): string {
  const special: Record<string, string> = { has: 'have', does: 'do', goes: 'go', is: 'be' };
  if (special[word]) return special[word];
  // Prefer a known verb: "lies" -> "lie" (not "ly"), "uses" -> "use".
  const candidates = [word.slice(0, -1)];
  if (/es$/.test(word)) candidates.push(word.slice(0, -2));
  if (/ies$/.test(word)) candidates.push(word.slice(0, -3) + 'y');
  const known = candidates.find((c) => BASE_VERBS.has(c));
  if (known !== undefined) return known;
  if (/[^aeiou]ies$/.test(word)) return word.slice(0, -3) + 'y';
  if (/(?:ch|sh|ss|x|z|o)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

// Stems that normally end in a silent "e" once "-ed" is removed (smil-ed, danc-ed, pars-ed).
const SILENT_E_STEM = new RegExp(
  '(?:^[^aeiou]*[aeiou][^aeiouwxy]$|v$|c$|[rnlpu]s$|dg$|iz$|[^aeiou]at$|ut$|[aeiou]g$|ang$|rg$|[bdgkpt]l$)',
);

/** Base form of a regular past tense ("stopped" -> "stop", "smiled" -> "smile", "carried" -> "carry"). */
export function edFormToBase(word: string): string {
  const stem = word.slice(0, -2);
  const candidates = [word.slice(0, -1), stem, stem.slice(0, -1), stem.replace(/i$/, 'y')];
  for (const c of candidates) if (BASE_VERBS.has(c)) return c;
  // Beyond the known verbs, wink's lemmatizer: the spelling rules below guessed "complet", "graduat", "releas".
  const lemma = verbLemma(word);
  if (lemma !== word && /^[a-z]+$/.test(lemma)) return lemma;
  if (/[^aeiou]ied$/.test(word)) return word.slice(0, -3) + 'y';
  if (/([bdgmnprt])\1$/.test(stem)) return stem.slice(0, -1);
  return SILENT_E_STEM.test(stem) ? stem + 'e' : stem;
}

const PRONOUN_DETERMINERS = new Set([
  'this', 'that', 'these', 'those', 'some', 'any', 'all', 'both', 'several', 'many', 'few', 'most', 'more', 'much',
  'either', 'neither', 'another', 'one', 'two', 'three', 'four', 'five',
]);

const PLURAL_LEADS = new Set(['several', 'many', 'multiple', 'various', 'numerous', 'both', 'few', 'these', 'those', 'all']);

const isNumberWord = (w: string): boolean => NUMBER_WORDS.has(w) || /^\d+$/.test(w);

// Words after which the next word is part of a noun phrase or an infinitive, so never the finite verb.
const blocksVerb = (prev: string): boolean =>
  DETERMINERS.has(prev) || PREPOSITIONS.has(prev) || POSITION_WORDS.has(prev) || isNumberWord(prev)
  || prev === 'to' || /'s?$/.test(prev);

/** True when a subject's head noun is plural, which decides between "Do" and "Does". */
// Endings of adjectives ("instrumental", "famous", "notable", "popular", "other"), for verbAt's plural-noun test.
const ADJECTIVE_END = /(?:al|ous|ful|ic|ive|able|ible|ar|ary|ern|ish|less|other)$/;

export function isPluralSubject(subject: readonly Token[]): boolean {
  const words = subject.map((t) => t.word).filter((w) => w.length > 0);
  if (words.includes('and')) return true;
  const first = words[0] ?? '';
  const cut = words.findIndex((w, i) => i > 0 && (PREPOSITIONS.has(w) || RELATIVES.has(w)));
  // "Some of his most famous works", "all of the dramas": the number is the noun's after "of".
  if (cut === 1 && words[1] === 'of' && /^(?:some|most|all|none|any|half)$/.test(first)) return isPluralSubject(subject.slice(2));
  const head = words.slice(0, cut < 0 ? words.length : cut);
  const last = head[head.length - 1] ?? '';
  if (PLURAL_HEADS.has(last)) return true;
  if (PLURAL_LEADS.has(first)) return true;
  const n = NUMBER_WORDS.get(first) ?? (/^\d+$/.test(first) ? Number(first) : undefined);
  if (n !== undefined && n !== 1 && head.length > 1) return true;
  return !['his', 'its', 'this', 'us', 'yes', 'news', 'series', 'species'].includes(last) && /[^su']s$/.test(last);
}

/** Whether the token at `i` is a participle, which makes a preceding has/have/had an auxiliary. */
export function isParticipleAt(tokens: readonly Token[], i: number): boolean {
  const w = tokens[i]?.word ?? '';
  if (PARTICIPLES.has(w)) return true;
  if (!/ed$/.test(w) || w.length < 4 || NOT_PAST_ED.has(w)) return false;
  // "has painted the wall" is a perfect; "has curved edges" is possession of a modified noun.
  const next = tokens[i + 1]?.word;
  // "has released "Good Day"", "has directed Rangeela": a name or title as the object.
  return next === undefined || DETERMINERS.has(next) || /^["“'‘]?[A-Z0-9]/.test(tokens[i + 1]?.raw ?? '') || PREPOSITIONS.has(next) || /ly$/.test(next)
    || ['it', 'them', 'him', 'her', 'us', 'me', 'you', 'up', 'down', 'out', 'off', 'away', 'back'].includes(next)
    // "has served as a rabbi", "has worked as", "has released sixteen albums": a role or a count, not a modified noun.
    // "has received positive reviews", "has earned critical acclaim": a count or a verdict, not a modified noun's look.
    || /^(?:positive|negative|mixed|critical|widespread|numerous|several|many|multiple|favou?rable|universal|rave|international|worldwide)$/.test(next)
    || next === 'as' || next === 'due' || NUMBER_WORDS.has(next) || /^(?:\d|(?:thir|four|fif|six|seven|eigh|nine)teen$|(?:twen|thir|for|fif|six|seven|eigh|nine)ty$)/.test(next);
}

// "brightly colored pencils are ...": an -ed word soon followed by "be" with no noun-phrase start between is an adjective.
function adjectiveBeforeBe(tokens: readonly Token[], i: number): boolean {
  for (let j = i + 1; j < Math.min(tokens.length, i + 4); j++) {
    const w = tokens[j]?.word ?? '';
    if (BE_FORMS.has(w)) return true;
    if (DETERMINERS.has(w) || PREPOSITIONS.has(w) || w === 'and') return false;
  }
  return false;
}

/**
 * A word before the verb that looked like a noun phrase's ends a subject after all: "John Smith, born in 1973, is a
 * ..." (an auxiliary after the comma that closes an apposition ending in a number), "The most popular of these was
 * ..." (a demonstrative after a preposition is a pronoun, the verb's subject).
 */
function unblocked(tokens: readonly Token[], i: number, w: string, prev: string): boolean {
  if (['these', 'those', 'this', 'that'].includes(prev) && PREPOSITIONS.has(tokens[i - 2]?.word ?? '')) return true;
  return AUXILIARIES.has(w) && /^\d+,$/.test(tokens[i - 1]?.raw ?? '') && tokens.slice(0, i - 1).some((t) => /,$/.test(t.raw));
}

/** The finite verb at index `i`, or null; `afterRelative` lifts the determiner block for "that". */
export function verbAt(tokens: readonly Token[], i: number, afterRelative = false): VerbInfo | null {
  const w = tokens[i]?.word ?? '';
  const prev = tokens[i - 1]?.word ?? '';
  const next = tokens[i + 1]?.word ?? '';
  // "This is ...", "Both wear hats": a lone opening determiner is a pronoun subject, not a noun's start.
  const pronounSubject = i === 1 && PRONOUN_DETERMINERS.has(prev);
  // "the Culture Centre is": a capitalised position word inside the sentence is a name's, not a place in the picture.
  const nameWord = i > 1 && POSITION_WORDS.has(prev) && /^[A-Z][a-z]/.test(tokens[i - 1]?.raw ?? '');
  // "The center showcases ...": a position word its determiner makes a noun is the subject; an -s form of a known verb
  // after it is the verb (not "middle left", where the position word describes).
  const positionHead = i > 1 && POSITION_WORDS.has(prev) && DETERMINERS.has(tokens[i - 2]?.word ?? '') && /[^s]s$/.test(w) && BASE_VERBS.has(sFormToBase(w));
  // "The Nebulizer 2 was released": a number that ends a title (after a capitalised word) leaves "was" the verb.
  const titleNumber = i > 1 && AUXILIARIES.has(w) && /^\d+$/.test(prev) && /^[A-Z]/.test(tokens[i - 2]?.raw ?? '')
    && !/^(?:January|February|March|April|May|June|July|August|September|October|November|December)$/.test(tokens[i - 2]?.raw ?? '');
  // "Manuel Francisco dos Santos": a name's particle between capitalised words is no verb ("does").
  if (NAME_PARTICLES.has(w) && /^[A-Z]/.test(tokens[i - 1]?.raw ?? '') && /^[A-Z]/.test(tokens[i + 1]?.raw ?? '')) return null;
  if (w === '' || (blocksVerb(prev) && !pronounSubject && !nameWord && !positionHead && !titleNumber && !(afterRelative && RELATIVES.has(prev)) && !unblocked(tokens, i, w, prev))) return null;
  if (/,$/.test(tokens[i - 1]?.raw ?? '') && /(?:ing|ed)$/.test(w) && !AUXILIARIES.has(w)) return null;
  if (AUXILIARIES.has(w)) {
    if (NOUNLIKE_MODALS.has(w) && AUXILIARIES.has(next)) return null;
    if (w === 'may' && /^May/.test(tokens[i]?.raw ?? '')) return null; // "Anna May Wong", "May 2017": a name, a month
    return verbInfo(i, 'aux', w, w, 'Do');
  }
  // "the tea set is", "street lights are": a noun directly before an auxiliary heads the subject; so does a
  // picture's "features" before "of" ("The main features of this image include ...": no verb "features of").
  if (AUXILIARIES.has(next) || (next === 'of' && /^(?:features|shows|displays|captures)$/.test(w))) return null;
  // "Jack and Rose come from ...": a capitalised word inside the sentence is a name's, not a verb ("Did Jack and rise
  // come ...?").
  if (i > 0 && /^[A-Z][a-z]/.test(tokens[i]?.raw ?? '')) return null;
  // The subject's copy (tokens.slice(0, i)) only where its number decides: verbAt is tried at every word of every
  // clause analysed (and inline, not a closure made at each call: that was garbage at every word).
  const irregular = IRREGULAR_PAST.get(w);
  if (irregular !== undefined) {
    // put/cut/read/lay are present or past; a singular subject without -s means past.
    const ambiguous = BASE_VERBS.has(w) && isPluralSubject(tokens.slice(0, i));
    return verbInfo(i, 'main', w, ambiguous ? w : irregular, ambiguous ? 'Do' : 'Did');
  }
  // "the instrumental hits feature ...": a plural noun after a determiner and an adjective, before a verb's plain form
  // ("the scene takes place": a noun before it, and the -s word is the verb).
  if (BASE_VERBS.has(next) && i > 1 && w.endsWith('s') && DETERMINERS.has(tokens[i - 2]?.word ?? '') && ADJECTIVE_END.test(prev) && !blocksVerb(next)) return null;
  if (/s$/.test(w) && w.length > 2 && (BASE_VERBS.has(sFormToBase(w)) || isVerbWord(w))) {
    return verbInfo(i, 'main', w, sFormToBase(w), 'Does');
  }
  // "There appear to be two dogs": after a lone "there" the verb agrees with what follows "to be", so its plain form
  // is finite as well ("There seem to be", as "There appears to be").
  if (isVerbWord(w)) {
    // "His films often explore ...": the subject's number is read before the adverbs in front of the verb (not after
    // an apposition's comma: "John Adam Estes, also known as ..." has no verb there).
    let s = i;
    while (s > 1 && (AUX_ADVERBS.has(tokens[s - 1]?.word ?? '') || /^(?:often|sometimes|seldom|[a-z]+ly)$/.test(tokens[s - 1]?.word ?? ''))) s--;
    if (/,$/.test(tokens[s - 1]?.raw ?? '')) s = i;
    if (isPluralSubject(tokens.slice(0, s)) || (i === 1 && prev === 'there' && next === 'to')) return verbInfo(i, 'main', w, w, 'Do');
  }
  // "the maple glazed doughnut offers ...": an -ed word inside a noun phrase its determiner opened, before a noun that
  // another verb follows, is the noun's adjective ("Did the maple glaze doughnut offers ...?").
  const attributive = /ed$/.test(w) && (DETERMINERS.has(prev) || DETERMINERS.has(tokens[i - 2]?.word ?? '')) && /^[a-z]+$/.test(next) && !DETERMINERS.has(next) && !PREPOSITIONS.has(next)
    && /[^s]s$/.test(tokens[i + 2]?.word ?? '') && (BASE_VERBS.has(sFormToBase(tokens[i + 2]!.word)) || isVerbWord(tokens[i + 2]!.word));
  if (/ed$/.test(w) && w.length >= 4 && !NOT_PAST_ED.has(w) && !adjectiveBeforeBe(tokens, i) && !attributive) {
    return verbInfo(i, 'main', w, edFormToBase(w), 'Did');
  }
  // "He overcame multiple birth defects", "he oversaw the company's growth": an irregular past the table above does
  // not hold, which wink tagged as a verb in this answer and lemmatises to another word ("overcame" -> "overcome").
  // Not a participle ("overseen", "withdrawn"), nor an -ing or -s form (handled above or not finite).
  if (!BASE_VERBS.has(w) && isVerbWord(w) && !/(?:ing|en|wn|s)$/.test(w) && !PARTICIPLES.has(w)) {
    const lemma = verbLemma(w);
    if (lemma !== w && /^[a-z]+$/.test(lemma)) return verbInfo(i, 'main', w, lemma, 'Did');
  }
  return null;
}

/** The main clause's finite verb, skipping the verb of a relative clause inside the subject. */
export function findVerb(tokens: readonly Token[], from = 1): VerbInfo | null {
  let pendingRelative = false;
  let fallback: VerbInfo | null = null;
  for (let i = from; i < tokens.length; i++) {
    const w = tokens[i]?.word ?? '';
    // "Prior to that, she held ...": "that" after a preposition is a pronoun, no relative clause's start.
    if (RELATIVES.has(w) && i > 0 && !(w === 'that' && PREPOSITIONS.has(tokens[i - 1]?.word ?? ''))) {
      pendingRelative = true;
      continue;
    }
    const verb = verbAt(tokens, i, pendingRelative);
    if (!verb) continue;
    if (pendingRelative) {
      fallback ??= verb;
      pendingRelative = false;
      continue;
    }
    return verb;
  }
  return fallback ? verbInfo(fallback.index, fallback.kind, fallback.word, fallback.base, fallback.doWord, true) : null;
}

/**
 * The simple past of an -ing form, by wink's lemma ("moving" -> "moved", "winning" -> "won", "studying" -> "studied").
 * @example pastOfIng('graduating') // 'graduated'
 */
export function pastOfIng(word: string): string {
  const base = verbLemma(word);
  const irregular = IRREGULAR_PAST_OF.get(base);
  if (irregular !== undefined) return irregular === 'was' ? 'was' : irregular;
  if (/e$/.test(base)) return `${base}d`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ied`;
  // "stopping" -> "stopped": the -ing form shows the doubled consonant.
  if (new RegExp(`${base}${base.slice(-1)}ing$`).test(word)) return `${base}${base.slice(-1)}ed`;
  return `${base}ed`;
}

/**
 * The third person singular present of a base verb ("deal" -> "deals", "watch" -> "watches", "carry" -> "carries").
 * @example thirdPerson('contain') // 'contains'
 */
export function thirdPerson(base: string): string {
  return /(?:s|sh|ch|x|z|o)$/.test(base) ? `${base}es` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ies` : `${base}s`;
}
