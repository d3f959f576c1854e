// `pair`: how scored answers become pairs, with correction pairs, their editors (the rewriter, refine's teacher).
import { z } from 'zod';
import { CORRECTION_EDITORS } from '../feedback/corrections.js';
import { REWRITE_PROMPT } from '../prompts/rewrite.js';
import { TEACHER_PROMPT } from '../prompts/teacher.js';
import { openaiModel } from './backend-schema.js';

/** The `llm` correction editor: a served model rewriting an answer's wrong sentences (pair.corrections "llm"). */
const rewriter = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(REWRITE_PROMPT),
  max_tokens: z.number().int().positive().default(512),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply is empty. */
  content_retries: z.number().int().min(0).default(1),
});

/** A served teacher for the `refine` editor's detailed feedback, on prompts that hold a reference answer. */
const teacher = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(TEACHER_PROMPT),
  max_tokens: z.number().int().positive().default(256),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply holds no "Score: N". */
  content_retries: z.number().int().min(0).default(1),
});

/**
 * The `refine` correction editor: each sampled answer with a rejected claim starts a dialogue in which the teacher's
 * comment (from the labeler's verdicts) is given to the round's policy, which answers again, until no claim is
 * rejected or max_turns revisions.
 */
const refine = z.strictObject({
  /** Revisions per dialogue at most (fewer where the conversation no longer fits the policy's context). */
  max_turns: z.number().int().min(1).max(10).default(3),
  /** What the teacher says: 'detailed' (a score and each rejected claim's correction) or 'simple' ("Your answer has errors."). */
  feedback: z.enum(['simple', 'detailed']).default('detailed'),
  /** The revisions' sampling temperature (0: greedy, as InterFeedback's feedback round); the rest of generate.decoding applies. */
  temperature: z.number().min(0).max(2).default(0),
  /**
   * A served teacher with FIRE's prompt, for the detailed feedback on prompts whose meta holds a reference answer
   * (`reference_field`); other prompts get the labeler's verdicts as their teacher. null: always the verdicts.
   */
  teacher: teacher.nullable().default(null),
  /** The prompt meta field holding a reference answer (JSONL `meta.reference`; a LLaVA conversation's last gpt turn). */
  reference_field: z.string().min(1).default('reference'),
});

/** `pair`: how a prompt's scored answers become pairs. */
export const pair = z.strictObject({
  strategy: z.string().default('rlaifv'),
  diff: z.number().positive().default(1),
  max_pairs: z.union([z.number().int().min(0), z.literal('all')]).default(2),
  length_balance: z.boolean().default(true),
  /**
   * An answer whose distinct yes/no questions are fewer than its claims: 'drop' is never paired (the released scripts
   * key verdicts by question text, then find fewer than claims); 'keep' pairs it (rlaifv before this setting).
   */
  repeated_claims: z.enum(['drop', 'keep']).default('drop'),
  /**
   * Correction pairs (src/feedback/corrections.ts): each editor rewrites every answer with rejected claims; a corrected
   * answer is divided, labeled and scored like any answer and becomes the chosen side over its original when it has
   * no rejected claim, or fewer by at least pair.diff. 'drop' removes the rejected sentences; 'overwrite' replaces
   * each with an accepted sentence about the same subject from the prompt's other samples. [] (default): none.
   */
  corrections: z
    .array(z.enum(CORRECTION_EDITORS))
    .default([])
    .refine((l) => new Set(l).size === l.length, 'each editor once'),
  /** Rank pairs (better vs worse sampled answers); false: a round pairs only corrections (needs pair.corrections). */
  rank_pairs: z.boolean().default(true),
  /** The `refine` editor's refinement dialogues (FIRE's student/teacher turns, src/feedback/refine.ts). */
  refine: refine.prefault({}),
  /** The served rewriter of the 'llm' editor; null: none (then 'llm' cannot be used). */
  rewriter: rewriter.nullable().default(null),
  /**
   * Teacher-force every answer of each paired prompt under the round's policy (generate.backend) and store its
   * log-probs (sum, mean, per token): the pairs' reference log-probs for the trainer, and the siblings the on-policy
   * check ranks a chosen answer among.
   */
  reference_logprobs: z.boolean().default(false),
});

/** The `refine` editor's served teacher settings. */
export type TeacherConfig = z.infer<typeof teacher>;
/** The `llm` correction editor's rewriter settings. */
export type RewriterConfig = z.infer<typeof rewriter>;
