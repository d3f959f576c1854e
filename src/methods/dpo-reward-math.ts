// The DPO model as a reward (RLAIF-V supplement, Tables 6–7): after DPO, r(x, y) = β·(log π(y|x) − log π_ref(y|x))
// scores an answer, up to a term of the prompt alone, so it ranks a prompt's answers. Pure: no I/O.
import type { SequenceLogprob } from '../backends/types.js';

/** How the log-probabilities enter the reward: summed over the answer's tokens, or averaged per token. */
export const REWARD_VARIANTS = ['sum', 'mean'] as const;
export type RewardVariant = (typeof REWARD_VARIANTS)[number];

/**
 * The DPO reward of one answer from its log-probabilities under the policy and the reference: β(Σπ − Σref) for 'sum'
 * (the implicit reward DPO trains), β(Σπ/nπ − Σref/nref) for 'mean' (length-averaged, so long answers are not
 * penalised for their length alone).
 * @example dpoReward({ sum: -4, tokens: 8 }, { sum: -6, tokens: 8 }, 0.1, 'sum') // 0.2
 */
export function dpoReward(policy: SequenceLogprob, ref: SequenceLogprob, beta: number, variant: RewardVariant = 'sum'): number {
  if (!Number.isFinite(beta) || beta <= 0) throw new RangeError(`beta must be a positive number, got ${beta}`);
  if (variant === 'sum') return beta * (policy.sum - ref.sum);
  if (variant !== 'mean') throw new RangeError(`Unknown reward variant ${String(variant)}; valid: ${REWARD_VARIANTS.join(', ')}`);
  if (policy.tokens < 1 || ref.tokens < 1) throw new RangeError(`a mean reward needs at least one token (policy ${policy.tokens}, reference ${ref.tokens})`);
  return beta * (policy.sum / policy.tokens - ref.sum / ref.tokens);
}

/**
 * The index of the best reward (the first of equal ones), skipping answers without one (null); -1 when none has one.
 * @example bestIndex([0.1, null, 0.3, 0.3]) // 2
 */
export function bestIndex(rewards: readonly (number | null)[]): number {
  let best = -1;
  rewards.forEach((r, i) => {
    if (r !== null && (best < 0 || r > rewards[best]!)) best = i;
  });
  return best;
}
