/**
 * On claims over 15 words only: "Osama bin Laden was a Saudi Arabian-born militant who founded the jihadist
 * organization al-Qaeda in 1988." says what someone was and what they did, two facts: "Osama bin Laden was a Saudi
 * Arabian-born militant." and "Osama bin Laden founded the jihadist organization al-Qaeda in 1988.", as FActScore's
 * annotators wrote them ("Osama bin Laden founded al-Qaeda."). Only where the "who" can stand for the subject alone:
 * the role after "is"/"was" has no phrase of its own ("the father of Sosia Polla, who married ..." is about her) and
 * no comma before "who"; no year in the clause (see YEAR).
 */
import { isLong } from './long.js';

// A name or a pronoun, then "is"/"was" and a role led by an article, then "who" and a lower-case verb.
const WHO = /^((?:\p{Lu}[\p{L}'’.-]*)(?: (?:\p{Lu}[\p{L}'’.-]*|de|da|dos|del|bin|van|von|y)){0,5}|He|She) (is|was) ((?:a|an|another|the) [^,]*?(?:, [^,]+?)*) who ([a-z][\w'-]*) (.+)$/u;
// A phrase inside the role may own the "who" ("a friend of Plutarch who ...").
const ROLE_PHRASE = / (?:of|for|in|at|on|with|from|to|by|about|among|between|than|that|which)\b/;
// A year in the clause dates an event whose facts the annotators worded of its object ("Osama bin Laden ... who
// founded the jihadist organization al-Qaeda in 1988": "Al-Qaeda was founded in 1988."); the claim stays whole, as it
// covers that fact and its split does not.
const YEAR = /\b(?:1[0-9]|20)\d\d\b/;

/** The subject's role and what the "who" clause says of the subject; the claim alone otherwise. */
export function whoApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(' who ')) return [claim];
  const m = WHO.exec(claim);
  if (m === null) return [claim];
  const [, subject = '', be = '', role = '', verb = '', rest = ''] = m;
  if (ROLE_PHRASE.test(role) || YEAR.test(rest)) return [claim];
  const out = [`${subject} ${be} ${role}.`, `${subject} ${verb} ${rest}`];
  return out.some(isLong) ? [claim] : out;
}
