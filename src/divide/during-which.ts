/**
 * On claims over 15 words only: "He played for Kawasaki Frontale until 2019, during which he won the J1 League in 2017
 * and 2018." dates a fact of its own by the span before it; the clause after ", during which" (or ", after which")
 * has its own subject and is a claim as it stands, as FActScore's annotators wrote it ("He won the J1 League in
 * 2017."), and the claim ends before it ("He played for Kawasaki Frontale until 2019."). Only where the clause's
 * subject is "he", "she" or "they" (the person's: "a speech to 120 teachers during which some realized ..." has no
 * comma, and its "some" are the teachers), and a question can be asked of it.
 */
import { isLong } from './long.js';
import { claimToQuestion } from './question.js';
import { capitalize } from './text.js';

// "during which time he ..." as well.
const DURING = /^(.+?), (?:during|after) which (?:time |period )?((?:he|she|they) .+?)\.?$/;

/** The claim without its ", during which" clause, and the clause as a claim; the claim alone otherwise. */
export function duringWhichApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(' which ')) return [claim];
  const m = DURING.exec(claim);
  if (m === null) return [claim];
  const fact = `${capitalize(m[2]!)}.`;
  if (/\b(?:which|who|whom)\b/.test(m[2]!) || claimToQuestion(fact) === null) return [claim];
  return [`${m[1]}.`, fact];
}
