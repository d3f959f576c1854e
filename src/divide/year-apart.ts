/**
 * "Alfonso received a Master of Fine Arts in painting from the University of Miami in 1980.": the year of an event
 * is a fact of its own with the verb and its object ("Alfonso received a Master of Fine Arts in 1980."), and the
 * claim goes on without it, as FActScore's annotators wrote it ("He received his Ph.D. in 2001.", "She received the
 * MBE in 2018.").
 */
import { plainClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES, BE_FORMS, DETERMINERS, PREPOSITIONS } from './lexicon.js';

// " in 1980", " in October 2002", " in the 1950s" inside a claim, with what goes on after it.
const IN_YEAR = /^(.+?) in ((?:the )?(?:(?:January|February|March|April|May|June|July|August|September|October|November|December) )?(?:1[5-9]|20)\d\ds?)\b(.*)\.$/;

const LONG = 12;

/** The claim without its year and the verb with its object in that year; the claim alone when that says nothing new. */
export function yearApart(claim: string): string[] {
  // A short claim keeps its year: the annotators wrote "He represented Belgium in the Olympics in 2004." whole; a
  // long one, with more adjuncts than the year, is where they wrote the year with the verb and its object alone.
  if (!/ in (?:the )?[A-Z1-2]/.test(claim) || claim.split(' ').length <= LONG) return [claim];
  const m = IN_YEAR.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  const [before, year, after] = [m[1], m[2], m[3]];
  // A clause or list around the year: the year may be any part's ("when they won the UEFA Cup in 1999").
  if (/,|\b(?:when|which|who|where|while|and|since|until|between)\b/.test(before) || (after !== '' && !/^ (?:for|with|at|by|from|as) /.test(after))) return [claim];
  const clause = plainClause(before);
  if (clause === null) return [claim];
  const toks = clause.tokens;
  let k = clause.verbIndex + 1;
  while (k < toks.length && (AUXILIARIES.has(toks[k]!.word) || AUX_ADVERBS.has(toks[k]!.word) || /(?:ed|en)$/.test(toks[k]!.word))) k++;
  // No object ("went on to win ...", "was drafted by ..."): nothing to state the year of alone.
  if (k >= toks.length || PREPOSITIONS.has(toks[k]!.word) || toks[k]!.word === 'to') return [claim];
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
  return [`${before}${after}.`, `${core} in ${year}.`];
}
