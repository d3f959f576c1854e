// The roles a model plays: the three of a round (policy, labeler, divider), and a scorer of whole answers (the DPO
// reward's policy and reference). A backend implements one role; stages only see these interfaces.
import type { Turn } from '../domain.js';

/** Decoding settings, the same for every sample of a round. */
export interface Decoding {
  temperature: number;
  top_p: number;
  max_new_tokens: number;
  /** Optional filters a server's request may carry (the test server's mimic passes them to the local sampler). */
  top_k?: number;
  min_p?: number;
  repetition_penalty?: number;
}

/** One prompt's request for samples, each with its own recorded seed. */
export interface GenerateRequest {
  imagePath: string;
  /** The last user turn: the one the policy answers. */
  question: string;
  /** The earlier turns, user first and alternating; absent or empty for a single-turn prompt. */
  history?: Turn[];
  samples: { index: number; seed: number }[];
  decoding: Decoding;
}

/** One sampled answer, or the reason it could not be had. */
export type GenerateResult =
  | {
      index: number;
      seed: number;
      text: string;
      finishReason: string;
      promptTokens: number | null;
      completionTokens: number | null;
      /** The server that answered (a served policy), for the guards that stop a misbehaving endpoint. */
      endpoint?: string;
    }
  | { index: number; seed: number; error: string };

/** The policy: answers a prompt N times. */
export interface Generator {
  readonly id: string;
  generate(req: GenerateRequest): Promise<GenerateResult[]>;
  /** A served policy: stop sending samples to one endpoint (GenerateResult.endpoint), for the reason given. */
  stopEndpoint?(endpoint: string, reason: string): void;
  close(): Promise<void>;
}

/** The labeler's reading of one question; p_yes/p_no are null when its top tokens had neither. */
export interface LabelResult {
  pYes: number | null;
  pNo: number | null;
  top: { token: string; p: number }[];
  boundUsed: boolean;
  error?: string;
}

/** The labeler: p(yes), p(no) for questions about one image. */
export interface Labeler {
  readonly id: string;
  label(imagePath: string, questions: string[]): Promise<LabelResult[]>;
  /**
   * Optional: questions about several images in one call (results per image, per question, in order), for a labeler
   * that batches across images (the local one). Each result must not depend on which other images share the call;
   * an image that cannot be read fails its own questions only.
   */
  labelImages?(items: { imagePath: string; questions: string[] }[]): Promise<LabelResult[][]>;
  close(): Promise<void>;
}

/**
 * One claim of a divided answer with its yes/no question; `start`/`end` are the character range [start, end) of its
 * source text in the answer as given (null when the divider rewrote it so that it is not found there).
 */
export interface DividedAnswerClaim {
  sentence: string;
  claim: string;
  question: string;
  start: number | null;
  end: number | null;
}

/** A divided answer (claims with their yes/no questions), or the reason it could not be divided. */
export type DivideOutput =
  | {
      claims: DividedAnswerClaim[];
      skipped: { sentence: string; reason: string }[];
      truncated: boolean;
    }
  | { error: string; raw?: string };

/** The divider: answers -> atomic claims -> yes/no questions. */
export interface Divider {
  readonly id: string;
  divide(items: { question: string; answer: string }[]): Promise<DivideOutput[]>;
  close(): Promise<void>;
}

/**
 * One answer's summed token log-probability given its image and conversation (teacher-forced), and how many tokens
 * were summed: the answer's tokens and the end-of-sequence (end-of-turn) token, as DPO trainers count them.
 */
export interface SequenceLogprob {
  sum: number;
  tokens: number;
  /** Each counted token's log-probability, in order (its sum is `sum`); the reference log-probs store them. */
  perToken?: number[];
}

/** One prompt (image, conversation ending with a user turn) and answers to it to score. */
export interface SequenceScoreItem {
  imagePath: string;
  question: string;
  history?: Turn[];
  answers: string[];
}

/**
 * A model as a scorer of whole answers: log π(y|x) of each answer (the DPO reward takes it under the policy and the
 * reference). Results are per item, per answer, in order; an answer (or an item) that cannot be scored gets an Error
 * in its place, and a mistake retrying cannot fix (a server without prompt log-probs) throws.
 */
export interface SequenceScorer {
  readonly id: string;
  logprobs(items: SequenceScoreItem[]): Promise<(SequenceLogprob | Error)[][]>;
  close(): Promise<void>;
}
