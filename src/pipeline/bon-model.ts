// `rlaifv bon`'s and `rlaifv compare`'s model flags, apart from the runner, so the command parses them (and refuses a
// missing prompts file) before the runner, the backends and the OpenAI SDK are loaded.
import { parseModelAtUrl } from '../config/model-url.js';
import type { OpenAIBackend } from '../config/schema.js';

/** A model of a best-of-N run: a local model folder, or a served model (its server must give answer log-probs: vLLM). */
export type BonModel = string | OpenAIBackend;

/**
 * A --policy or --ref value: "MODEL@http(s)://HOST:PORT/v1" is a model served there (with the API key from the
 * environment variable `apiKeyEnv`, if given), anything else a model folder. A bad served spec is a ConfigError
 * naming the flag.
 * @example parseBonModel('my-dpo@http://gpu-1:8000/v1', '--policy') // { type: 'openai', model: 'my-dpo', base_urls: [...], ... }
 */
export function parseBonModel(spec: string, flag: string, apiKeyEnv?: string): BonModel {
  return parseModelAtUrl(spec, flag, apiKeyEnv) ?? spec;
}
