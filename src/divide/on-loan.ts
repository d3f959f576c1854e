/**
 * On claims over 15 words only: "Icardi currently plays for Paris Saint-Germain in the French Ligue 1, on loan from
 * Inter Milan." says two things, where the player plays and from whom on loan ("Icardi currently plays for Paris
 * Saint-Germain in the French Ligue 1.", "Icardi currently plays for Paris Saint-Germain on loan from Inter Milan."),
 * as FActScore's annotators wrote them. The team is the run of capitalised words after "for"; the loan's lender has no
 * "and" (a list may go on).
 */
import { isLong } from './long.js';

const LOAN = /^(.+? (?:plays|played|playing|play) for )([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*)( [^,]+?),? on loan from ([^,]+)\.$/;

/** The claim without its loan, and the team with the loan; the claim alone otherwise. */
export function onLoanApart(claim: string): string[] {
  if (!claim.includes(' on loan from ') || !isLong(claim)) return [claim];
  const m = LOAN.exec(claim);
  if (m === null) return [claim];
  const [, head = '', team = '', phrase = '', lender = ''] = m;
  if (/ and /.test(lender)) return [claim];
  const out = [`${head}${team}${phrase}.`, `${head}${team} on loan from ${lender}.`];
  return out.some(isLong) ? [claim] : out;
}
