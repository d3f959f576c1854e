/**
 * On claims over 15 words only: a "where" clause with no comma after a named place, "Icardi then moved to Inter Milan
 * in 2013 where he became the captain of the team.", says what happened there, a fact of its own; as clauses.ts does
 * for ", where" (clause-time.ts's placeBefore), the place goes in front of the clause ("At Inter Milan, he became the
 * captain of the team.", "in" where the text said "in", "at" otherwise) and the claim ends at the place ("Icardi then
 * moved to Inter Milan in 2013."). The place is a run of capitalised words (with "of", "de", "the" inside) right
 * before "where" or before "in YEAR"; the clause opens with a pronoun; the claim to the place short.
 */
import { isLong, spaceWords } from './long.js';

// The place may end in a common noun ("the Shocking Vibes studio") or be one ("the library").
const WHERE = /^(.*? (in|at|to|from|for|of|attended|joined|club|team|series|film|show|studio|college) )((?:the )?\p{Lu}[\p{L}\p{M}'’.-]*(?: (?:\p{Lu}[\p{L}\p{M}'’.-]*|of|de|the|for))*(?: (?:studio|library|club|school|university|college|hospital|church|theatre|theater|festival))?|the (?:studio|library|club|school|university|college|hospital|church|theatre|theater|festival|city|town|village|country))((?: in (?:1[5-9]|20)\d\d)?) where ((?:he|she|they|his|her|their) .+)\.$/u;

/** The claim to its place, and the "where" clause with the place in front; the claim alone otherwise. */
export function whereApart(claim: string): string[] {
  if (!claim.includes(' where ') || !isLong(claim)) return [claim];
  const m = WHERE.exec(claim);
  if (m === null) return [claim];
  const [, head = '', prep = '', place = '', year = '', clause = ''] = m;
  if (/ (?:of|the|for|de)$/.test(place) || / where /.test(clause)) return [claim];
  // "to Tibet where": in a one-word place; "to Inter Milan where", "at the library where": at it.
  const at = `${prep === 'in' || (prep === 'to' && /^\p{Lu}[\p{L}\p{M}'’.-]*$/u.test(place)) ? 'In' : 'At'} ${place}`;
  const out = [`${head}${place}${year}.`, `${at}, ${clause}.`];
  // The clause may stay long ("In Nigeria, his father was working as a professor of computer science at Enugu State
  // University."): the place and what happened there are still two facts; not where the clause is very long.
  // A long head would go on to the next steps, which read its phrases as the verb's ("The book covers his escape in
  // India." of "his escape from a camp in India ... to Tibet").
  return isLong(out[0]!) || spaceWords(out[1]!) > 20 ? [claim] : out;
}
