/**
 * "Beenie Man, born Anthony Moses Davis on August 22, 1973, is a Jamaican reggae and dancehall artist.", "Taylor's
 * debut album, released in 1968, was a commercial success.", "The dog, lying on the floor, is brown.": a participle
 * phrase between the subject and its verb, in commas. The whole sentence gave no claim ("no finite verb") or one long
 * one; the phrase is now a fact of the subject as the sentence words it ("Beenie Man was born Anthony Moses Davis on
 * August 22, 1973.", "Taylor's debut album was released in 1968.").
 */
import { isFinite } from './person-clauses.js';
import type { Tok } from './nlp.js';
import { NOUNISH } from './noun-phrase.js';

/**
 * The participle at `i` (after a comma) follows a subject noun phrase that has no verb yet (`main`), and the verb
 * follows a later comma within 16 tokens.
 */
export function apposedBeforeVerb(toks: readonly Tok[], i: number, main: readonly Tok[]): boolean {
  const head = main[main.length - 1];
  if (head === undefined || !NOUNISH.has(head.pos) || /ing$/.test(main[0]!.lower)) return false;
  for (let j = i + 1; j < toks.length - 1 && j < i + 16; j++) {
    if (toks[j]!.text === ',' && (toks[j + 1]!.pos === 'AUX' || toks[j + 1]!.pos === 'VERB') && isFinite(toks[j + 1]!)) return true;
  }
  return false;
}

const CLAUSE_WORDS = new Set(['which', 'who', 'whom', 'whose', 'that', 'where', 'when', 'while', 'as', 'because', 'since', 'until']);

/**
 * "... indicating that the person using the desk is reading or studying": a participle phrase inside a subject, whose
 * clause's auxiliary follows before any comma or verb (within 10 tokens). Opening a part there gave "The person is
 * using the desk is reading or studying.".
 */
export function auxAhead(toks: readonly Tok[], i: number): boolean {
  for (let j = i + 1; j < toks.length && j < i + 10; j++) {
    const t = toks[j]!;
    // A clause of its own starts: the auxiliary after it is that clause's ("titled X which was published").
    if (t.text === ',' || t.pos === 'VERB' || t.pos === 'SCONJ' || t.pos === 'CCONJ' || CLAUSE_WORDS.has(t.lower)) return false;
    if (t.pos === 'AUX' && isFinite(t)) return true;
  }
  return false;
}

// "spent most of her youth living near Concord", "spends his time writing": the -ing phrase after time spent is what
// the subject did then, one fact with the main clause ("Katsu spent most of her youth living near Concord."), not
// the time's ("Her youth is living near Concord.").
const SPEND = new Set(['spend', 'spends', 'spent', 'spending']);
const TIME = /^(?:youth|childhood|years?|time|life|days?|months?|weeks?|summers?|decades?|hours?|evenings?|career|adolescence|teens|twenties|thirties|retirement)$/;

/** The -ing word at `i` follows a time the clause spends (within six tokens of "spend"). */
export function spentTime(toks: readonly Tok[], i: number): boolean {
  if (!/ing$/.test(toks[i]!.lower) || !TIME.test(toks[i - 1]?.lower ?? '')) return false;
  for (let j = i - 2; j >= 0 && j >= i - 7; j--) if (SPEND.has(toks[j]!.lower)) return true;
  return false;
}

// Words that open a clause whose subject may follow them at once.
const CLAUSE_OPENERS = new Set(['where', 'until', 'that', 'when', 'whenever', 'because', 'since', 'after', 'before', 'while', 'if', 'unless', 'once', 'whereas', 'although', 'though']);
const NOUN_PHRASE = new Set(['DET', 'PRON', 'ADJ', 'NOUN', 'PROPN', 'NUM']);

/**
 * "where his mother worked as ...", "until his family moved to ...", "that da Vinci worked on ...": an -ed word after a
 * noun phrase that a clause word opens is that clause's verb, not a participle of the noun ("His mother is worked as
 * a member of the city council." had been the claim).
 */
export function verbOfClause(toks: readonly Tok[], i: number): boolean {
  if (!/ed$/.test(toks[i]!.lower)) return false;
  let j = i - 1;
  while (j >= 0 && j > i - 6 && NOUN_PHRASE.has(toks[j]!.pos) && !CLAUSE_OPENERS.has(toks[j]!.lower)) j--;
  if (j < 0 || j >= i - 1 || !CLAUSE_OPENERS.has(toks[j]!.lower)) return false;
  // "where a character named Simba holds ...": a finite verb later in the clause leaves the -ed word a participle.
  for (let k = i + 1; k < toks.length && toks[k]!.text !== ','; k++) {
    // "erupted and collapsed on itself", "lived before joining the army": a second verb the clause parts would give
    // the main clause's subject; the participle reading keeps the clause's own.
    if (/^(?:and|or|before|after)$/.test(toks[k]!.lower) && (toks[k + 1]?.pos === 'VERB' || /ing$/.test(toks[k + 1]?.lower ?? ''))) return false;
    if (CLAUSE_OPENERS.has(toks[k]!.lower)) break;
    if ((toks[k]!.pos === 'VERB' || toks[k]!.pos === 'AUX') && isFinite(toks[k]!) && !/ed$/.test(toks[k]!.lower)) return false;
  }
  return true;
}

/** A clause opens after the clause word at `i`: a short noun phrase, then its -ed verb (verbOfClause). */
export function edClauseAfter(toks: readonly Tok[], i: number): boolean {
  // "appeared in A where she played X, B where she played Y, and many others": a list of such items stays whole.
  if (toks.some((t, k) => k !== i && t.lower === toks[i]!.lower)) return false;
  for (let k = i + 2; k < toks.length && k < i + 7; k++) {
    if (/ed$/.test(toks[k]!.lower)) return verbOfClause(toks, k);
    if (!NOUN_PHRASE.has(toks[k]!.pos)) return false;
  }
  return false;
}
