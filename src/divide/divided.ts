/**
 * One atomic claim, the sentence it came from and its yes/no question; `start`/`end` are character offsets into
 * the answer given to `divideRules`, covering the source text of the claim (`answer.slice(start, end)`). A leaf, so
 * that the rule files that add claims (salvage.ts) take the type without importing rules.ts.
 */
export interface DividedClaim {
  sentence: string;
  claim: string;
  question: string;
  start: number;
  end: number;
}
