// The config's model backends: in-process from a folder, or on OpenAI-compatible servers; and the LLM divider.
import { z } from 'zod';
import { CONVERT_PROMPT, SPLIT_PROMPT } from '../prompts/divide.js';

/** What a server backend's `server` may say (see backends/openai/server-kind.ts). */
export const SERVER_KINDS = ['auto', 'vllm', 'sglang', 'openai'] as const;

const localModel = z.strictObject({
  type: z.literal('local'),
  /** A LLaVA-layout model folder (see models/). */
  model: z.string().min(1),
});

/** How rlaifv talks to one or more OpenAI-compatible servers serving the same model (operational: not in the config hash). */
const serverFields = {
  /** The model name the server serves (vLLM: the `--served-model-name`, or the path it was started with). */
  model: z.string().min(1),
  /** One or more base URLs ending in /v1; requests go to the least-loaded one that is not resting. */
  base_urls: z.array(z.string().url()).min(1),
  /** Name of the environment variable holding the API key (the key itself never goes in a config). */
  api_key_env: z.string().min(1).optional(),
  /** A file whose first line is the API key (relative to the config file). */
  api_key_file: z.string().min(1).optional(),
  /** Requests in flight at once, per endpoint. */
  max_in_flight: z.number().int().positive().default(8),
  /** Per-request timeout. */
  timeout_ms: z.number().int().positive().default(120_000),
  /** Retries of one request (429, 5xx, timeouts, dropped connections, malformed responses) before it is a failure. */
  max_retries: z.number().int().min(0).default(5),
  /** First backoff delay; it doubles per retry (with full jitter) up to `max_backoff_ms`; a Retry-After header wins when longer. */
  min_backoff_ms: z.number().int().min(0).default(500),
  max_backoff_ms: z.number().int().min(0).default(30_000),
  /** After this many failures in a row an endpoint rests (gets no requests) for `rest_ms`, doubling while it keeps failing. */
  rest_after_failures: z.number().int().positive().default(3),
  rest_ms: z.number().int().positive().default(10_000),
  /**
   * What the server is: vLLM and SGLang get every sampling field (top_k, min_p, repetition_penalty, …) so the model's
   * generation_config.json can't change the decoding; OpenAI's API (and any other server) only standard fields.
   * auto (the default): asked once per base URL (GET /models, /get_model_info, /version).
   */
  server: z.enum(SERVER_KINDS).optional(),
  /**
   * Sent as chat_template_kwargs to vLLM and SGLang, e.g. {"enable_thinking": false} for a reasoning model; unset:
   * none (the labeler then sends {"enable_thinking": false}, so a thinking model's first token is its answer).
   */
  chat_template_kwargs: z.record(z.string(), z.unknown()).optional(),
};

/** One or more OpenAI-compatible servers serving the same model. */
export const openaiModel = z.strictObject({
  type: z.literal('openai'),
  ...serverFields,
});

/** The LLM divider: the paper's split and convert prompts on a served model. */
export const llmDivider = z.strictObject({
  type: z.literal('llm'),
  ...serverFields,
  /** Split template: {question} and {answer} are replaced (the paper's prompt by default). */
  split_prompt: z.string().min(1).default(SPLIT_PROMPT),
  /** Convert template: {claims} is replaced by "- claim" lines (the paper's prompt by default). */
  convert_prompt: z.string().min(1).default(CONVERT_PROMPT),
  temperature: z.number().min(0).max(2).default(0),
  max_tokens: z.number().int().positive().default(1024),
  /** Extra attempts when the output can't be parsed or the converter returns a different number of questions than claims. */
  content_retries: z.number().int().min(0).default(2),
});

/** Where a model runs: in-process from a folder, or on an OpenAI-compatible server. */
export const modelBackend = z.discriminatedUnion('type', [localModel, openaiModel]);

/** An OpenAI-compatible server backend (policy or labeler). */
export type OpenAIBackend = z.infer<typeof openaiModel>;
/** The LLM divider backend. */
export type LlmDividerBackend = z.infer<typeof llmDivider>;
/** A model backend choice. */
export type ModelBackend = z.infer<typeof modelBackend>;
