/**
 * "Casali continued to create the strip until her death in 1997 at the age of 56.": a long claim that runs until the
 * subject's death, with its date or age, says when the subject died as facts of their own, as FActScore's annotators
 * wrote them ("Casali continued to create the strip until her death.", "Casali died in 1997.", "Casali was 56 years
 * old when she died.").
 */
import { plainClause } from './clause.js';
import { isLong } from './long.js';

const UNTIL_DEATH = /^(.+? until (?:his|her|their) death)((?: (?:in|on) (?:(?:January|February|March|April|May|June|July|August|September|October|November|December) (?:\d{1,2}, )?)?(?:1[5-9]|20)\d\d)?)((?: at the age of \d{1,3})?)\.$/;

/** The claim until the death, and the death's date and age; the claim alone otherwise. */
export function untilDeathApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(' death ')) return [claim];
  const m = UNTIL_DEATH.exec(claim);
  // A list before it ("three separate tenures – 1969 to 1972, ..., and 2004 until his death") may be anyone's.
  if (m === null || m[1] === undefined || (m[2] === '' && m[3] === '') || /[,;–—]/.test(m[1])) return [claim];
  const clause = plainClause(`${m[1]}.`);
  // The one who died is the subject, a name or a pronoun ("His tragic personal life saw him ..." names no one).
  const subject = clause?.subject.map((t) => t.raw).join(' ') ?? '';
  if (!/^(?:\p{Lu}[\p{L}\p{M}'’.-]*(?: \p{Lu}[\p{L}\p{M}'’.-]*){0,3}|He|She|They)$/u.test(subject) || /^(?:The|His|Her|Their|It|This)\b/.test(subject)) return [claim];
  const facts = [m[2], m[3]].filter((x): x is string => x !== undefined && x !== '').map((x) => `${subject} died${x}.`);
  return [`${m[1]}.`, ...facts];
}
