// Time and place in clause parts (clauses.ts): a time clause after the main clause is a fact of its own, at the main
// clause's time; a "where" clause happens at its named place; a past participle dated by a year happened then.
import type { Tok } from './nlp.js';
import { isComma } from './noun-phrase.js';
import { isFinite } from './person-clauses.js';

/**
 * "Lummis rose to fame in 2004 when he won the first series of ...": what happened then is a fact of its own, as the
 * annotators wrote it ("He won the first series of ..."). Does a "when" at i open such a clause? Its subject is a
 * person's pronoun, or a determiner after a comma ("..., when the bank was sold"); not after a bare verb ("began
 * when ...", which says nothing without it), nor an age or a stage ("when she was six years old", "when he was already
 * married"): that says when, not what. The caller checks that a clause with its own finite verb starts at i + 1.
 */
export function opensWhen(toks: readonly Tok[], i: number, afterComma: boolean): boolean {
  const next = toks[i + 1];
  if (toks[i]?.lower !== 'when' || i <= 2 || next === undefined || ['VERB', 'AUX'].includes(toks[i - 1]?.pos ?? '')) return false;
  if (!['he', 'she', 'they'].includes(next.lower) && !(afterComma && next.pos === 'DET')) return false;
  return !stateAt(toks, i + 1);
}

// A "be" that is not a passive after the subject at j ("she was only six years old", "he was in fifth grade").
function stateAt(toks: readonly Tok[], j: number): boolean {
  let k = j + 1;
  while (k < toks.length && k < j + 4 && !['was', 'were', 'is', 'are'].includes(toks[k]!.lower)) k++;
  if (k >= toks.length || k >= j + 4) return false;
  k++;
  if (['already', 'still'].includes(toks[k]?.lower ?? '')) return true;
  while (['only', 'just', 'about', 'around', 'barely'].includes(toks[k]?.lower ?? '')) k++;
  return toks[k]?.pos !== 'VERB';
}

/**
 * The year a main clause ends with ("rose to fame in 2004", "continued ... until 1957"), as a phrase for the time
 * clause after it: "Rami signed with Lille in 2004.", "Faye retired from acting in 1957.". Empty when none.
 */
export function yearOfMain(main: readonly Tok[]): string {
  let k = main.length;
  while (k > 0 && /^[,;]$/.test(main[k - 1]!.text)) k--;
  const year = main[k - 1];
  const prep = main[k - 2]?.lower ?? '';
  return year !== undefined && /^(?:1[5-9]|20)\d\d$/.test(year.text) && ['in', 'until'].includes(prep) ? `in ${year.text}` : '';
}

/**
 * "moved to FC Porto in 2006, where he won the UEFA Cup", "went into exile in Europe, where he died in 1904": the
 * named place before ", where" (at i), as a phrase for the clause ("He won the UEFA Cup at FC Porto.", "He died in
 * 1904 in Europe."), as the annotators wrote it; "in" where the text said "in" and for a town after "of", "from" or
 * "near" ("the city of Fréjus where"), "at" otherwise. The comma may be missing ("from Łódź where his parents
 * married"). A year after the name ("joined AC Milan in 2015, where ...") is skipped. Empty when no name ends there.
 */
const INSTITUTION = /\b(?:Club|University|College|School|Academy|Institute|Hospital|Stadium|Arena|Theat(?:re|er)|Church|Hall|Cent(?:er|re)|Studios?|Company|Festival|Museum|Library|Prison|Base|Camp)\b/;

export function placeBefore(toks: readonly Tok[], i: number): string {
  // "in Granite, Oklahoma, where he died", or with no comma ("from Łódź where his parents married").
  let e = toks[i - 1]?.text === ',' ? i - 1 : i;
  if (/^(?:1[5-9]|20)\d\d$/.test(toks[e - 1]?.text ?? '') && toks[e - 2]?.lower === 'in') e -= 2;
  let b = e;
  const name = (t: Tok | undefined): boolean => t !== undefined && /^[\p{Lu}0-9]/u.test(t.text) && t.pos !== 'PRON';
  // "Lady Shri Ram College for Women", and a town with its state in commas ("Granite, Oklahoma where ...").
  while (b > 0 && b > e - 8 && (name(toks[b - 1]) || ((['of', 'de', '&', 'for'].includes(toks[b - 1]!.lower) || (toks[b - 1]!.text === ',' && e === i)) && name(toks[b - 2])))) b--;
  if (b === e || !name(toks[b]) || !/^\p{Lu}/u.test(toks[b]!.text)) return '';
  const the = toks[b - 1]?.lower === 'the' ? 'the ' : '';
  const prep = toks[b - 1 - (the ? 1 : 0)];
  if (prep === undefined || prep.text === ',' || ['and', 'or'].includes(prep.lower)) return '';
  const place = toks.slice(b, e).map((t, k) => (k > 0 && t.space !== '' ? ' ' : '') + t.text).join('');
  // A town is "in" ("the city of Fréjus where" -> "In Fréjus, ..."); an institution, or a place after "at", is "at".
  const at = prep.lower === 'at' || (prep.lower !== 'in' && (!['of', 'from', 'near'].includes(prep.lower) || INSTITUTION.test(place)));
  return `${at ? 'at' : 'in'} ${the}${place}`;
}

/**
 * "He spent four seasons in the minor leagues before making his MLB debut in 2016": who did what came before or after
 * is the main clause's subject, and a person's pronoun there is that subject ("He made his MLB debut in 2016.", not
 * "The next four seasons made ..."). The pronoun, or null when the main clause's subject is no such pronoun.
 */
export function pronounSubject(main: readonly Tok[]): string | null {
  const comma = ['ADP', 'SCONJ', 'ADV'].includes(main[0]?.pos ?? '') ? main.findIndex((t) => t.text === ',') : -1;
  const first = main[comma + 1];
  return first?.pos === 'PRON' && ['he', 'she', 'they'].includes(first.lower) && main[comma + 2]?.pos !== 'PUNCT' ? first.lower : null;
}

/**
 * "Focus, formed in 1969 by ...", "Con Pasión, released in 2003": a past participle dated by a year happened then
 * ("Focus was formed in 1969."), not "is formed". The prefix of a participle part, in the past when so dated.
 */
export function datedPast(kind: string, toks: readonly Tok[], prefix: string, body: string): string {
  const verb = toks[0];
  if (kind !== 'participle' || verb?.pos !== 'VERB' || !/(?:ed|en|wn)$/.test(verb.lower) || !DATED.test(body)) return prefix;
  return prefix.replace(/ is$/, ' was').replace(/ are$/, ' were');
}
const DATED = /\b(?:in|on)\s+(?:[A-Z]?[a-z]+\s+){0,2}(?:\d{1,2},?\s+)?(?:1[5-9]|20)\d\d\b/;

// "After One Direction went on hiatus in 2016, Payne launched ...": the finite verb read so far is the fronted
// clause's, so "launched" right after the subject is the main verb, not a participle ("Payne is launched ...").
const FRONTED = new Set(['after', 'before', 'when', 'once', 'since', 'until', 'while', 'although', 'though', 'because', 'if', 'despite']);
export function fronted(main: readonly Tok[]): boolean {
  if (!FRONTED.has(main[0]?.lower ?? '')) return false;
  const comma = main.findIndex(isComma);
  return comma > 0 && !main.slice(comma + 1).some((m) => isFinite(m));
}
