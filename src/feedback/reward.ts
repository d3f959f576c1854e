// An answer's reward for online RL from its claims' verdicts: the components always, and the scalar of a named preset.
// Pure: `rlaifv serve` reads the verdicts from the store and calls this.

/** The reward presets: `default` pays accepted claims and punishes rejected ones; `rejc`/`rejp` are the paper's rankings. */
export const REWARD_PRESETS = ['default', 'rejc', 'rejp'] as const;
/** A reward preset's name. */
export type RewardPreset = (typeof REWARD_PRESETS)[number];

/** The weights of the default preset (config `reward`). */
export interface RewardWeights {
  accepted_weight: number;
  rejected_weight: number;
  accepted_cap: number;
}

/** One claim as the reward sees it: the question it asks (repeats share one) and its verdict (null: not judged). */
export interface RewardClaim {
  questionId: string;
  /** true: rejected, false: accepted, null: the labeler could not judge its question. */
  rejected: boolean | null;
}

/** The components returned with every reward. */
export interface RewardComponents {
  n_claims: number;
  n_accepted: number;
  n_rejected: number;
  /** Claims the labeler could not judge (neither yes nor no among its top tokens). */
  n_unscored: number;
  /** Accepted claims counted once per distinct question: a repeated sentence is one claim. */
  n_distinct_accepted: number;
  /** The paper's REJ-C ranking as a value: −rejected. */
  rej_c: number;
  /** The paper's REJ-P share: rejected / judged claims (0 with none). */
  rej_p: number;
  /** accepted / judged claims (0 with none): in [0, 1], OpenRLHF's `scores`. */
  precision: number;
}

/** An answer's reward: ok with a value, or unscorable (it has claims and the labeler judged none of them). */
export type AnswerReward = { status: 'ok'; reward: number; components: RewardComponents } | { status: 'unscorable'; reward: null; components: RewardComponents };

/**
 * The components of an answer's claims.
 * @example rewardComponents([{ questionId: 'a', rejected: false }]).n_accepted // 1
 */
export function rewardComponents(claims: readonly RewardClaim[]): RewardComponents {
  const judged = claims.filter((c) => c.rejected !== null);
  const rejected = judged.filter((c) => c.rejected).length;
  const accepted = judged.length - rejected;
  const distinct = new Set(judged.filter((c) => !c.rejected).map((c) => c.questionId)).size;
  return {
    n_claims: claims.length,
    n_accepted: accepted,
    n_rejected: rejected,
    n_unscored: claims.length - judged.length,
    n_distinct_accepted: distinct,
    rej_c: 0 - rejected,
    rej_p: judged.length ? rejected / judged.length : 0,
    precision: judged.length ? accepted / judged.length : 0,
  };
}

/**
 * The scalar of a preset. default: w_a·min(distinct accepted, cap) − w_r·rejected (pays what is right, so saying
 * nothing is not the best answer); rejc: −rejected; rejp: −rejected/judged. An answer with no claims (empty, a
 * refusal) gets 0 under every preset.
 * @example presetValue('rejc', rewardComponents([{ questionId: 'a', rejected: true }]), cfg) // -1
 */
export function presetValue(preset: RewardPreset, c: RewardComponents, cfg: RewardWeights): number {
  switch (preset) {
    case 'default':
      return cfg.accepted_weight * Math.min(c.n_distinct_accepted, cfg.accepted_cap) - cfg.rejected_weight * c.n_rejected;
    case 'rejc':
      return c.rej_c;
    case 'rejp':
      return 0 - c.rej_p;
  }
}

/**
 * An answer's reward under a preset: unscorable only when it has claims and none was judged; otherwise ok (an empty
 * answer, a refusal, a repeated sentence are all scored).
 */
export function answerReward(claims: readonly RewardClaim[], preset: RewardPreset, cfg: RewardWeights): AnswerReward {
  const components = rewardComponents(claims);
  if (components.n_claims > 0 && components.n_unscored === components.n_claims) return { status: 'unscorable', reward: null, components };
  return { status: 'ok', reward: presetValue(preset, components, cfg), components };
}

/** What each preset teaches, for /v1/info and the docs. */
export const PRESET_DEFINITIONS: Record<RewardPreset, string> = {
  default: 'accepted_weight·min(distinct accepted claims, accepted_cap) − rejected_weight·rejected claims: pays what is right, punishes what is wrong',
  rejc: '−rejected claims (the paper\'s REJ-C): punishes errors only, so saying less is never worse',
  rejp: '−rejected/judged claims (the paper\'s REJ-P): the share of errors, independent of length',
};
