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
