/**
 * On claims over 15 words only: a "where" clause with no comma after a named place, "Icardi then moved to Inter Milan
 * in 2013 where he became the captain of the team.", says what happened there, a fact of its own; as clauses.ts does
 * for ", where" (clause-time.ts's placeBefore), the place goes in front of the clause ("At Inter Milan, he became the
 * captain of the team.", "in" where the text said "in", "at" otherwise) and the claim ends at the place ("Icardi then
 * moved to Inter Milan in 2013."). The place is a run of capitalised words (with "of", "de", "the" inside) right
 * before "where" or before "in YEAR"; the clause opens with a pronoun; both parts short.
 */
import { isLong } from './long.js';

const WHERE = /^(.*? (in|at|to|from|for|of|attended|joined|club|team|series|film|show|studio|college) )((?:the )?[A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|of|de|the|for))*)((?: in (?:1[5-9]|20)\d\d)?) where ((?:he|she|they|his|her|their) .+)\.$/;

/** The claim to its place, and the "where" clause with the place in front; the claim alone otherwise. */
export function whereApart(claim: string): string[] {
  if (!claim.includes(' where ') || !isLong(claim)) return [claim];
  const m = WHERE.exec(claim);
  if (m === null) return [claim];
  const [, head = '', prep = '', place = '', year = '', clause = ''] = m;
  if (/ (?:of|the|for|de)$/.test(place) || / where /.test(clause)) return [claim];
  const at = `${prep === 'in' ? 'In' : 'At'} ${place}`;
  const out = [`${head}${place}${year}.`, `${at}, ${clause}.`];
  return out.some(isLong) ? [claim] : out;
}
