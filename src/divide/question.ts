/** Turn one declarative claim into a yes/no question, keeping tense and every negation word. */
import { analyzeClause } from './clause.js';
import { AUX_ADVERBS, DETERMINERS, IRREGULAR_PAST, isVerbWord, NOT_PAST_ED, PRONOUNS } from './lexicon.js';
import { capitalize, stripTrailingPunct, type Token } from './text.js';
import { isParticipleAt } from './verbs.js';

const OBJECT_PRONOUNS = new Set(['it', 'them', 'him', 'her', 'us', 'me', 'you', 'this', 'that', 'something', 'nothing']);
const DO_FOR_HAVE: Record<string, string> = { has: 'Does', have: 'Do', had: 'Did' };

let names: ReadonlySet<string> = new Set();

/**
 * The single-word names of the answer being divided ("Santana", "Hacker"), as the tagger read them there; the
 * divider sets them for its run and clears them after, as it does its verb hints.
 */
export function setNameHints(words: ReadonlySet<string>): void {
  names = words;
}

// Function words are safe to lower-case; a capitalised content word may be a name, so it is left alone
// when the next word is capitalised too ("New York is ...") or the answer's tagger read it as a name ("Has Santana
// ...", not "Has santana ...").
function lowerLead(tokens: readonly Token[]): string[] {
  const raws = tokens.map((t) => t.raw);
  const first = raws[0];
  // "Shue's role as ...": a name's possessive is the name too.
  const bare = first?.replace(/[^\p{L}\p{N}'’.-]+$/u, '').replace(/['’]s$/, '');
  if (first === undefined || names.has(bare ?? '')) return raws;
  const word = tokens[0]?.word ?? '';
  const functionWord = DETERMINERS.has(word) || PRONOUNS.has(word);
  const acronym = /^[A-Z]{2,}\b/.test(first) || /^.+[A-Z]/.test(first.replace(/[^A-Za-z]+$/, ''));
  const name = /^[A-Z]/.test(raws[1] ?? '');
  if (first === 'I' || /^I'/.test(first) || (!functionWord && (acronym || name))) return raws;
  raws[0] = first.charAt(0).toLowerCase() + first.slice(1);
  return raws;
}

// After has/have/had, a participle makes a perfect ("has eaten"); otherwise it is possession.
function isPerfect(rest: readonly Token[], subject: readonly Token[]): boolean {
  let j = 0;
  while (j < rest.length && (AUX_ADVERBS.has(rest[j]?.word ?? '') || /^[a-z]{3,}ly$/.test(rest[j]?.word ?? ''))) j++;
  // "has also directed episodes": an adverb between makes the -ed word a participle, whatever follows.
  if (isParticipleAt(rest, j) || (j > 0 && /ed$/.test(rest[j]?.word ?? ''))) return true;
  // "Varma has directed films across ...": a person named by a name does things; a thing "has curved edges".
  const named = subject.length > 0 && subject.every((t) => /^\p{Lu}/u.test(t.raw)) && !DETERMINERS.has(subject[0]!.word) && !PRONOUNS.has(subject[0]!.word);
  // So does a body ("the BBC has covered major events", "the band has released albums"), named or not.
  const head = subject[subject.length - 1];
  const body = head !== undefined && (ORGANIZATIONS.has(head.word) || /^[A-Z]{2,}$/.test(head.raw));
  return (named || body) && /^[a-z]{4,}ed$/.test(rest[j]?.raw ?? '') && !NOT_PAST_ED.has(rest[j]!.word);
}

const ORGANIZATIONS = new Set(`company band group team club organization organisation party government university
  school foundation network station channel studio label firm agency museum institute council committee league
  federation association union newspaper magazine orchestra choir army navy ministry court parliament`.split(/\s+/));

// After do/does/did, a bare verb or "not" makes it an auxiliary; an object makes it the verb "do".
function isMainDo(rest: readonly Token[]): boolean {
  const next = rest[0]?.word;
  if (next === undefined || AUX_ADVERBS.has(next) || isVerbWord(next)) return false;
  return DETERMINERS.has(next) || OBJECT_PRONOUNS.has(next);
}

const TAIL_OPENERS = /^(?:in|on|at|by|for|from|with|during|after|before|following|since|until|upon|throughout|over|under|as|when|while|once|despite|between|within|without|across|around|into|near|among|like|of|to)$/;

// "co-wrote", "co-led": a "co-" before an irregular past the verb rules do not read (they would split "co-wrote,
// co-directed and co-starred in X" on it).
const CO_PAST = /\bco-([a-z]+)\b/;

/** Turn a declarative claim into a yes/no question, or null when no finite verb is found. */
export function claimToQuestion(claim: string): string | null {
  const q = questionOf(claim);
  const co = q === null && typeof claim === 'string' ? CO_PAST.exec(claim) : null;
  const base = co === null ? undefined : IRREGULAR_PAST.get(co[1]!);
  if (co === null || base === undefined) return q;
  // "He co-wrote La Raulito ..." is asked as "He wrote La Raulito ...", with the "co-" put back on its verb.
  const plain = questionOf(claim.replace(co[0], co[1]!));
  const verb = new RegExp(String.raw`\b${base}\b`);
  return plain === null || !verb.test(plain) ? null : plain.replace(verb, `co-${base}`);
}

function questionOf(claim: string): string | null {
  if (typeof claim !== 'string' || /\?\s*$/.test(claim)) return null;
  const clause = analyzeClause(claim);
  if (!clause || clause.verb.fromRelative) return null;
  const { verb } = clause;
  let subject = clause.subject;
  let rest = clause.rest;
  let tail = clause.intro;
  if (clause.locative) {
    subject = clause.rest;
    rest = clause.rest.slice(0, 0); // empty, with the tokens' elements kind (V8 map), not a literal []
    tail = clause.subject;
  }
  // "There is." or "The man can." states nothing: an auxiliary needs a complement.
  if (subject.length === 0 || (verb.kind === 'aux' && rest.length === 0 && !clause.locative)) return null;
  let head: string[];
  if (verb.kind === 'main') {
    head = [verb.doWord, ...lowerLead(subject), verb.base];
  } else if (DO_FOR_HAVE[verb.word] !== undefined && !isPerfect(rest, subject)) {
    head = [DO_FOR_HAVE[verb.word] ?? 'Does', ...lowerLead(subject), 'have'];
  } else if (['do', 'does', 'did'].includes(verb.word) && isMainDo(rest)) {
    head = [capitalize(verb.word), ...lowerLead(subject), 'do'];
  } else {
    head = [capitalize(verb.word), ...lowerLead(subject)];
  }
  const parts = [...head, ...rest.map((t) => t.raw)];
  // A fronted phrase moved to the end opens with a preposition, lower-cased there even before a name ("... In
  // December of 2005?" was asked).
  const tailWords = lowerLead(tail);
  if (tailWords[0] !== undefined && TAIL_OPENERS.test(tail[0]!.word)) tailWords[0] = tailWords[0].charAt(0).toLowerCase() + tailWords[0].slice(1);
  const tailText = stripTrailingPunct(tailWords.join(' ')).replace(/,(["\u201d])$/, '$1');
  const body = stripTrailingPunct(parts.join(' ')) + (tailText ? ` ${tailText}` : '');
  return `${capitalize(body)}?`;
}
