/**
 * "Alfonso received a Master of Fine Arts in painting from the University of Miami in 1980.": the year of an event
 * is a fact of its own with the verb and its object ("Alfonso received a Master of Fine Arts in 1980."), and the
 * claim goes on without it, as FActScore's annotators wrote it ("He received his Ph.D. in 2001.", "She received the
 * MBE in 2018.").
 */
import { plainClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES, BE_FORMS, DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { LONG_CLAIM_WORDS, spaceWords } from './long.js';

// " in 1980", " in October 2002", " in the 1950s" inside a claim, with what goes on after it.
const IN_YEAR = /^(.+?) in ((?:the )?(?:(?:January|February|March|April|May|June|July|August|September|October|November|December) )?(?:1[5-9]|20)\d\ds?)\b(.*)\.$/;

const LONG = 12;
const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
const DATE_END = new RegExp(String.raw`^(.+?) ((?:on ${MONTH} \d{1,2}, |since (?:${MONTH} )?)(?:1[5-9]|20)\d\d)\.$`);

/** The claim without its year and the verb with its object in that year; the claim alone when that says nothing new. */
export function yearApart(claim: string): string[] {
  // A short claim keeps its year: the annotators wrote "He represented Belgium in the Olympics in 2004." whole; a
  // long one, with more adjuncts than the year, is where they wrote the year with the verb and its object alone.
  // Cheap tests first (every claim passes here): a year "in" it or a date at its end.
  const hasIn = / in (?:the )?[A-Z1-2]/.test(claim);
  if (!hasIn && !/\d\.$/.test(claim)) return [claim];
  const n = spaceWords(claim);
  if (n <= LONG) return [claim];
  // A long claim (the study's measure): there a date that ends it may be "on" a day or "since" a year too, and a verb
  // with no object keeps its first phrase ("was traded to the Seattle Mariners in 2005").
  const veryLong = n > LONG_CLAIM_WORDS;
  const inYear = hasIn ? IN_YEAR.exec(claim) : null;
  const m = inYear ?? (veryLong && /\d\.$/.test(claim) ? DATE_END.exec(claim) : null);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined && inYear !== null) return [claim];
  const [before, year, after] = [m[1], inYear === null ? m[2] : `in ${m[2]}`, m[3] ?? ''];
  // "the first driver to win the BTCC ... since 1996": the date may bound the ranking, not the verb.
  if (inYear === null && /\b(?:first|only|last|most|best|[a-z]+est)\b/.test(before)) return [claim];
  // A clause or list around the year: the year may be any part's ("when they won the UEFA Cup in 1999").
  if (/,|\b(?:when|which|who|where|while|and|since|until|between)\b/.test(before) || (after !== '' && !/^ (?:for|with|at|by|from|as) /.test(after))) return [claim];
  const clause = plainClause(before);
  if (clause === null) return [claim];
  const toks = clause.tokens;
  let k = clause.verbIndex + 1;
  while (k < toks.length && (AUXILIARIES.has(toks[k]!.word) || AUX_ADVERBS.has(toks[k]!.word) || /(?:ed|en)$/.test(toks[k]!.word))) k++;
  // No object ("went on to win ...", "was drafted by ..."): nothing to state the year of alone, but in a long claim
  // the verb's first phrase ("was nominated for an AACTA Award for Best Lead Actor ... in 1999" -> "... was nominated
  // for an AACTA Award in 1999.").
  if (k >= toks.length || PREPOSITIONS.has(toks[k]!.word) || toks[k]!.word === 'to') {
    const phrase = veryLong && after === '' ? firstPhrase(toks, k) : null;
    if (phrase !== null) return [`${before}.`, `${phrase} ${year}.`];
    // "Icaza graduated from the National Autonomous University of Mexico in 1974 with a degree in law.": a phrase after
    // the year is one more fact of the verb and its first phrase ("... graduated from X with a degree in law.").
    const both = veryLong && after !== '' ? [`${before}${after}.`, `${before} ${year}.`] : null;
    return both === null || both.some((c) => spaceWords(c) > LONG_CLAIM_WORDS) ? [claim] : both;
  }
  // A copula's predicate that is no noun phrase ("is best known for ...", "was instrumental in ...") says nothing
  // of its own in a year; "is the recipient of the Arjuna Award" does.
  let main = k - 1;
  while (main > clause.verbIndex && AUX_ADVERBS.has(toks[main]!.word)) main--;
  if (BE_FORMS.has(toks[main]!.word) && !DETERMINERS.has(toks[k]!.word)) return [claim];
  // The object runs to the first preposition after it ("of" belongs to the object: "a Master of Fine Arts").
  let e = k;
  while (e < toks.length && !(e > k && PREPOSITIONS.has(toks[e]!.word) && toks[e]!.word !== 'of')) e++;
  if (e >= toks.length && after === '') return [claim];
  // An object that needs what follows it: an action ("a key role in organizing ...") or a role's field ("a major
  // role in the uprising"). Without it, "played a key role in 2014" would be asked about.
  const gerund = /ing$/.test(toks[e + 1]?.word ?? '') && DETERMINERS.has(toks[e + 2]?.word ?? '');
  if (gerund || /^(?:role|part)$/.test(toks[e - 1]!.word)) return [claim];
  const core = toks.slice(0, e).map((t) => t.raw).join(' ');
  return [`${before}${after}.`, `${core} ${year}.`];
}

// The subject, the verb and its first phrase, cut before the next phrase ("of" belongs to it); null where the phrase
// is all there is, opens an infinitive ("rose to fame", "went on to win"), or needs what follows it ("a role in").
function firstPhrase(toks: readonly { word: string; raw: string }[], k: number): string | null {
  if (k >= toks.length || !PREPOSITIONS.has(toks[k]!.word)) return null;
  const next = toks[k + 1];
  if (next === undefined || (toks[k]!.word === 'to' && !DETERMINERS.has(next.word) && !/^[A-Z0-9]/.test(next.raw))) return null;
  let e = k + 1;
  while (e < toks.length && !/^(?:as|and|or|who|which|where|when|while|after|before|during|since|until|because)$/.test(toks[e]!.word) && !(PREPOSITIONS.has(toks[e]!.word) && toks[e]!.word !== 'of') && !/[,;:]$/.test(toks[e - 1]!.raw)) e++;
  if (e <= k + 1 || e >= toks.length || /^(?:role|part|one|some|many|most|all|each|number)$/.test(toks[e - 1]!.word)) return null;
  const out = toks.slice(0, e).map((t) => t.raw).join(' ');
  return (out.match(/["“”]/g) ?? []).length % 2 === 0 ? out : null;
}
