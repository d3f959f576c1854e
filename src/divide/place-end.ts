/**
 * On claims over 15 words only: a named place after a named institution that ends a claim, "His work has also been
 * featured in exhibitions at the Museum of Contemporary Art in Los Angeles.", says where the institution is, a fact of
 * its own ("The Museum of Contemporary Art is in Los Angeles."), and the claim goes on without it ("... at the Museum of
 * Contemporary Art."), as FActScore's annotators wrote them ("The Museum of Contemporary Art is located in Los
 * Angeles."; naming.ts says the same for short claims). The institution is a run of two or more capitalised words
 * after the last "at", "from" or "for" (not "of": "the role of Brenda Leigh Johnson in The Closer" is a role in a
 * show); the place a run of capitalised words, with its country after a comma.
 */
import { isLong } from './long.js';

const WORD = String.raw`[A-Z][\w'’.-]*`;
// An event's name may open with its year ("the 2011 Pan American Games").
const PLACE_END = new RegExp(String.raw`^(.+ (?:at|from|for) )((?:the )?(?:${WORD}|(?:1[5-9]|20)\d\d)(?: (?:${WORD}|of|for|&|de|la|and|the))+) in ((?:the )?${WORD}(?: ${WORD})*(?:, ${WORD}(?: ${WORD})*)?)\.$`);

/** The claim to its institution, and where the institution is; the claim alone otherwise. */
export function placeEndApart(claim: string): string[] {
  if (!/ in [A-Z]/.test(claim) || !isLong(claim)) return [claim];
  const m = PLACE_END.exec(claim);
  if (m === null) return [claim];
  const [, head = '', name = '', place = ''] = m;
  if (/ (?:of|for|&|de|la|and|the)$/.test(name) || / and /.test(name)) return [claim];
  const named = name.startsWith('the ') ? `The ${name.slice(4)}` : name;
  // A dated event was held there ("The 2011 Pan American Games were held in Guadalajara.").
  const event = /^(?:the )?\d{4} /.test(name);
  // "the 2011 South American Championships in Athletics": a sport after "in" is the event's name, no place.
  if (event && /^(?:Athletics|Aquatics|Swimming|Gymnastics|Cycling|Rowing|Canoeing|Football|Tennis|Golf|Boxing|Wrestling|Fencing|Judo|Sailing|Shooting|Archery|Badminton|Weightlifting)$/.test(place)) return [claim];
  const where = event ? `${/s$/.test(name) ? 'were' : 'was'} held in` : 'is in';
  const out = [`${head}${name}.`, `${named} ${where} ${place}.`];
  return out.some(isLong) ? [claim] : out;
}
