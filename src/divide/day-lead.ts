/**
 * "On May 2, 2011, Bin Laden was killed by US special operations forces at his compound in Abbottabad, Pakistan.": a
 * fronted day has a comma of its own, which the clause reader takes for the end of the phrase ("On May 2," and a
 * subject "2011, Bin Laden"). Read without that comma, the claim is lead-in.ts's ("Bin Laden was killed by US special
 * operations forces on May 2, 2011."), and the day gets its comma and its "on" back in what comes out.
 */
import { leadInApart } from './lead-in.js';
import { isLong } from './long.js';

const DAY = /^On ((?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}), ((?:1[5-9]|20)\d\d), (\S.*)$/;

/** lead-in.ts's split of a claim led by "On <Month> <day>, <year>,"; the claim alone otherwise. */
export function dayLeadApart(claim: string): string[] {
  if (!claim.startsWith('On ') || !isLong(claim)) return [claim];
  const m = DAY.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  const bare = `${m[1]} ${m[2]}`;
  // lead-in.ts takes the phrases that date an event by their first word, and "On" leads places as well ("On the
  // table"): the day is read as "In" and written back as the claim has it.
  const out = leadInApart(`In ${bare}, ${m[3]}`);
  if (out.length === 1) return [claim];
  return out.map((c) => c.replace(`in ${bare}`, `on ${m[1]}, ${m[2]}`));
}
