// The one way rlaifv makes an OpenAI SDK client. Its fetch rewrites error bodies the SDK cannot read into the shape
// it can, before the SDK sees them: the SDK takes a message only from `body.error`, while SGLang and vLLM before
// 0.10.1 answer with a flat `{"object":"error","message":…}` and FastAPI's own errors (an unknown route, a request
// that fails validation) are `{"detail":…}`. Without this every such error reads "400 status code (no body)".
import type OpenAI from 'openai';

/** Which shape an error body came in: the OpenAI/vLLM ≥ 0.10.1 nesting, SGLang's and old vLLM's flat one, FastAPI's. */
export type ErrorEnvelope = 'nested' | 'flat' | 'fastapi' | 'text';

/** An error body as the SDK reads it, with the envelope it came in. */
export interface ReadableError {
  error: { message: string; type?: unknown; param?: unknown; code?: unknown; envelope: ErrorEnvelope };
}

/** FastAPI's `detail`: a string, or a validation error list of {loc, msg}. */
function detailText(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d) => {
        const loc = Array.isArray(d?.loc) ? d.loc.filter((x: unknown) => x !== 'body').join('.') : '';
        const msg = typeof d?.msg === 'string' ? d.msg : JSON.stringify(d);
        return loc ? `${loc}: ${msg}` : msg;
      })
      .join('; ');
  }
  return JSON.stringify(detail);
}

/**
 * The error body of a failed response in the shape the SDK reads (`{error: {message, …}}`), from any of the shapes
 * servers send; null when the text is not JSON (the SDK then shows the text itself).
 * @example readableError('{"object":"error","message":"Requested sample logprobs of 21, …","type":"BadRequestError","param":null,"code":400}')
 */
export function readableError(text: string): ReadableError | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return { error: { message: String(body), envelope: 'text' } };
  const b = body as Record<string, unknown>;
  const e = b.error;
  if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') {
    return { error: { ...(e as { message: string }), envelope: 'nested' } };
  }
  // Text Generation Inference and some proxies: {"error": "text", "error_type": …}.
  if (typeof e === 'string') return { error: { message: e, type: b.error_type ?? b.type, envelope: 'flat' } };
  if (typeof b.message === 'string') return { error: { message: b.message, type: b.type, param: b.param, code: b.code, envelope: 'flat' } };
  // SGLang's native routes (/load_lora_adapter, /update_weights_from_disk) answer {success: false, error_message}.
  if (typeof b.error_message === 'string' && b.error_message) return { error: { message: b.error_message, envelope: 'flat' } };
  if ('detail' in b) return { error: { message: detailText(b.detail), envelope: 'fastapi' } };
  return { error: { message: JSON.stringify(body), envelope: 'text' } };
}

/** The envelope an SDK error came in (null for errors without a body, or made elsewhere). */
export function errorEnvelope(e: unknown): ErrorEnvelope | null {
  const env = (e as { error?: { envelope?: unknown } })?.error?.envelope;
  return env === 'nested' || env === 'flat' || env === 'fastapi' || env === 'text' ? env : null;
}

/** A fetch whose failed responses carry a body the SDK can read (see readableError). */
export function errorReadingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok) return res;
    const text = await res.text();
    const readable = readableError(text);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (readable) headers.set('content-type', 'application/json');
    return new Response(readable ? JSON.stringify(readable) : text, { status: res.status, statusText: res.statusText, headers });
  };
}

const readingFetch = errorReadingFetch();

/**
 * An SDK client for one base URL: no SDK retries (rlaifv's own pool retries), and errors with the server's text.
 * Servers without auth (a local vLLM) still need a non-empty key for the SDK.
 */
export async function openaiClient(baseURL: string, apiKey: string | null, opts: { timeout?: number; maxRetries?: number } = {}): Promise<OpenAI> {
  // The SDK is loaded by the first client made, not with this module (0.08 s of CPU a process need not pay).
  const { default: OpenAI } = await import('openai');
  return new OpenAI({
    baseURL,
    apiKey: apiKey ?? 'EMPTY',
    maxRetries: opts.maxRetries ?? 0,
    ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
    fetch: readingFetch,
  });
}

/**
 * A POST to a route at the server's root (vLLM's /tokenize and /detokenize, SGLang's /load_lora_adapter), with the
 * client's key; a failure is thrown as the SDK's APIError (its body made readable), so it is classified like any.
 */
export async function postRoot<T>(client: OpenAI, route: string, body: unknown, timeoutMs = 30_000): Promise<T> {
  const root = client.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const key = client.apiKey && client.apiKey !== 'EMPTY' ? client.apiKey : null;
  const { default: OpenAI } = await import('openai');
  let res: Response;
  try {
    res = await readingFetch(`${root}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') throw new OpenAI.APIConnectionTimeoutError();
    throw new OpenAI.APIConnectionError({ message: (e as Error).message, cause: e as Error });
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // a text answer
  }
  if (!res.ok) throw OpenAI.APIError.generate(res.status, json as Record<string, unknown> | undefined, json ? undefined : text, res.headers);
  return (json ?? text) as T;
}
