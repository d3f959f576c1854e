// What to do about a failed request to an OpenAI-compatible server: retry it, refuse the one item, switch to
// max_completion_tokens, or stop the run with a message that says what to change.
import OpenAI from 'openai';
import { errorEnvelope } from './client.js';
import { BadResponseError, FatalBackendError } from '../errors.js';

/** Retry-After (seconds or HTTP date) or retry-after-ms of an error response, in ms. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers || typeof headers.get !== 'function') return null;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (!ra) return null;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Math.max(0, Number(ra) * 1000);
  const t = Date.parse(ra);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

/**
 * What to do about an error: retry it; refuse this one item (a failure with the server's text, the run goes on);
 * send the request again with max_completion_tokens (OpenAI's newer models refuse max_tokens); or stop the run
 * with a message that says what to change.
 */
export type ErrorAction =
  | { kind: 'retry'; reason: string; waitMs: number | null }
  | { kind: 'item'; message: string }
  | { kind: 'max-completion-tokens' }
  | { kind: 'fatal'; message: string };

/** A 400 about what one item holds: its length, its image, its conversation. vLLM's and SGLang's texts. */
const ITEM_400 = /context length|maximum model length|max_model_len|is longer than|too long|too large|too many tokens|exceeds|image|decode|multimodal|chat template|jinja|template|roles must alternate/i;

/** Classifies an error of one request to `ctx.endpoint` (see ErrorAction). */
export function classifyError(e: unknown, ctx: { role: string; endpoint: string; model: string }): ErrorAction {
  const where = `${ctx.role} endpoint ${ctx.endpoint}`;
  const fatal = (message: string): ErrorAction => ({ kind: 'fatal', message });
  if (e instanceof FatalBackendError) return fatal(e.message);
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'retry', reason: 'timeout', waitMs: null };
  if (e instanceof OpenAI.APIConnectionError) return { kind: 'retry', reason: `connection error: ${e.message}`, waitMs: null };
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const s = e.status;
    // The SDK puts the status first ("400 Requested ..."); the server's own text is what a user needs.
    const detail = (e.message || '').replace(/^\d{3}\s+/, '').slice(0, 400);
    if (s === 429 || s === 408 || s === 409 || s >= 500) {
      return { kind: 'retry', reason: `HTTP ${s}: ${detail}`, waitMs: retryAfterMs(e.headers as Headers | undefined) };
    }
    if (s === 401 || s === 403) {
      return fatal(`${where} refused the API key (HTTP ${s}); set ${ctx.role}.backend.api_key_env or api_key_file to a valid key. Server said: ${detail}`);
    }
    if (s === 404 && errorEnvelope(e) === 'fastapi') {
      // FastAPI's own 404: the route is not there (vLLM and SGLang answer an unknown model in their own envelope).
      return fatal(`${where} has no chat completions route (HTTP 404: ${detail}); ${ctx.role}.backend.base_urls must be the server's OpenAI base URL, ending in /v1 (e.g. http://host:8000/v1).`);
    }
    if (s === 404) {
      return fatal(`${where} does not serve model "${ctx.model}" (HTTP 404); set ${ctx.role}.backend.model to a served model name (see GET ${ctx.endpoint}/models). Server said: ${detail}`);
    }
    if (/max_completion_tokens/.test(detail) && /max_tokens/.test(detail)) return { kind: 'max-completion-tokens' };
    if (/prompt_logprobs/i.test(detail)) {
      return fatal(`${where} refused prompt_logprobs (HTTP ${s}); answer log-probs need a server that returns the prompt's log-probs of a chat request (vLLM does; OpenAI's API does not). Server said: ${detail}`);
    }
    if (/logprob/i.test(detail)) {
      return fatal(`${where} refused the logprobs request (HTTP ${s}); lower label.top_logprobs to at most the server's limit (vLLM: --max-logprobs) or use a server that returns logprobs. Server said: ${detail}`);
    }
    if (/model/i.test(detail) && /(not exist|not found|unknown)/i.test(detail)) {
      return fatal(`${where} does not serve model "${ctx.model}" (HTTP ${s}); set ${ctx.role}.backend.model. Server said: ${detail}`);
    }
    if (/unrecognized request argument|unsupported parameter|extra inputs are not permitted|unknown field/i.test(detail)) {
      return fatal(`${where} refused a request field (HTTP ${s}); if this server is neither vLLM nor SGLang, set ${ctx.role}.backend.server to "openai" so only standard fields are sent. Server said: ${detail}`);
    }
    if (/unsupported value/i.test(detail) && /temperature/i.test(detail)) {
      return fatal(`${where} refused the temperature (HTTP ${s}); this model (an OpenAI reasoning model?) samples only at its default temperature, which rlaifv's method needs to set. Server said: ${detail}`);
    }
    // Anything else about this one request (its length, its image, its template) refuses this item alone.
    return { kind: 'item', message: `${where} refused this item (HTTP ${s}): ${detail}` };
  }
  if (e instanceof BadResponseError || e instanceof SyntaxError) return { kind: 'retry', reason: `bad response: ${(e as Error).message}`, waitMs: null };
  if (e instanceof Error && /fetch failed|socket|ECONNRESET|ECONNREFUSED|EPIPE|terminated|other side closed/i.test(e.message)) {
    return { kind: 'retry', reason: `connection error: ${e.message}`, waitMs: null };
  }
  return fatal(`${where}: ${(e as Error)?.message ?? String(e)}`);
}

/** Whether an item's refusal reads like one about the item itself (ITEM_400), or could be a setting (see EndpointPool). */
export function isItemRefusal(message: string): boolean {
  return ITEM_400.test(message);
}
