/**
 * "Gasalla received the Konex Award for Best Comedian of the Decade in 1981 and again in 1991.", "Manohar served as
 * the President of the BCCI from 2008 to 2011 and again from 2015 to 2017.": a long claim whose event happened at a
 * time "and again" at another is two facts, one per time, as FActScore's annotators wrote them ("He received the
 * Konex Award in 1981.", "He received the Konex Award in 1991.").
 */
import { isLong } from './long.js';

// The claim, its first time phrase (from "in", "on" or "from" before a year) and the second after "and again".
const AGAIN = /^(.+?) ((?:in|on|from) (?:(?:January|February|March|April|May|June|July|August|September|October|November|December) )?(?:\d{1,2}, )?(?:1[5-9]|20)\d\d(?: to (?:\w+ )?(?:1[5-9]|20)\d\d)?) and again ((?:in|on|from) [^,]+)\.$/;

/** One claim per time; the claim alone where it has no such shape. */
export function andAgainApart(claim: string): string[] {
  if (!claim.includes(' and again ') || !isLong(claim)) return [claim];
  const m = AGAIN.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  // The second time must be a time too ("again in 1991", "again from 2015 to 2017").
  if (!/\b(?:1[5-9]|20)\d\d\b/.test(m[3])) return [claim];
  // "again" stays with the second time: it says the first happened too ("He received the award again in 1991.").
  return [`${m[1]} ${m[2]}.`, `${m[1]} again ${m[3]}.`];
}
