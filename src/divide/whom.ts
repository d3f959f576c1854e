// "married to Mark Webber, with whom she has three children" -> "She has three children with Mark Webber.";
// "married to actress Calista Flockhart, whom he met at the Golden Globe Awards" -> "He met Calista Flockhart at the
// Golden Globe Awards.": a relative clause on "whom" says its own fact, the antecedent in the place "whom" stands for.
// Without this, ", with whom ..." was read as a ", with" phrase ("There is whom she has three children.").
import type { Tok } from './nlp.js';
import { isComma, textOf } from './noun-phrase.js';
import { isFinite } from './person-clauses.js';

const WHOM_PREPOSITIONS = new Set(['with', 'to', 'for', 'from', 'by', 'alongside']);

/**
 * Does a "whom" clause open at token i (", with whom", ", whom", "whom")? The preposition ('' for none), the tokens it
 * takes, and for ", which" the named antecedent.
 */
export function whomAt(toks: readonly Tok[], i: number): { prep: string; consume: number; antecedent?: string } | null {
  const t = toks[i];
  // The antecedent right before it, a name or a noun ("Tom Brady from 2004 to 2006, with whom" names none).
  const before = toks[isComma(toks[i - 1]) ? i - 2 : i - 1];
  if (t === undefined || i === 0 || !['NOUN', 'PROPN'].includes(before?.pos ?? '')) return null;
  if (t.lower === 'whom') return clauseAfter(toks, i + 1) ? { prep: '', consume: 1 } : null;
  if (WHOM_PREPOSITIONS.has(t.lower) && toks[i + 1]?.lower === 'whom' && clauseAfter(toks, i + 2)) return { prep: t.lower, consume: 2 };
  // After a comma, "which" with a pronoun subject is the same ("the metal band Sepultura, which he joined in 1987" ->
  // "He joined Sepultura in 1987."; "the 2002 film City of God, for which he won two awards ..."). A "which" with
  // its own verb next is a subject relative (clauses.ts).
  // Only after a name that follows its kind ("the rock band The Living End", "club Troyes"), which the clause is about.
  const which = t.lower === 'which' ? 1 : WHICH_PREPOSITIONS.has(t.lower) && toks[i + 1]?.lower === 'which' ? 2 : 0;
  if (which === 0 || !isComma(toks[i - 1]) || !pronounClause(toks, i + which)) return null;
  const name = namedAfterKind(toks, i - 1);
  return name === null ? null : { prep: which === 2 ? t.lower : '', consume: which, antecedent: name };
}

const WHICH_PREPOSITIONS = new Set(['for', 'in', 'with', 'at', 'on']);

// The name ending right before token c after a lower-case noun ("the metal band Sepultura" -> "Sepultura"); null if none.
function namedAfterKind(toks: readonly Tok[], c: number): string | null {
  let b = c;
  while (b > 0 && (/^[A-Z0-9]/.test(toks[b - 1]!.text) || (['of', 'the', '&'].includes(toks[b - 1]!.lower) && /^[A-Z]/.test(toks[b]?.text ?? '')))) b--;
  const kind = toks[b - 1];
  return b < c && kind !== undefined && kind.pos === 'NOUN' && kind.text === kind.lower ? textOf(toks.slice(b, c)) : null;
}

// A person's pronoun and a finite verb after "which" ("he joined", "she won"), not one that takes "to" ("he used to
// launch": the antecedent would go in the wrong place).
function pronounClause(toks: readonly Tok[], j: number): boolean {
  return ['he', 'she', 'they'].includes(toks[j]?.lower ?? '') && toks[j + 1] !== undefined && isFinite(toks[j + 1]!) && toks[j + 2]?.lower !== 'to';
}

// A subject and its finite verb right after "whom": "she has", "he had been dating".
function clauseAfter(toks: readonly Tok[], j: number): boolean {
  return ['PRON', 'PROPN'].includes(toks[j]?.pos ?? '') && toks[j + 1] !== undefined && isFinite(toks[j + 1]!);
}

/** The clause's statement with the antecedent put back: after the verb group, or at the end after its preposition. */
export function whomBody(toks: readonly Tok[], antecedent: string, prep: string): string {
  // Up to the first comma (", and then to Amy Robach in 2010" belongs to the sentence's main clause) or citation mark.
  const cut = toks.findIndex((t) => isComma(t) || t.text === '[');
  const own = cut > 0 ? toks.slice(0, cut) : [...toks];
  while (own.length > 0 && own[own.length - 1]!.pos === 'PUNCT') own.pop();
  if (prep !== '') return `${textOf(own)} ${prep} ${antecedent}`;
  let v = 1;
  while (['AUX', 'VERB', 'PART'].includes(own[v + 1]?.pos ?? '') || (own[v + 1]?.pos === 'ADV' && own[v + 2]?.pos === 'VERB')) v++;
  return `${textOf(own.slice(0, v + 1))} ${antecedent} ${textOf(own.slice(v + 1))}`.trim();
}
