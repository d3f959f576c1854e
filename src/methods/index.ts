// The feedback methods by name: divide runs as the divide, label and score stages; every other method is one module
// behind FeedbackMethod (types.ts), made here from the config. A new method is one more file and one more case.
import type { Config, FeedbackMethodName } from '../config/schema.js';
import type { Labeler } from '../backends/types.js';
import { OpenAIJudge } from '../backends/openai/judge.js';
import { RubricHolistic, YesNoHolistic } from './holistic.js';
import { OracleMethod } from './oracle.js';
import type { Tool } from '../tools/types.js';
import { createDpoRewardMethod } from './dpo-reward.js';
import type { WorkerPool } from '../backends/local/pool.js';
import type { FeedbackMethod } from './types.js';

export type { FeedbackMethod, MethodAnswer, MethodPrompt, MethodScore } from './types.js';
export { parseRubricScore } from './holistic.js';

/** Every feedback method, as `feedback.method` names them. */
export const FEEDBACK_METHODS: readonly FeedbackMethodName[] = ['divide', 'holistic', 'dpo-reward', 'oracle'];

/** What a method may use: the round's labeler, the local worker pool (null when nothing runs locally) and its concurrency. */
export interface MethodDeps {
  labeler: Labeler;
  pool: WorkerPool | null;
  /** Calls a local model keeps in flight. */
  localConcurrency: number;
  /** label.tools: a served rubric's {context} gets their knowledge of the image. */
  tools?: readonly Tool[];
}

/**
 * The method a config asks for; null for divide (its own stages). The error lists the valid names.
 * @example createMethod(config, { labeler, pool, localConcurrency: 4 })?.score([{ prompt, answers }])
 */
export function createMethod(config: Config, deps: MethodDeps): FeedbackMethod | null {
  const name = config.feedback.method;
  switch (name) {
    case 'divide':
      return null;
    case 'holistic': {
      const b = config.label.backend;
      const h = config.feedback.holistic;
      return b.type === 'openai'
        ? new RubricHolistic(new OpenAIJudge(b, { temperature: h.temperature, maxTokens: h.max_tokens }), h, deps.tools)
        : new YesNoHolistic(deps.labeler, h.yes_no_question, deps.localConcurrency);
    }
    case 'oracle':
      return new OracleMethod();
    case 'dpo-reward':
      return createDpoRewardMethod(config, deps.pool, deps.localConcurrency);
    default:
      throw new Error(`Unsupported feedback method: ${String(name)}. Must be one of [${FEEDBACK_METHODS.join(', ')}].`);
  }
}

/** What a pair's minimum score gap depends on, as a config (or a round's stored config) says it. */
export interface GapSettings {
  method: string;
  /** feedback.min_gap: overrides the method's own. */
  minGap: number | null;
  /** pair.diff: divide's gap. */
  diff: number;
  /** Whether the labeler is on a server (a generative judge gives rubric points, the local one p(yes)). */
  labelerRemote: boolean;
}

/**
 * The minimum score gap of a pair: feedback.min_gap, else the method's own (divide: pair.diff; holistic: 1 rubric
 * point, or 0.05 of p(yes) for a yes/no labeler; dpo-reward: any gap beyond floating-point noise, 1e-6; oracle: 1
 * false statement). The pair stage and the evaluation both take it from here.
 * @example pairGap({ method: 'oracle', minGap: null, diff: 1, labelerRemote: false }) // 1
 */
export function pairGap(g: GapSettings): number {
  if (g.minGap !== null) return g.minGap;
  if (g.method === 'holistic') return g.labelerRemote ? 1 : 0.05;
  if (g.method === 'dpo-reward') return 1e-6;
  if (g.method === 'oracle') return 1;
  return g.diff;
}
