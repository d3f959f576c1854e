/**
 * "Sakamoto passed away on August 12, 1985, in the crash of Japan Airlines Flight 123.": after a date and a comma,
 * each phrase of a long claim says one more thing about the event ("Sakamoto passed away on August 12, 1985.",
 * "Sakamoto passed away in the crash of Japan Airlines Flight 123."; "Garrincha died from cirrhosis of the liver.",
 * "Garrincha died at the age of 49."), as FActScore's annotators wrote them.
 */
import { isLong } from './long.js';

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
// The date: "on August 12, 1985", "on 12 August 1985", "in 1985", "in March 1985".
const DATE = String.raw`(?:on ${MONTH} \d{1,2}(?:st|nd|rd|th)?, \d{4}|on \d{1,2} ${MONTH} \d{4}|in (?:${MONTH} )?\d{4})`;
const PHRASE = String.raw`(?:in|at|from|after|during|with|for|as|against|following|under|due to) [^,]+`;
const DATED = new RegExp(String.raw`^([^,]+?) (${DATE}), (${PHRASE}(?:, ${PHRASE})*)\.$`);

/** The event at its date and with each phrase after it; the claim alone otherwise. */
export function dateCommaApart(claim: string): string[] {
  if (!claim.includes(', ') || !/\d, /.test(claim) || !isLong(claim)) return [claim];
  // "Sadly, Sakamoto passed away on ...": a comment word before the event says nothing of it (filters.ts drops such
  // words where they stand before a noun).
  const m = DATED.exec(claim.replace(/^(?:Sadly|Tragically|Unfortunately), (?=[A-Z])/, ''));
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || !/\s/.test(m[1])) return [claim];
  const phrases = m[3].split(', ');
  // A clause inside a phrase ("after he was injured"): the phrase is not the event's alone.
  if (phrases.some((p) => /\b(?:he|she|they|it|who|which|that|and|or|but)\b/.test(p))) return [claim];
  return [`${m[1]} ${m[2]}.`, ...phrases.map((p) => `${m[1]} ${p}.`)];
}
