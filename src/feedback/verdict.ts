// The acceptance rule for one claim, from the labeler's p(yes) and p(no) (REFERENCE §3).

/** Which rule decides a claim: the released scripts' (default) or the paper's wording; they differ only on ties. */
export type AcceptRule = 'scripts' | 'paper';

/** Every accept rule, for validating configuration. */
export const ACCEPT_RULES: readonly AcceptRule[] = ['scripts', 'paper'];

/** The default follows the released scripts, as rlaifv does wherever scripts and paper differ. */
export const DEFAULT_ACCEPT_RULE: AcceptRule = 'scripts';

/**
 * Whether the labeler rejects a claim.
 * 'scripts': accepted iff pYes > pNo, so a tie is rejected; 'paper': rejected iff pNo > pYes, so a tie is accepted.
 * @example isRejected(0.4, 0.4) // true (scripts: a tie is rejected)
 * @example isRejected(0.4, 0.4, 'paper') // false
 */
export function isRejected(pYes: number, pNo: number, rule: AcceptRule = DEFAULT_ACCEPT_RULE): boolean {
  // NaN would silently fall on one side of either comparison; it is an upstream bug, not a verdict.
  if (Number.isNaN(pYes) || Number.isNaN(pNo)) {
    throw new RangeError(`isRejected: p(yes) and p(no) must be numbers, got ${pYes} and ${pNo}.`);
  }
  if (rule === 'scripts') return !(pYes > pNo);
  if (rule === 'paper') return pNo > pYes;
  throw new Error(`Unsupported accept rule: ${String(rule)}. Must be one of [${ACCEPT_RULES.join(', ')}].`);
}
