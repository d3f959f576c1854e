// The config file's shape: strict zod schemas (an unknown key is an error) with the method's defaults. Sections with
// their own file: backends (backend-schema.ts), feedback, pair, loop, serve and reward; the paper's prompt templates
// are in src/prompts/. This module assembles them and re-exports their names.
import { z } from 'zod';
import { DEFAULT_DB } from './default-db.js';
import { INPUT_FORMATS } from './input-formats.js';
import { QUESTION_FORMS } from '../shapes/form.js';
import { VLM_TOOL_PROMPT } from '../prompts/vlm-tool.js';
import { llmDivider, modelBackend, openaiModel } from './backend-schema.js';
import { feedback } from './feedback-schema.js';
import { loop } from './loop-schema.js';
import { pair } from './pair-schema.js';
import { rewardSchema, serveSchema } from './serve-schema.js';

export { SERVER_KINDS, modelBackend, type LlmDividerBackend, type ModelBackend, type OpenAIBackend } from './backend-schema.js';
export type { FeedbackConfig, FeedbackMethodName, GateJudgeConfig } from './feedback-schema.js';
export { DEFAULT_ONLINE_TRAINER, DEFAULT_TRAINER, type LoopConfig } from './loop-schema.js';
export type { RewriterConfig, TeacherConfig } from './pair-schema.js';
export { CONVERT_PROMPT, SPLIT_PROMPT } from '../prompts/divide.js';
export { HOLISTIC_PROMPTS, HOLISTIC_YES_NO } from '../prompts/holistic.js';
export { ANYPREFER_PAIR_PROMPT } from '../prompts/pair-judge.js';
export { REWRITE_PROMPT } from '../prompts/rewrite.js';
export { TEACHER_PROMPT } from '../prompts/teacher.js';
export { VLM_TOOL_PROMPT };

const generate = z.strictObject({
  backend: modelBackend.prefault({ type: 'local', model: 'models/shapes-policy' }),
  samples: z.number().int().min(1).max(1000).default(10),
  temperature: z.number().min(0).max(5).default(0.7),
  top_p: z.number().gt(0).max(1).default(1.0),
  max_new_tokens: z.number().int().positive().default(512),
});

const divide = z.strictObject({
  backend: z
    .discriminatedUnion('type', [z.strictObject({ type: z.literal('rules') }), llmDivider])
    .default({ type: 'rules' }),
  /** Cut the question-answer text to its first N words before dividing (the released scripts use 300); null = no cut. */
  max_words: z.number().int().positive().nullable().default(null),
});

/** Knowledge tools (src/tools/): each reads an image, never its metadata; `name` is the verdict source it stores. */
const labelTool = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('shapes-segmenter'),
    name: z.string().min(1).default('shapes-segmenter'),
    /** Guess each object's shape from its mask (else shape is unknown, as with class-free masks). */
    shape_heuristic: z.boolean().default(false),
  }),
  z.strictObject({
    type: z.literal('detector'),
    name: z.string().min(1).default('detector'),
    /** A transformers.js zero-shot-object-detection model folder (OWL-ViT layout). */
    model: z.string().min(1),
    /** A detection counts when its score reaches this. */
    threshold: z.number().min(0).max(1).default(0.1),
  }),
  z.strictObject({
    type: z.literal('vlm'),
    name: z.string().min(1).default('vlm'),
    backend: openaiModel,
    prompt: z.string().min(1).default(VLM_TOOL_PROMPT),
    max_tokens: z.number().int().positive().default(256),
  }),
]);

/** A routing table: claim form -> the verdict source that decides it (a tool's name, or "labeler"). */
export const routingTable = z.partialRecord(z.enum(QUESTION_FORMS), z.string().min(1));

const label = z.strictObject({
  backend: modelBackend.prefault({ type: 'local', model: 'models/shapes-labeler' }),
  /** Suffix appended to every yes/no question. */
  suffix: z.string().default(' Please answer yes or no.'),
  top_logprobs: z.number().int().min(1).max(20).default(20),
  /** Knowledge tools whose verdicts replace the labeler's on the claim forms `routing` gives them (see README "Tools"). */
  tools: z.array(labelTool).default([]),
  /** Claim form -> verdict source (a tool's name or "labeler"), or the file `rlaifv calibrate-tools` wrote; null: none. */
  routing: z.union([z.string().min(1), routingTable]).nullable().default(null),
});

const score = z.strictObject({
  /** 'scripts': accepted iff p_yes > p_no (tie rejected); 'paper': rejected iff p_no > p_yes. */
  accept_rule: z.enum(['scripts', 'paper']).default('scripts'),
  /** Which score ranks answers for pairing; both are always stored. */
  method: z.enum(['rejc', 'rejp']).default('rejc'),
});

const limits = z.strictObject({
  max_image_bytes: z.number().int().positive().default(20 * 1024 * 1024),
  max_image_pixels: z.number().int().positive().default(40_000_000),
  max_question_chars: z.number().int().positive().default(4000),
  /** An http(s) image is fetched once into the store's image folder: time limit per attempt, extra attempts. */
  fetch_timeout_ms: z.number().int().positive().default(30_000),
  fetch_retries: z.number().int().min(0).default(3),
});

/** The whole config file. */
export const configSchema = z.strictObject({
  prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  db: z.string().min(1).default(DEFAULT_DB),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  workers: z.number().int().positive().nullable().default(null),
  /** `run` streams prompts through the stages this many at a time (operational: not in the config hash). */
  chunk_prompts: z.number().int().positive().default(32),
  on_error: z.enum(['stop', 'skip']).default('skip'),
  /** How the prompts file is read: 'auto' goes by its extension (src/input/formats.ts). */
  input_format: z.enum(INPUT_FORMATS).default('auto'),
  /** Column names of a data-set prompts file (Parquet, RLAIF-V rows) where they differ from image / question / id. */
  input_columns: z
    .strictObject({ image: z.string().min(1).optional(), question: z.string().min(1).optional(), id: z.string().min(1).optional() })
    .default({}),
  limits: limits.prefault({}),
  generate: generate.prefault({}),
  divide: divide.prefault({}),
  label: label.prefault({}),
  score: score.prefault({}),
  feedback: feedback.prefault({}),
  pair: pair.prefault({}),
  loop: loop.prefault({}),
  /** `rlaifv serve`'s reward definition (not in the config hash: it changes no stored result). */
  reward: rewardSchema.prefault({}),
  /** `rlaifv serve`: where it listens and what it reads (not in the config hash). */
  serve: serveSchema.prefault({}),
});

/** A resolved config: every default filled in. */
export type Config = z.infer<typeof configSchema>;
/** One knowledge tool's settings (label.tools). */
export type ToolConfig = z.infer<typeof labelTool>;
