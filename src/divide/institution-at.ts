/**
 * On claims over 15 words only: a named institution that sits in another one, "Diamond is the director of the Pacific
 * Center for Sex and Society at the University of Hawaii.", says where the first one is, a fact of its own ("The
 * Pacific Center for Sex and Society is at the University of Hawaii."), and the claim goes on without it ("Diamond is
 * the director of the Pacific Center for Sex and Society."), as FActScore's annotators wrote them ("The Pacific Center
 * for Sex and Society is located at the University of Hawaii."). place-end.ts does this for a place after "at",
 * "from" or "for"; here also after "of the", whose "the" says the name is no person's ("the Principal of the
 * Government Homeopathic Medical College in Srinagar"; "the role of Brenda Leigh Johnson in The Closer" has none).
 */
import { isLong } from './long.js';

const WORD = String.raw`[A-Z][\w'’.-]*`;
// A name of two words or more, its small words between capitals.
const NAMED = String.raw`${WORD}(?: (?:of|for|&|de|la|and|the|on|in) ${WORD}| ${WORD})+`;
const AT_NAMED = new RegExp(String.raw`^(.+? (?:of|at|for|from) )((?:the )?${NAMED}) at (the ${WORD}(?: (?:of|at|in) ${WORD}| ${WORD})*)\.$`);
const OF_THE_IN = new RegExp(String.raw`^(.+? of )(the ${NAMED}) in (${WORD}(?: ${WORD})*)\.$`);

/** The claim to its institution, and where the institution is; the claim alone otherwise. */
export function institutionAtApart(claim: string): string[] {
  if (!isLong(claim) || !/ (?:at the|in) [A-Z]/.test(claim)) return [claim];
  const at = AT_NAMED.exec(claim);
  const m = at ?? OF_THE_IN.exec(claim);
  if (m === null) return [claim];
  const [, head = '', name = '', where = ''] = m;
  const named = name.startsWith('the ') ? `The ${name.slice(4)}` : name;
  const out = [`${head}${name}.`, `${named} is ${at === null ? 'in' : 'at'} ${where}.`];
  return out.some(isLong) ? [claim] : out;
}
