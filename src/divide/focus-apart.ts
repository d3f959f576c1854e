/**
 * On claims over 15 words only: a phrase after a comma and "particularly" ("especially", "notably", "mostly", "mainly",
 * "primarily") that narrows a phrase of the clause with the same preposition: "Bertotti is known for her humanitarian
 * work, particularly for her involvement in various charity organizations" says two things, "Bertotti is known for
 * her humanitarian work." and "Bertotti is known for her involvement in various charity organizations.", as
 * FActScore's annotators wrote them. The narrowing phrase takes the place of the clause's last phrase with its
 * preposition; where the clause has none, the claim stays whole (the phrase may be the verb's or the object's).
 */
import { isLong } from './long.js';

const FOCUS = /^([^,]+), (?:particularly|especially|most notably|notably|mostly|mainly|primarily) ((in|for|on|at|to|with|through|from|among|by) [^,]+)\.$/;

/** The claim without its narrowing phrase, and the phrase in its preposition's place; the claim alone otherwise. */
export function focusApart(claim: string): string[] {
  if (!claim.includes(', ') || !/ly |notably /.test(claim) || !isLong(claim)) return [claim];
  const m = FOCUS.exec(claim);
  if (m === null) return [claim];
  const [, main = '', phrase = '', prep = ''] = m;
  const at = main.lastIndexOf(` ${prep} `);
  // The clause's own phrase with that preposition, after its verb (not in the subject: at least two words before).
  if (at < 0 || main.slice(0, at).split(' ').length < 3) return [claim];
  const out = [`${main}.`, `${main.slice(0, at)} ${phrase}.`];
  return out.some(isLong) ? [claim] : out;
}
