// `rlaifv bon`'s settings and defaults, apart from the runner, so the command's flags show them without loading it.
import type { RewardVariant } from '../methods/dpo-reward-math.js';

/** How answers are sampled and chosen. */
export interface BonSettings {
  /** Answers sampled per prompt. */
  n: number;
  beta: number;
  reward: RewardVariant;
  temperature: number;
  top_p: number;
  max_new_tokens: number;
  /** Sample i of prompt p has seed sampleSeed(seed, p, i), as in a round with this seed. */
  seed: number;
}

/** The defaults of `rlaifv bon`. */
export const BON_DEFAULTS: BonSettings = { n: 16, beta: 0.1, reward: 'sum', temperature: 0.7, top_p: 1, max_new_tokens: 512, seed: 0 };
