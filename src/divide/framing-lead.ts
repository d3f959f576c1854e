/**
 * "Despite these challenges, Wong continued to work in the film industry until her death in 1961.": a long claim
 * opened by a phrase that frames it without a fact of its own (a reference back, "today", the other side of a career)
 * is the claim without it, as FActScore's annotators wrote such sentences ("Wong continued to work in the film
 * industry until her death.", "He is regarded as one of the most influential figures in dub music."). Dated or placed
 * phrases ("In 1939", "At the University of Maryland") say something and stay (`lead-in.ts` states them), and so
 * does "in recent years": the annotators kept it ("He has focused on directing theater productions in recent years.").
 */
import { plainClause } from './clause.js';
import { isLong } from './long.js';

// "Despite these challenges" refers back to what the answer said; "Despite his controversial legacy" says something.
const FRAMING = /^(?:since then|today|nowadays|over the years|despite (?:these|this|those|such) [a-z ]+|off the (?:pitch|field|court|ice)|outside of (?:football|soccer|basketball|baseball|cricket|music|acting|sports?|the ring|mma|boxing|politics)|away from (?:the pitch|the field|football|music|acting)),\s+/i;

/** The claim without its framing phrase; the claim itself otherwise. */
export function framingLeadApart(claim: string): string[] {
  if (!isLong(claim)) return [claim];
  const m = FRAMING.exec(claim);
  if (m === null) return [claim];
  const rest = claim.slice(m[0].length);
  // The rest must be a clause of its own with a named subject.
  if (!/^(?:\p{Lu}|he |she |they )/u.test(rest) || plainClause(rest) === null) return [claim];
  return [`${rest.charAt(0).toUpperCase()}${rest.slice(1)}`];
}
