// The feedback-method seam: a prompt's answers in, one score per answer (with its evidence) out.
import type { Turn } from '../domain.js';
import type { FeedbackMethodName } from '../config/schema.js';

/** A prompt as a method sees it. */
export interface MethodPrompt {
  id: string;
  imagePath: string;
  question: string;
  history: Turn[];
  /** The prompt's meta (the shapes truth lives in meta.truth). */
  meta: unknown;
}

/** An answer to score. */
export interface MethodAnswer {
  id: string;
  text: string;
  words: number;
}

/**
 * One answer's score: higher is better, null when the method judged it but could give no number (kept, never
 * paired); or a failure with its reason and the raw model output, stored in `failures` and retried by --retry-failed.
 */
export type MethodScore =
  | { candidateId: string; value: number | null; evidence: Record<string, unknown> }
  | { candidateId: string; error: string; raw?: string };

/**
 * A feedback method other than divide (divide's claims, labels and REJ-C/REJ-P run as their own stages). Pairing,
 * length balance, exports, eval and the report read its stored scores and never ask which method made them.
 */
export interface FeedbackMethod {
  readonly name: Exclude<FeedbackMethodName, 'divide'>;
  /** What scores: model ids and the prompt or variant, stored with every score (answer_scores.scorer). */
  readonly scorer: string;
  /** Answers of several prompts go in one call up to this many prompts (a local model batches them). */
  readonly promptsPerCall: number;
  /** Calls in flight at once (a server pool's capacity, or the local workers). */
  readonly concurrency: number;
  /** Scores the answers of each prompt: one MethodScore per answer, in order. Throws only for fatal backend errors. */
  score(items: { prompt: MethodPrompt; answers: MethodAnswer[] }[]): Promise<MethodScore[][]>;
  close(): Promise<void>;
}
