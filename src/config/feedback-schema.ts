// `feedback`: the feedback method (divide, holistic, dpo-reward, oracle), its settings and the pair-quality gate.
import { z } from 'zod';
import { HOLISTIC_PROMPTS, HOLISTIC_YES_NO } from '../prompts/holistic.js';
import { ANYPREFER_PAIR_PROMPT } from '../prompts/pair-judge.js';
import { modelBackend, openaiModel } from './backend-schema.js';

const holisticPrompts = z.strictObject({
  hallucination: z.string().min(1).default(HOLISTIC_PROMPTS.hallucination),
  helpfulness: z.string().min(1).default(HOLISTIC_PROMPTS.helpfulness),
});

const holistic = z.strictObject({
  /** Which Table 13 rubrics a generative (remote) labeler applies; the answer's score is their sum. */
  aspects: z.array(z.enum(['hallucination', 'helpfulness'])).min(1).default(['hallucination', 'helpfulness']),
  prompts: holisticPrompts.prefault({}),
  /** The one question a yes/no labeler (the local one) is asked about the whole answer; its p(yes) is the score. */
  yes_no_question: z.string().min(1).default(HOLISTIC_YES_NO),
  max_tokens: z.number().int().positive().default(512),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply's last line is not a score. */
  content_retries: z.number().int().min(0).default(2),
});

const dpoReward = z.strictObject({
  /** The trained checkpoint that scores; null: the round's own policy (generate.backend). */
  policy: modelBackend.nullable().default(null),
  /** Its reference: the checkpoint it was trained from. */
  reference: modelBackend.prefault({ type: 'local', model: 'models/shapes-policy' }),
  beta: z.number().positive().default(0.1),
  /** sum: β(log π − log π_ref) of the whole answer; mean: of the per-token means (length-averaged). */
  variant: z.enum(['sum', 'mean']).default('sum'),
});

/** The gate's judge model (Anyprefer's reward model): a generative VLM on a server rates each candidate pair 1–10. */
const gateJudge = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(ANYPREFER_PAIR_PROMPT),
  /** {task_field} of the prompt. */
  task_field: z.string().min(1).default('vision-language understanding'),
  /** {examples} of the prompt: worked examples of rated pairs, if any. */
  examples: z.string().default(''),
  max_tokens: z.number().int().positive().default(1024),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply holds no "N/10" score. */
  content_retries: z.number().int().min(0).default(2),
});

/** The pair-quality gate (Anyprefer): pairs judged unsure are dropped (kept in the store), and prompts left without a pair are sampled again. */
const gate = z.strictObject({
  /**
   * Keep a pair when its judged confidence is at least this (0–1); null: no gate. Divide judges by its claims'
   * p(yes)/p(no); with `judge`, any method's pair is judged by the judge model (confidence = score/10).
   */
  threshold: z.number().min(0).max(1).nullable().default(null),
  /** A judge model that rates candidate pairs (needs a threshold); null: divide's own claims judge. */
  judge: gateJudge.nullable().default(null),
  /** A prompt left with no kept pair gets this many more samples (new recorded seeds), once, and is paired again. */
  top_up: z.number().int().min(0).max(1000).default(0),
});

/** The feedback method: how a prompt's answers become scores (src/methods/). */
export const feedback = z.strictObject({
  /**
   * divide: claims, yes/no labels, REJ-C/REJ-P (the paper); holistic: the labeler scores whole answers (Table 13);
   * dpo-reward: β·log(π/π_ref) of a trained checkpoint; oracle: the shapes truth checker (studies only).
   */
  method: z.enum(['divide', 'holistic', 'dpo-reward', 'oracle']).default('divide'),
  /**
   * The minimum score gap for a pair; null: the method's own (divide: pair.diff; holistic: 1 rubric point, or 0.05
   * of p(yes) for a yes/no labeler; dpo-reward: 1e-6, any real gap; oracle: 1 false claim).
   */
  min_gap: z.number().positive().nullable().default(null),
  holistic: holistic.prefault({}),
  dpo_reward: dpoReward.prefault({}),
  gate: gate.prefault({}),
});

/** The feedback method's settings. */
export type FeedbackConfig = z.infer<typeof feedback>;
/** The quality gate's judge model settings. */
export type GateJudgeConfig = z.infer<typeof gateJudge>;
/** A feedback method's name. */
export type FeedbackMethodName = FeedbackConfig['method'];
