/**
 * On claims over 15 words only: two objects of one preposition, "known for his work on religion and Latino culture in
 * the United States" -> "... his work on religion in the United States.", "... his work on Latino culture in the
 * United States.", as FActScore's annotators wrote them. A phrase after the pair ("in the United States") is shared.
 * Not where the pair shares a head noun or an object ("comedy and dance reality shows", "directing and producing
 * theater productions", "political and cultural development"), nor after "to" (a verb may follow it), nor where an
 * item has its own determiner ("his use of stone and his interest in ..."), nor where a part would still be long.
 */
import { isLong } from './long.js';
const PAIR = /^(.*\b(?:of|on|in|about|for|with|from|against|between) )([a-z][\w'-]*(?: [a-z][\w'-]*){0,2}) and ([A-Za-z][\w'-]*(?: [a-z][\w'-]*){0,2})((?: (?:in|at|from|during|since|throughout|across) [^,]*)?)\.$/;
const DETERMINERS = /^(?:the|a|an|his|her|their|its|this|that|these|those|some|many|several|numerous|various|most|more|other|both|each|every)\b/;
// An item of one word with an adjective's or a gerund's ending modifies what follows the pair.
const MODIFIER = /(?:al|ous|ive|ful|ant|ent|able|ible|less|ary|ory|ish|ing|ed|est|ic|ical)$/;

/** The claim split into one claim per object, or the claim alone. */
export function andObjectsApart(claim: string): string[] {
  // The cheap test first: most claims have no " and " (the word count splits the string).
  if (!claim.includes(' and ') || !isLong(claim)) return [claim];
  const m = PAIR.exec(claim);
  if (m === null) return [claim];
  const [, pre = '', a = '', b = '', post = ''] = m;
  const na = a.split(' ').length;
  const nb = b.split(' ').length;
  if (/\band\b|,\s*$/.test(pre.slice(-30)) || DETERMINERS.test(a) || DETERMINERS.test(b.toLowerCase()) || nb > na + 1) return [claim];
  if (na === 1 && MODIFIER.test(a)) return [claim];
  if (/\bbetween $/.test(pre)) return [claim];
  const out = [`${pre}${a}${post}.`, `${pre}${b}${post}.`];
  // Two long claims where there was one only moves the length: the pair stays for a rule that cuts elsewhere.
  return out.every((c) => !isLong(c)) ? out : [claim];
}
