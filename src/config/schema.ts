// The config file's shape: strict zod schemas (an unknown key is an error) with the method's defaults.
import { z } from 'zod';

const localModel = z.strictObject({
  type: z.literal('local'),
  /** A LLaVA-layout model folder (see models/). */
  model: z.string().min(1),
});

const openaiModel = z.strictObject({
  type: z.literal('openai'),
  model: z.string().min(1),
  base_urls: z.array(z.string().url()).min(1),
  /** Name of the environment variable holding the API key (the key itself never goes in a config). */
  api_key_env: z.string().optional(),
  api_key_file: z.string().optional(),
  max_in_flight: z.number().int().positive().default(8),
  timeout_ms: z.number().int().positive().default(120_000),
  max_retries: z.number().int().min(0).default(5),
});

/** Where a model runs: in-process from a folder, or on an OpenAI-compatible server. */
export const modelBackend = z.discriminatedUnion('type', [localModel, openaiModel]);

const generate = z.strictObject({
  backend: modelBackend.default({ type: 'local', model: 'models/shapes-policy' }),
  samples: z.number().int().min(1).max(1000).default(10),
  temperature: z.number().min(0).max(5).default(0.7),
  top_p: z.number().gt(0).max(1).default(1.0),
  max_new_tokens: z.number().int().positive().default(512),
});

const divide = z.strictObject({
  backend: z
    .discriminatedUnion('type', [z.strictObject({ type: z.literal('rules') }), openaiModel.extend({ type: z.literal('llm') })])
    .default({ type: 'rules' }),
  /** Cut the question-answer text to its first N words before dividing (the released scripts use 300); null = no cut. */
  max_words: z.number().int().positive().nullable().default(null),
});

const label = z.strictObject({
  backend: modelBackend.default({ type: 'local', model: 'models/shapes-labeler' }),
  /** Suffix appended to every yes/no question. */
  suffix: z.string().default(' Please answer yes or no.'),
  top_logprobs: z.number().int().min(1).max(20).default(20),
});

const score = z.strictObject({
  /** 'scripts': accepted iff p_yes > p_no (tie rejected); 'paper': rejected iff p_no > p_yes. */
  accept_rule: z.enum(['scripts', 'paper']).default('scripts'),
  /** Which score ranks answers for pairing; both are always stored. */
  method: z.enum(['rejc', 'rejp']).default('rejc'),
});

const pair = z.strictObject({
  strategy: z.string().default('rlaifv'),
  diff: z.number().positive().default(1),
  max_pairs: z.union([z.number().int().min(0), z.literal('all')]).default(2),
  length_balance: z.boolean().default(true),
});

const limits = z.strictObject({
  max_image_bytes: z.number().int().positive().default(20 * 1024 * 1024),
  max_image_pixels: z.number().int().positive().default(40_000_000),
  max_question_chars: z.number().int().positive().default(4000),
});

/** The whole config file. */
export const configSchema = z.strictObject({
  prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  db: z.string().min(1).default('db/rlaifv.sqlite'),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  workers: z.number().int().positive().nullable().default(null),
  on_error: z.enum(['stop', 'skip']).default('skip'),
  limits: limits.default(limits.parse({})),
  generate: generate.default(generate.parse({})),
  divide: divide.default(divide.parse({})),
  label: label.default(label.parse({})),
  score: score.default(score.parse({})),
  pair: pair.default(pair.parse({})),
});

/** A resolved config: every default filled in. */
export type Config = z.infer<typeof configSchema>;
/** A model backend choice. */
export type ModelBackend = z.infer<typeof modelBackend>;
