// The report's on-policy check (pair.reference_logprobs): the kept pairs' chosen answers ranked among their prompts'
// samples by mean token log-prob under the round's policy (eval/on-policy.ts), and each browsed pair's own rank.
import { roundAnswerMeans, type Db } from '../store/index.js';
import { pairOnPolicy } from '../feedback/on-policy.js';
import { roundOnPolicy } from '../eval/on-policy.js';
import type { BrowserPair, OnPolicyReport } from './types.js';

/** The round's check for the report; null when it has no reference log-probs. */
export function gatherOnPolicy(db: Db, roundId: number): OnPolicyReport | null {
  const c = roundOnPolicy(db, roundId);
  if (!c) return null;
  const labels = Array.from({ length: 10 }, (_, i) => `${i * 10}–${i * 10 + 10}`);
  const counts = labels.map(() => 0);
  for (const x of c.checks) counts[Math.min(9, Math.floor(x.percentile / 10))]!++;
  return {
    rule: c.rule,
    pairs: c.pairs,
    median_percentile: c.median_percentile,
    off_policy: c.off_policy,
    labels,
    counts,
    flagged: c.flagged.slice(0, 50).map((f) => ({ pair_id: f.pair_id, prompt_id: c.promptOf.get(f.pair_id) ?? '', chosen_mean: f.chosen_mean, percentile: f.percentile, siblings: f.siblings })),
  };
}

/** A browsed pair's check from the round's stored log-probs (any pair, kept or not); null without them. */
export function browserOnPolicy(db: Db, roundId: number): (p: { id: string; prompt_id: string; chosen_id: string }) => BrowserPair['on_policy'] {
  const r = roundAnswerMeans(db, roundId);
  const means = r?.means ?? new Map<string, Map<string, number>>();
  return (p) => {
    const c = pairOnPolicy(p.id, p.chosen_id, means.get(p.prompt_id) ?? new Map(), r?.corrected);
    return c && { percentile: c.percentile, chosen_mean: c.chosen_mean, siblings: c.siblings, off_policy: c.off_policy };
  };
}
