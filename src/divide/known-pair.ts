/**
 * On claims over 15 words only: "known as X and for Y" ("Dominic Maker is best known as one half of the duo Mount
 * Kimbie and for his production work for Jay-Z.") or "known for his performances as A and as B" says two things
 * someone is known for, one claim each ("Dominic Maker is best known for his production work for Jay-Z.", "Harrison is
 * best known for his performances as the title character of the Indiana Jones film series."), as FActScore's
 * annotators wrote them. The second phrase takes the place of the last phrase of its preposition before "and", or,
 * where there is none, of the first phrase after "known"; prep-repeat.ts takes the same preposition right after the
 * verb.
 */
import { isLong } from './long.js';

const KNOWN = /^(.+? known )(as|for) (.+?) and (as|for) ([^,]+)\.$/;

/** One claim per thing someone is known for, or the claim alone. */
export function knownPairApart(claim: string): string[] {
  if (!claim.includes(' known ') || !claim.includes(' and ') || !isLong(claim)) return [claim];
  const m = KNOWN.exec(claim);
  if (m === null) return [claim];
  const [, head = '', p1 = '', left = '', p2 = '', right = ''] = m;
  if (/ and /.test(right) || / and |,/.test(left)) return [claim];
  const inner = left.lastIndexOf(` ${p2} `);
  // The same preposition inside the first phrase: the second is parallel to it ("his performances as A and as B").
  const pre = inner >= 0 ? `${head}${p1} ${left.slice(0, inner)} ` : p1 !== p2 ? head : null;
  if (pre === null) return [claim];
  const out = [`${head}${p1} ${left}.`, `${pre}${p2} ${right}.`];
  return out.some(isLong) ? [claim] : out;
}
