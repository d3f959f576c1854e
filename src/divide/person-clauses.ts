/**
 * Clause parts about people, as biographies state them: a fronted "Born in X, S ..." or "After doing X, S ...", a
 * perfect or past tense carried over from the main clause ("has released X, won Y"), appositions after a name
 * ("Continuum Analytics, a Python-based data science platform"); and the category that a relative after a list of
 * examples is about ("various luggage items, including ..., which are"). Split from clauses.ts, which calls them.
 */
import { BASE_VERBS, IRREGULAR_PAST, PARTICIPLES } from './lexicon.js';
import { retext, type Tok } from './nlp.js';
import { isComma, pluralHead, textOf } from './noun-phrase.js';
import { pastOfIng } from './verbs.js';

/** Relative pronouns that open a relative clause part. */
export const RELATIVES = new Set(['which', 'who', 'that']);
/** Participles of events that are over: "born in 1956" -> "was born in 1956". */
export const PAST_ONLY = new Set(['born', 'died', 'founded', 'established', 'built', 'raised', 'educated', 'released']);
/** A verb in a participle form ("mounted", "holding", "born"). */
export const isParticipleForm = (t: Tok): boolean => t.pos === 'VERB' && (/(?:ing|ed)$/.test(t.lower) || PARTICIPLES.has(t.lower));
/** A finite verb: an auxiliary, or a verb not in -ing. */
export const isFinite = (t: Tok): boolean => t.pos === 'AUX' || (t.pos === 'VERB' && !/ing$/.test(t.lower));

/**
 * "Santana has released over 30 albums, won 10 Grammy Awards, and collaborated with ...": a past participle after a
 * comma goes on a perfect ("has won"), not a description of the subject ("is won"). The auxiliary, or null.
 */
export function perfectAux(main: readonly Tok[], verb: Tok): string | null {
  if (/ing$/.test(verb.lower)) return null;
  const k = main.findIndex((t, j) => t.pos === 'AUX' && ['has', 'have', 'had'].includes(t.lower) && main[j + 1]?.pos === 'VERB');
  return k >= 0 ? main[k]!.lower : null;
}

/**
 * A participle after a comma about a named person or he/she, when the main clause's verb is in the past tense.
 */
export function pastOfMain(op: { kind: string; head: number; skip?: string }, t: Tok, head: Tok | undefined, main: readonly Tok[]): boolean {
  // The tagger may read the -ing word as a noun ("..., ruling from 1155 to 1149 BC").
  const ing = isIngVerb(t) || (t.pos === 'NOUN' && /^[a-z]+ing$/.test(t.text) && !['being', 'having'].includes(t.lower));
  if (op.kind !== 'participle' || op.head !== -2 || op.skip !== undefined || !ing || head === undefined) return false;
  // A person did it, after a main clause in the past or the perfect ("has earned 32 caps for Argentina, scoring eight
  // goals" -> "Icardi scored eight goals.", not "Icardi is scoring eight goals."); a thing after a past one ("The song
  // ... became a worldwide hit, selling over 13 million copies" -> "The song sold over 13 million copies.").
  if (head.pos === 'PROPN' || ['he', 'she'].includes(head.lower)) return pastMain(main) || perfectMain(main);
  return head.pos === 'NOUN' && pastMain(main);
}

/** Whether the main clause's finite verb is a present perfect ("has also earned", "have been"). */
function perfectMain(main: readonly Tok[]): boolean {
  const k = main.findIndex((x) => x.text === x.lower && isFinite(x));
  if (k < 0 || !['has', 'have'].includes(main[k]!.lower)) return false;
  let j = k + 1;
  while (main[j]?.pos === 'ADV') j++;
  const v = main[j];
  return v !== undefined && (v.lower === 'been' || (v.pos === 'VERB' && (/ed$/.test(v.lower) || PARTICIPLES.has(v.lower))));
}

/** Whether the main clause's finite verb is in the past tense ("was", "had", "moved", "won"). */
export function pastMain(main: readonly Tok[]): boolean {
  const verb = main.find((x) => x.text === x.lower && isFinite(x));
  return verb !== undefined && (['was', 'were', 'had'].includes(verb.lower) || (verb.pos === 'VERB' && (/ed$/.test(verb.lower) || IRREGULAR_PAST.has(verb.lower))));
}

/**
 * "She began her acting career in the late 1940s, appearing in films such as ...", "Rami began his football career
 * playing for ...": an -ing phrase after a career's start is what the person did ("She appeared in films.", as the
 * annotators wrote it), not the career ("The career is appearing in films."). The main clause's subject (a name or
 * he/she/they, up to four words), or null.
 */
export function careerStarter(t: Tok, head: Tok | undefined, main: readonly Tok[]): string | null {
  if (!isIngVerb(t) || !['career', 'careers'].includes(head?.lower ?? '')) return null;
  const v = main.findIndex((x) => x.pos === 'VERB' && STARTED.has(x.lower));
  if (v < 1) return null;
  const from = main.slice(0, v).map((x) => x.text).lastIndexOf(',') + 1;
  const subject = main.slice(from, v).filter((x) => x.pos !== 'ADV');
  const first = subject[0];
  // A name, whatever the tagger read ("Ford/VERB began ..."), or a person's pronoun.
  if (first === undefined || subject.length > 4 || !((/^[A-Z]/.test(first.text) && first.pos !== 'DET') || ['he', 'she', 'they'].includes(first.lower))) return null;
  return textOf(subject);
}
const STARTED = new Set(['began', 'started', 'launched', 'commenced', 'kicked']);

/** "signed with Motown Records in 1993 and releasing her debut album": each "and -ing" in the past ("and released"). */
export function pastAfterAnd(toks: readonly Tok[]): Tok[] {
  return toks.map((x, k) => (k > 0 && toks[k - 1]!.lower === 'and' && isIngVerb(x) ? retext(x, pastOfIng(x.lower), pastOfIng(x.lower)) : x));
}

/**
 * "the Maori Council of Australia": the name ending at h, with "of", "for", "de" inside it.
 */
export function fullName(toks: readonly Tok[], h: number): string {
  let a = h;
  while (a > 0 && (/^[A-Z]/.test(toks[a - 1]!.text) && toks[a - 1]!.pos !== 'DET' || joinsName(toks, a - 1))) a--;
  return `${toks[a - 1]?.lower === 'the' ? 'the ' : ''}${textOf(toks.slice(a, h + 1))}`;
}

// A word inside a name between capitalised words: "Centre for X", "Arts and Culture", "Writers' Workshop"; not after
// a title in capitals ("founder and CEO of Carolina Portesi": the name is Carolina Portesi).
function joinsName(toks: readonly Tok[], k: number): boolean {
  const before = toks[k - 1]?.text ?? '';
  if (!/^[A-Z]/.test(before) || /^[A-Z]{2,}$/.test(before)) return false;
  return ['of', 'for', 'de', '&', 'and'].includes(toks[k]!.lower) || (toks[k]!.text === "'" && /s$/.test(before));
}

/**
 * The person pronoun that is all of a subject, adverbs aside ("He soon became one of the most sought-after engineers
 * in the genre, working with ...": the -ing phrase is his, not the engineers'), or undefined.
 */
export function lonePerson(before: readonly Tok[]): Tok | undefined {
  const words = before.filter((t) => t.pos !== 'ADV');
  const last = words[words.length - 1];
  if (last === undefined || !/^(?:he|she|they)$/.test(last.lower)) return undefined;
  // "In 2001 he joined McKinsey & Company, serving as an analyst": after a fronted phrase without its comma too.
  return words.length === 1 || (words.length <= 6 && words[0]!.pos === 'ADP' && words.slice(1, -1).every((t) => ['NUM', 'DET', 'NOUN', 'PROPN', 'ADJ'].includes(t.pos))) ? last : undefined;
}

/** An -ing verb other than "being" and "having". */
export const isIngVerb = (t: Tok | undefined): boolean => t !== undefined && t.pos === 'VERB' && /^[a-z]+ing$/.test(t.text) && !['being', 'having'].includes(t.lower);

/**
 * "Born on 4 May 1984 in Rio de Janeiro, Brazil, Fernando started ...": a fronted past participle is about the
 * subject after its last comma ("Fernando was born on 4 May 1984 in Rio de Janeiro, Brazil."). Null when the
 * sentence does not open with one.
 */
const NOT_SUBJECTS_ING = new Set(['looking', 'judging', 'considering', 'according', 'following', 'including', 'during', 'speaking',
  'assuming', 'regarding', 'concerning', 'depending', 'taking', 'seeing', 'noting', 'comparing', 'observing', 'examining', 'given']);

export function frontedParticiple(toks: readonly Tok[]): { part: { text: string; start: number; end: number }; rest: Tok[]; front?: readonly Tok[] } | null {
  const first = toks[0];
  // "After graduating from Yale, he joined ...": the same, in the past tense ("He graduated from Yale.").
  const when = first !== undefined && /^(?:After|Before)$/.test(first.text) && isIngVerb(toks[1]);
  const t = when ? toks[1] : first;
  // Not a participle used as a preposition: "Based on the image, the dog ..." ("The dog is based on the image.").
  // "Sitting on the couch, the cat is sleeping": a present participle too ("The cat is sitting on the couch."), not the
  // narrator's ("Looking at the image, ...") nor one used as a preposition ("According to ...", "Following the war").
  // The tagger may read a capitalised -ing word as a noun ("Standing on the pier"): a known verb's before a phrase is
  // the verb ("Morning in the city" is no verb).
  const base = t?.lower.replace(/ing$/, '') ?? '';
  const known = BASE_VERBS.has(base) || BASE_VERBS.has(`${base}e`) || BASE_VERBS.has(base.replace(/(.)\1$/, '$1'));
  const ing = t !== undefined && !when && /^[A-Z][a-z]+ing$/.test(t.text) && !NOT_SUBJECTS_ING.has(t.lower)
    && (t.pos === 'VERB' || (known && ['ADP', 'DET'].includes(toks[1]?.pos ?? '')));
  if (t === undefined || !(when || ing || (/^[A-Z][a-z]+$/.test(t.text) && !/^(?:Based|Given|Compared)$/.test(t.text) && (PARTICIPLES.has(t.lower) || (t.pos === 'VERB' && /ed$/.test(t.lower)))))) return null;
  const f = toks.findIndex((x, k) => k > 1 && x.text === x.lower && isFinite(x) && !isComma(toks[k - 1]));
  let comma = -1;
  for (let k = 1; k < f; k++) if (isComma(toks[k])) comma = k;
  const subject = toks.slice(comma + 1, f);
  if (f < 0 || comma < 2 || subject.length === 0 || subject.length > 4 || !['PROPN', 'PRON', 'DET'].includes(subject[0]!.pos)) return null;
  if (ing && ['there', 'it', 'this', 'that', 'i', 'we', 'you', 'one'].includes(subject[0]!.lower)) return null;
  const plural = subject.some((x) => pluralHead(x));
  const be = PAST_ONLY.has(t.lower) ? (plural ? 'were' : 'was') : plural ? 'are' : 'is';
  const who = textOf(subject);
  const verb = when ? pastOfIng(t.lower) : `${be} ${t.lower}`;
  const text = `${who.charAt(0).toUpperCase()}${who.slice(1)} ${verb} ${textOf(toks.slice(when ? 2 : 1, comma))}`;
  return { part: { text, start: first!.start, end: toks[comma - 1]!.end }, rest: toks.slice(comma + 1), front: when ? toks.slice(0, comma) : undefined };
}

/**
 * "Continuum Analytics, a Python-based data science platform", "Proceso, one of Mexico's foremost media outlets": a
 * name, a comma and a noun phrase that says what the name is ("Proceso is one of ..."), up to the next comma or the
 * end, with no verb or list in it.
 */
export function isApposition(toks: readonly Tok[], i: number): boolean {
  const name = toks[i - 2];
  const t = toks[i]!;
  if (name?.pos !== 'PROPN' || !/^[A-Z]/.test(name.text) || !(['a', 'an'].includes(t.lower) || (t.lower === 'one' && toks[i + 1]?.lower === 'of'))) return false;
  let k = i + 1;
  for (; k < toks.length && toks[k]!.text !== '.'; k++) {
    const w = toks[k]!;
    // "a luxury fashion house in Milan, Italy.": a place's country before the end is still the apposition's.
    if (isComma(w) && !placeToEnd(toks, k + 1)) break;
    if (RELATIVES.has(w.lower) && k > i + 1) break; // "a non-profit organization that represents ...": a part of its own
    // "a literary agency and publisher": one thing's two kinds, not a list that goes on with a name or determiner.
    const joinsKinds = w.pos === 'CCONJ' && ['NOUN', 'ADJ'].includes(toks[k + 1]?.pos ?? '');
    if ((w.pos === 'CCONJ' && !joinsKinds) || w.pos === 'AUX' || (w.pos === 'VERB' && !/(?:ed|ing)$/.test(w.lower)) || w.text === '(') return false;
  }
  // At the end, or before a part of its own ("..., which ...", "..., based in ..."): where the main clause goes on
  // after it ("hired by Union Products, a small company, to create ..."), the clause needs it.
  const after = toks[k + 1];
  const ends = !isComma(toks[k]) || after === undefined || RELATIVES.has(after.lower) || after.lower === 'where' || isParticipleForm(after);
  return ends && k - i <= 12;
}

// Names only from j to the sentence's end ("Italy.", "New York City."), as a place's country or state.
function placeToEnd(toks: readonly Tok[], j: number): boolean {
  let k = j;
  while (toks[k]?.pos === 'PROPN' && /^[A-Z]/.test(toks[k]!.text)) k++;
  return k > j && k <= j + 3 && (k === toks.length || (toks[k]!.text === '.' && k === toks.length - 1));
}

/**
 * "In addition to his music career, Ben has had ...", "Aside from her work as a journalist, she ...": the fronted
 * phrase says a fact of its own about the subject after its comma ("Ben has a music career.", "She has worked as a
 * journalist."), as FActScore's annotators wrote it. Null for any other opening.
 */
export function frontedBesides(toks: readonly Tok[]): { part: { text: string; start: number; end: number }; rest: Tok[] } | null {
  const lead = /^(?:In addition to|Aside from|Apart from|Outside of|Besides) (?:his|her|their) /.exec(toks.slice(0, 5).map((t) => t.text).join(' '));
  if (lead === null) return null;
  const comma = toks.findIndex((t) => isComma(t));
  const f = toks.findIndex((x, k) => k > comma && x.text === x.lower && isFinite(x));
  // "Fischer also invented ...": the adverb is not the subject's.
  const subject = toks.slice(comma + 1, f).filter((t) => t.pos !== 'ADV');
  if (comma < 0 || f < 0 || subject.length === 0 || subject.length > 4 || !['PROPN', 'PRON'].includes(subject[0]!.pos)) return null;
  const n = lead[0].trim().split(' ').length;
  const what = textOf(toks.slice(n, comma));
  const who = textOf(subject);
  const plural = subject.some((x) => pluralHead(x)) || who.toLowerCase() === 'they';
  const career = /^([\w' -]+?) careers?$/.exec(what);
  const work = /^work (as|in|on|with) (.+)$/.exec(what);
  // "In addition to her writing and editing, she ...": the activities' doers ("She is a writer.", "... an editor.").
  const doers = /^[a-z]+ing(?: and [a-z]+ing)?$/.test(what) ? what.split(' and ').map((w) => DOERS[w]) : [];
  const past = /^(?:was|were|had)$|ed$/.test(toks[f]!.lower);
  const an = (x: string): string => `${/^[aeiou]/i.test(x) ? 'an' : 'a'} ${x}`;
  let fact: string;
  // "her film and modeling career": a career in each ("Julia has a film career.", "Julia has a modeling career.").
  if (career !== null) fact = `${plural ? 'have' : 'has'} ${career[1]!.split(' and ').map((x) => an(`${x} career`)).join(' and ')}`;
  else if (work !== null) fact = `${plural ? 'have' : 'has'} worked ${work[1]} ${work[2]}`;
  else if (doers.length > 0 && doers.every((d) => d !== undefined) && !plural) {
    fact = `${past ? 'was' : 'is'} ${doers.map((d) => an(d === 'actor' && lead[0].includes(' her ') ? 'actress' : d!)).join(' and ')}`;
  } else return null;
  return { part: { text: `${who.charAt(0).toUpperCase()}${who.slice(1)} ${fact}`, start: toks[0]!.start, end: toks[comma - 1]!.end }, rest: toks.slice(comma + 1) };
}

/**
 * "As a member of the House of Lords, she is a member of the Labour Party", "As a writer, Arbore was known for ...":
 * the role is a fact of the subject after the comma ("She is a member of the House of Lords.", "Arbore was a
 * writer."), as the annotators wrote all six such sentences of the dev biographies; the clause goes on without it.
 */
export function frontedAs(toks: readonly Tok[]): { part: { text: string; start: number; end: number }; rest: Tok[] } | null {
  if (toks[0]?.lower !== 'as' || !['a', 'an'].includes(toks[1]?.lower ?? '')) return null;
  const comma = toks.findIndex((t) => isComma(t));
  if (comma < 3 || comma > 12 || toks.slice(2, comma).some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON')) return null;
  // "As an amateur, he was a British champion", "As a child, ...": a stage of life dates the fact, it is none itself.
  if (STAGES.test(toks[comma - 1]!.lower)) return null;
  const f = toks.findIndex((x, k) => k > comma && isFinite(x));
  const subject = toks.slice(comma + 1, f);
  if (f < 0 || subject.length === 0 || subject.length > 4 || !['PROPN', 'PRON'].includes(subject[0]!.pos) || subject.some((t) => t.pos === 'ADV')) return null;
  const who = textOf(subject);
  const plural = subject.some((x) => pluralHead(x)) || who.toLowerCase() === 'they';
  const past = /^(?:was|were|had)$|ed$/.test(toks[f]!.lower);
  const be = past ? (plural ? 'were' : 'was') : plural ? 'are' : 'is';
  return { part: { text: `${who.charAt(0).toUpperCase()}${who.slice(1)} ${be} ${textOf(toks.slice(1, comma))}`, start: toks[0]!.start, end: toks[comma - 1]!.end }, rest: toks.slice(comma + 1) };
}

const STAGES = /^(?:amateur|professional|child|boy|girl|kid|baby|teen|teenager|youth|youngster|student|junior|senior|rookie|adult|man|woman)$/;

// The doer of an activity a fronted "In addition to his writing" names.
const DOERS: Record<string, string | undefined> = {
  writing: 'writer', editing: 'editor', filmmaking: 'filmmaker', acting: 'actor', singing: 'singer', teaching: 'teacher',
  directing: 'director', producing: 'producer', painting: 'painter', modeling: 'model', modelling: 'model', coaching: 'coach',
  songwriting: 'songwriter', broadcasting: 'broadcaster', composing: 'composer', dancing: 'dancer', photographing: 'photographer',
};

// "various luggage items, including suitcases, backpacks, and other bags, which are neatly arranged": a relative
// after a list of examples is about their category ("the luggage items"), not the last example. Null when no such
// list precedes it.
export function listCategory(toks: readonly Tok[], i: number): number | null {
  if (!isComma(toks[i - 1])) return null;
  for (let j = i - 2; j > 0 && j > i - 20; j--) {
    const t = toks[j]!;
    const such = t.lower === 'as' && toks[j - 1]?.lower === 'such';
    if (t.lower === 'including' || such) {
      let k = such ? j - 2 : j - 1;
      if (isComma(toks[k])) k--;
      // Names listed ("including Tibet, which was later adapted") are each a thing of their own; and the verb must
      // agree with the category ("the charities, including X Foundation, which provides" is about the foundation).
      const verb = toks[i + 1]?.lower ?? '';
      const plural = ['are', 'were', 'have'].includes(verb) ? true : ['is', 'was', 'has'].includes(verb) || /[^s]s$/.test(verb) ? false : null;
      const cat = toks[k];
      if (!cat || cat.pos !== 'NOUN' || toks[i - 2]?.pos !== 'NOUN' || (plural !== null && plural !== pluralHead(cat))) return null;
      return k;
    }
    if (t.pos === 'AUX' || t.pos === 'VERB' || RELATIVES.has(t.lower)) return null;
  }
  return null;
}
