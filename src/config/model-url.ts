// MODEL@URL: the one reader of a served model named on the command line or in loop.judge (bon, compare, eval's judge).
import { ConfigError } from '../errors.js';
import { modelBackend, type OpenAIBackend } from './schema.js';

/**
 * Reads "MODEL@http(s)://HOST:PORT/v1" as a served model (API key from the environment variable `apiKeyEnv`, if
 * given); null when `spec` is not of that form (a model folder, a word such as "claims"). The split is at the last
 * "@" that starts a URL, so a model name may hold "@" and a URL may not be mistaken for one. A served spec the
 * schema refuses is a ConfigError naming `field`.
 * @example parseModelAtUrl('my-dpo@http://gpu-1:8000/v1', '--policy') // { type: 'openai', model: 'my-dpo', base_urls: [...] }
 */
export function parseModelAtUrl(spec: string, field: string, apiKeyEnv?: string): OpenAIBackend | null {
  const m = /^(.+)@(https?:\/\/.*)$/i.exec(spec);
  if (!m) return null;
  const r = modelBackend.safeParse({ type: 'openai', model: m[1], base_urls: [m[2]], ...(apiKeyEnv ? { api_key_env: apiKeyEnv } : {}) });
  if (!r.success || r.data.type !== 'openai') {
    throw new ConfigError(`${field}: "${spec}" is not MODEL@URL with a base URL such as http://host:8000/v1 (${r.success ? 'not a served model' : r.error.issues[0]!.message}).`);
  }
  return r.data;
}
