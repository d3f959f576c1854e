/**
 * On claims over 15 words only: a partner phrase that ends a claim, "Sharma made her acting debut in the film Rab Ne
 * Bana Di Jodi opposite Shah Rukh Khan." ("opposite", "alongside", "along with", "together with"), is a fact of its own
 * with the subject, the verb and its object ("Sharma made her acting debut opposite Shah Rukh Khan."), and the claim
 * goes on without it ("Sharma made her acting debut in the film Rab Ne Bana Di Jodi."), as FActScore's annotators
 * wrote them. The subject is a name at the claim's start; the verb's object runs to its first preposition; one partner
 * or a name's phrase, no list ("alongside Ryan Gosling and Kirsten Dunst" stays whole).
 */
import { DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

// The partner: a name, after at most a possessive and one word ("his wife Tammy Rivera"), to the claim's end.
const PARTNER = /^((?!(?:The|A|An|His|Her|Its|Their|This|That) )(?:[A-Z][\w'’.-]*)(?: [A-Z][\w'’.-]*){0,3}) (.+) (opposite|alongside|along with|together with) ((?:his |her |their )?(?:[a-z-]+ )?[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*)\.$/;

/** The claim without its partner, and the verb and its object with the partner; the claim alone otherwise. */
export function alongsideApart(claim: string): string[] {
  if (!/ (?:opposite|alongside|along with|together with) /.test(claim) || !isLong(claim)) return [claim];
  const m = PARTNER.exec(claim);
  if (m === null) return [claim];
  const [, subject = '', predicate = '', word = '', partner = ''] = m;
  if (/ and |,/.test(partner) || /,/.test(predicate)) return [claim];
  // The verb (with its auxiliaries) and its object: the words before the first preposition, a determiner or a lower-case
  // word after the subject opening them ("made her acting debut", "has appeared").
  const words = predicate.split(' ');
  const k = words.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  if (k <= 0 || !/^[a-z]/.test(words[0]!) || DETERMINERS.has(words[0]!)) return [claim];
  const out = [`${subject} ${predicate}.`, `${subject} ${words.slice(0, k).join(' ')} ${word} ${partner}.`];
  return out.some(isLong) ? [claim] : out;
}
