// The on-policy check (OPA-DPO's point): a chosen answer the policy itself would hardly say teaches DPO little and can
// pull the policy off its own distribution. Its mean token log-prob under the round's policy is ranked among the
// policy's other samples of the same prompt (its siblings). Pure: no I/O.

/** The percentile under which a chosen answer is flagged off-policy. */
export const OFF_POLICY_PERCENTILE = 10;

/** The rule, as `rlaifv stats` and the report state it. */
export const OFF_POLICY_RULE =
  `off-policy: the chosen answer's mean token log-prob under the round's policy is under the ${OFF_POLICY_PERCENTILE}th percentile of its siblings' ` +
  '(the share of the prompt\'s other samples below it, ties counting half); with fewer than 10 siblings, none of them below it';

/**
 * Where `x` falls among `siblings`, 0–100: the share of them below it, ties counting half; null without siblings.
 * @example siblingPercentile(-0.5, [-1, -0.2, -0.5, -2]) // 62.5
 */
export function siblingPercentile(x: number, siblings: readonly number[]): number | null {
  if (siblings.length === 0) return null;
  let below = 0;
  for (const s of siblings) below += s < x ? 1 : s === x ? 0.5 : 0;
  return (100 * below) / siblings.length;
}

/** Whether a percentile is off-policy under {@link OFF_POLICY_RULE}. */
export const isOffPolicy = (percentile: number): boolean => percentile < OFF_POLICY_PERCENTILE;

/** One pair's check. */
export interface PairOnPolicy {
  pair_id: string;
  /** The chosen answer's mean token log-prob under the round's policy. */
  chosen_mean: number;
  /** Its percentile among the siblings' means. */
  percentile: number;
  siblings: number;
  off_policy: boolean;
}

/** A round's check over its kept pairs. */
export interface OnPolicySummary {
  rule: string;
  /** Kept pairs whose chosen answer and at least one sibling have log-probs. */
  pairs: number;
  median_percentile: number | null;
  off_policy: number;
  /** The off-policy pairs, worst first. */
  flagged: PairOnPolicy[];
}

/**
 * Each pair's check from the means of its prompt's answers (chosen included): the siblings are the other answers
 * (a sample identical in text to the chosen one is a sibling too: the policy said it twice), never a corrected answer
 * (`corrected`: pair.corrections' rewrites, which the policy did not sample).
 */
export function pairOnPolicy(pairId: string, chosenId: string, means: ReadonlyMap<string, number>, corrected: ReadonlySet<string> = new Set()): PairOnPolicy | null {
  const chosen = means.get(chosenId);
  if (chosen === undefined) return null;
  const siblings = [...means].filter(([id]) => id !== chosenId && !corrected.has(id)).map(([, m]) => m);
  const percentile = siblingPercentile(chosen, siblings);
  if (percentile === null) return null;
  return { pair_id: pairId, chosen_mean: chosen, percentile, siblings: siblings.length, off_policy: isOffPolicy(percentile) };
}

/** The summary of a round's pair checks. */
export function summarizeOnPolicy(checks: readonly PairOnPolicy[]): OnPolicySummary {
  const ps = checks.map((c) => c.percentile).sort((a, b) => a - b);
  const mid = ps.length === 0 ? null : ps.length % 2 ? ps[(ps.length - 1) / 2]! : (ps[ps.length / 2 - 1]! + ps[ps.length / 2]!) / 2;
  const flagged = checks.filter((c) => c.off_policy).sort((a, b) => a.percentile - b.percentile || a.chosen_mean - b.chosen_mean);
  return { rule: OFF_POLICY_RULE, pairs: checks.length, median_percentile: mid, off_policy: flagged.length, flagged };
}
