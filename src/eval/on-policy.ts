// A round's on-policy check (pair.reference_logprobs): where each kept pair's chosen answer falls among its prompt's
// samples by mean token log-prob under the round's policy, and which are off-policy (feedback/on-policy.ts).
import { roundAnswerMeans, type Db } from '../store/index.js';
import { pairOnPolicy, summarizeOnPolicy, type OnPolicySummary, type PairOnPolicy } from '../feedback/on-policy.js';

/** The round's check, with every checked pair; null when the round has no reference log-probs. */
export function roundOnPolicy(db: Db, roundId: number): (OnPolicySummary & { checks: PairOnPolicy[]; promptOf: Map<string, string> }) | null {
  const r = roundAnswerMeans(db, roundId);
  if (!r || r.means.size === 0) return null;
  const checks = r.pairs.flatMap((p) => pairOnPolicy(p.pair_id, p.chosen_id, r.means.get(p.prompt_id) ?? new Map(), r.corrected) ?? []);
  return { ...summarizeOnPolicy(checks), checks, promptOf: new Map(r.pairs.map((p) => [p.pair_id, p.prompt_id])) };
}
