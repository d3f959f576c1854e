/**
 * A "which" clause after a name that a long claim keeps after a comma says a fact of its own about the name, as
 * FActScore's annotators wrote them ("Artista showcases contemporary art from around the world.", "He co-wrote La
 * Raulito with director Lautaro Murúa.", "She won a Golden Globe Award for The Closer."); the claim goes on without
 * it. Three forms, each with the name in the place the clause leaves open:
 *  - "..., which showcases X" (the name is the subject): "Artista showcases X.";
 *  - "..., which he co-wrote with Y" (the object): "He co-wrote La Raulito with Y.";
 *  - "..., for which she won X" (a preposition's object): "She won X for The Closer.".
 * The name is the run of capitalised words before the comma (with "of", "on", "the", "for", "de" inside, or a
 * bracketed abbreviation at its end), not a quoted title (title-which.ts); not the claim's subject, not an item after "and"/"or", not a
 * place after a comma ("near Concord, Massachusetts, which"), not after "against"/"by"/"with" ("a fight against
 * Marcus Kelly, which he won" is about the fight, not the man).
 */
import { isLong } from './long.js';
import { claimToQuestion } from './question.js';

const NAME = String.raw`(?:(?:[a-z]{1,3}-)?[A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|of|on|the|for|de|la|von|van))*(?: \([A-Z]+\))?)`;
const WHICH = new RegExp(String.raw`^(.*?)(\S+ )(${NAME}), (?:(for|in|with|from|by) )?which (.+)\.$`);
// A subject pronoun and the verb it takes ("he co-wrote", "she also directed"), with the rest.
// Two verbs joined by "and" take the object each ("which he wrote and directed" -> "He wrote X.", "He directed X.").
const PRONOUN = /^(he|she|they) ((?:also |later |then )?)(?!(?:is|was|were|are|has|had|have|would|will|could)\b)([a-z][\w-]*(?: and (?:also )?[a-z][\w-]*ed\b)?)\b(.*)$/;
// A finite verb that opens a subject relative ("which showcases", "which propelled").
const SUBJECT_VERB = /^(?:[a-z]+(?:s|ed)|became|won|led|made|held|ran|grew|went|began|gave|took|brought) /;
const NOT_BEFORE = /^(?:and|or|against|by|with|nor) $/;
// The cheap test before WHICH, which every claim with "which" meets: the clause after a comma.
const CLAUSE_AFTER_NAME = /, (?:(?:for|in|with|from|by) )?which /;

/** The claim without its "which" clause, and the clause with the name in its place; the claim alone otherwise. */
export function whichApart(claim: string): string[] {
  if (!claim.includes(' which ') || !CLAUSE_AFTER_NAME.test(claim)) return [claim];
  const m = WHICH.exec(claim);
  if (m === null) return [claim];
  const [, head = '', before = '', name = '', prep, rest = ''] = m;
  const main = `${head}${before}${name}`;
  // The name is the claim's subject, an item of a list, or a place after a comma: the clause may be about another.
  if (head.trim() === '' || NOT_BEFORE.test(before) || (/,$/.test(before.trim()) && /^[A-Z]/.test(before))) return [claim];
  // "Boseman starred in several action films, including Black Panther, for which ...": the name may be one of many.
  if (/\b(?:including|such as)\b/.test(`${head}${before}`)) return [claim];
  const title = name;
  const p = PRONOUN.exec(rest);
  let fact: string | null = null;
  if (prep !== undefined) {
    // "for which she won a Golden Globe Award in 2007" -> "She won a Golden Globe Award in 2007 for The Closer.".
    if (p === null) return [claim];
    fact = `${cap(p[1]!)} ${p[2]}${p[3]}${p[4]} ${prep} ${title}.`;
  } else if (p !== null) {
    // "which he used to launch ..." -> "He used al-Qaeda to launch ..."; a stranded preposition ("which she starred
    // in") leaves the object's place unknown.
    if (/\b(?:in|on|at|for|with|to|of|about|from)$/.test(p[4]!)) return [claim];
    const verbs = p[3]!.split(/ and (?:also )?/);
    if (verbs.length === 2) {
      const both = verbs.map((v) => `${cap(p[1]!)} ${p[2]}${v} ${title}${p[4]}.`);
      return both.some((f) => isLong(f) || claimToQuestion(f) === null) ? [claim] : [`${main.replace(/,$/, '')}.`, ...both];
    }
    fact = `${cap(p[1]!)} ${p[2]}${p[3]} ${title}${p[4]}.`;
  } else if (SUBJECT_VERB.test(rest) && !/^(?:is|was|has|had|are|were)\b/.test(rest)) {
    fact = `${title} ${rest}.`;
  }
  // A fact no question can be asked of ("He co-wrote ..." where the verb is not known) would be lost: whole.
  if (fact === null || isLong(fact) || /\b(?:which|who|whom)\b/.test(fact) || claimToQuestion(fact) === null) return [claim];
  return [`${main.replace(/,$/, '')}.`, fact];
}

function cap(s: string): string {
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}
