// The DPO model as a reward: a prompt's answers scored by r = β(log π − log π_ref) (dpo-reward-math.ts), the log-probs
// taken under the trained policy and its reference through two sequence scorers (local model folders or servers).
import type { SequenceLogprob, SequenceScoreItem, SequenceScorer } from '../backends/types.js';
import { dpoReward, type RewardVariant } from './dpo-reward-math.js';
import type { FeedbackMethod, MethodAnswer, MethodPrompt, MethodScore } from './types.js';
import type { Config, ModelBackend } from '../config/schema.js';
import type { WorkerPool } from '../backends/local/pool.js';
import { LocalSequenceScorer } from '../backends/local/index.js';
import { OpenAISequenceScorer } from '../backends/openai/sequence-scorer.js';
import { isRemote } from '../backends/openai/index.js';

export { dpoReward, bestIndex, REWARD_VARIANTS, type RewardVariant } from './dpo-reward-math.js';

/** β and how log-probs enter the reward. */
export interface DpoRewardSettings {
  beta: number;
  variant: RewardVariant;
}

/** One answer's log-probs under the policy and the reference, and its reward. */
export interface AnswerReward {
  policy: SequenceLogprob;
  reference: SequenceLogprob;
  reward: number;
}

/**
 * Each item's answers scored under the policy and the reference at once, and their DPO rewards, per item and answer
 * in order. An answer either model cannot score gets an Error naming which one; mistakes retrying cannot fix throw.
 * @example const [[r]] = await dpoRewards(policy, reference, [{ imagePath, question, answers: ['There is a red circle.'] }], { beta: 0.1, variant: 'sum' })
 */
export async function dpoRewards(
  policy: SequenceScorer,
  reference: SequenceScorer,
  items: SequenceScoreItem[],
  s: DpoRewardSettings,
): Promise<(AnswerReward | Error)[][]> {
  const [pol, ref] = await Promise.all([policy.logprobs(items), reference.logprobs(items)]);
  return items.map((it, i) =>
    it.answers.map((_, j) => {
      const p = pol[i]![j]!;
      const r = ref[i]![j]!;
      if (p instanceof Error) return new Error(`policy: ${p.message}`);
      if (r instanceof Error) return new Error(`reference: ${r.message}`);
      return { policy: sumOf(p), reference: sumOf(r), reward: dpoReward(p, r, s.beta, s.variant) };
    }),
  );
}

/** A log-prob's sum and token count: the reward's evidence leaves the per-token values out. */
const sumOf = (x: SequenceLogprob): SequenceLogprob => ({ sum: x.sum, tokens: x.tokens });

/**
 * The DPO model as a feedback method (feedback.method "dpo-reward"): a round's answers scored by β·log(π/π_ref) of a
 * trained checkpoint (feedback.dpo_reward.policy, or the round's own policy) against its reference. The evidence is
 * both log-probs with their token counts.
 */
export class DpoRewardMethod implements FeedbackMethod {
  readonly name = 'dpo-reward' as const;
  readonly scorer: string;
  readonly promptsPerCall = 16;
  readonly concurrency: number;
  constructor(
    private readonly policy: SequenceScorer,
    private readonly reference: SequenceScorer,
    private readonly s: DpoRewardSettings,
    concurrency: number,
  ) {
    this.scorer = `${policy.id}|ref:${reference.id}|beta:${s.beta}|${s.variant}`;
    // A served model keeps its pool's capacity busy; local scorers share the worker pool.
    this.concurrency = Math.max(concurrency, ...[policy, reference].map((x) => (isRemote(x) ? x.pool.capacity : 0)));
  }

  async score(items: { prompt: MethodPrompt; answers: MethodAnswer[] }[]): Promise<MethodScore[][]> {
    const res = await dpoRewards(
      this.policy,
      this.reference,
      items.map(({ prompt, answers }) => ({ imagePath: prompt.imagePath, question: prompt.question, history: prompt.history, answers: answers.map((a) => a.text) })),
      this.s,
    );
    return items.map(({ answers }, i) =>
      answers.map((a, j): MethodScore => {
        const r = res[i]![j]!;
        if (r instanceof Error) return { candidateId: a.id, error: `dpo-reward: ${r.message}` };
        return { candidateId: a.id, value: r.reward, evidence: { policy: r.policy, reference: r.reference, beta: this.s.beta, variant: this.s.variant } };
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.policy.close(), this.reference.close()]);
  }
}

/**
 * The dpo-reward method a config asks for: feedback.dpo_reward.policy (or the round's policy) against its reference,
 * each a model folder (scored in `pool`) or a served model. A policy that is its own reference is refused: every
 * reward would be 0.
 */
export function createDpoRewardMethod(config: Config, pool: WorkerPool | null, concurrency: number): DpoRewardMethod {
  const d = config.feedback.dpo_reward;
  const policy = d.policy ?? config.generate.backend;
  if (JSON.stringify(policy) === JSON.stringify(d.reference)) {
    throw new Error(
      `dpo_reward: the policy and its reference are the same model (${policy.model}): every reward would be 0; ` +
        'set feedback.dpo_reward.policy to the trained checkpoint and reference to what it was trained from',
    );
  }
  const scorer = (b: ModelBackend, field: string): SequenceScorer => {
    if (b.type === 'openai') return new OpenAISequenceScorer(b, 'score');
    try {
      return new LocalSequenceScorer(pool!, b.model);
    } catch (e) {
      throw new Error(`${field}: ${(e as Error).message}`);
    }
  };
  return new DpoRewardMethod(
    scorer(policy, d.policy ? 'feedback.dpo_reward.policy.model' : 'feedback.dpo_reward.generate.backend.model'),
    scorer(d.reference, 'feedback.dpo_reward.reference.model'),
    { beta: d.beta, variant: d.variant },
    concurrency,
  );
}
