/**
 * On claims over 15 words only: "Harrison was born in Chicago, Illinois, to former radio actress Dorothy and
 * advertising executive John William "Christopher" Ford." says where someone was born and to whom, two facts: "Harrison
 * was born in Chicago, Illinois." and "Harrison was born to former radio actress Dorothy and ...", as FActScore's
 * annotators wrote them ("Bin Laden was born in Riyadh.", "He was born to a wealthy family."). claim-steps.ts's bornApart
 * splits at "in"/"on" phrases only and leaves "to" with the place.
 */
import { DETERMINERS } from './lexicon.js';
import { isLong } from './long.js';

const BORN_TO = /^(.*? born) (in (?:the )?[A-Z].+?),? (to (\S+) .+)\.$/u;

/** Where someone was born and to whom, apart; the claim alone otherwise. */
export function bornToApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(' born in ')) return [claim];
  const m = BORN_TO.exec(claim);
  if (m === null) return [claim];
  const [, born = '', place = '', parents = '', first = ''] = m;
  // Parents, a family: a determiner or a name after "to", not an infinitive ("born in X to become ...").
  if (!DETERMINERS.has(first.toLowerCase()) && !/[A-Z]/.test(parents)) return [claim];
  const out = [`${born} ${place}.`, `${born} ${parents}.`];
  return out.some(isLong) ? [claim] : out;
}
