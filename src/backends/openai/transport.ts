// The hot path to a server: chat completions and root routes (vLLM's /tokenize) over undici's request API on a
// keep-alive connection pool per endpoint. Measured against the OpenAI SDK on the same simulated endpoints, the SDK
// (on the global fetch) spent 0.97 ms of client CPU per request and undici.request 0.16 ms (scripts/bench, 6,000
// requests): with the SDK one process saturated a core at about 850 requests/s. Failures are thrown as the SDK's own
// error classes (APIError.generate with the body made readable, APIConnectionError, APIConnectionTimeoutError), so
// they are classified exactly as the SDK's were; the SDK itself still serves the cold paths (GET /models, doctor).
// undici and the SDK are loaded at the first request, not with the module: a config whose roles are all local (or a
// command refusing its config) never loads them (0.13 s and 0.08 s of CPU per process).
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Pool } from 'undici';
import { readableError } from './client.js';

type Clients = [typeof import('openai'), typeof import('undici')];
let clients: Clients | undefined;
/** The SDK and undici, imported once per process; later requests take them without awaiting an import. */
async function loadClients(): Promise<Clients> {
  return (clients ??= await Promise.all([import('openai'), import('undici')]));
}

/** One endpoint's connections: POST JSON to its chat completions or to a route at its root. */
export class Transport {
  readonly baseURL: string;
  readonly apiKey: string | null;
  private pool: Promise<Pool> | null = null;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly search: string;
  private readonly headers: Record<string, string>;

  constructor(
    baseURL: string,
    apiKey: string | null,
    private readonly opts: { timeoutMs: number; connections: number },
  ) {
    const u = new URL(baseURL);
    this.baseURL = baseURL.replace(/\/+$/, '');
    this.apiKey = apiKey;
    this.prefix = u.pathname.replace(/\/+$/, '');
    this.search = u.search;
    this.origin = u.origin;
    this.headers = { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  }

  /** POST /chat/completions (under the base URL); the parsed response. */
  chat(body: object, timeoutMs = this.opts.timeoutMs): Promise<ChatCompletion> {
    return this.post(`${this.prefix}/chat/completions${this.search}`, body, timeoutMs) as Promise<ChatCompletion>;
  }

  /** POST to a route at the server's root (the base URL without its /v1), e.g. vLLM's /tokenize. */
  root<T>(route: string, body: object, timeoutMs = this.opts.timeoutMs): Promise<T> {
    return this.post(`${this.prefix.replace(/\/v1$/, '')}${route}`, body, timeoutMs) as Promise<T>;
  }

  private async post(path: string, body: object, timeoutMs: number): Promise<unknown> {
    const [{ default: OpenAI }, { errors }] = clients ?? (await loadClients());
    let res: Awaited<ReturnType<Pool['request']>>;
    let text: string;
    try {
      res = await (await this.connections()).request({ path, method: 'POST', headers: this.headers, body: JSON.stringify(body), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      text = await res.body.text();
    } catch (e) {
      if (e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError || e instanceof errors.ConnectTimeoutError) {
        throw new OpenAI.APIConnectionTimeoutError();
      }
      throw new OpenAI.APIConnectionError({ message: (e as Error).message, cause: e as Error });
    }
    if (res.statusCode >= 400) {
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
      const readable = readableError(text);
      throw OpenAI.APIError.generate(res.statusCode, readable ?? undefined, readable ? undefined : text, headers);
    }
    // A malformed body is a SyntaxError: a bad response, retried.
    return JSON.parse(text);
  }

  /** The endpoint's keep-alive connection pool, made at the first request. */
  private connections(): Promise<Pool> {
    const { origin, opts } = this;
    return (this.pool ??= loadClients().then(([, { Pool }]) => new Pool(origin, { connections: Math.max(1, opts.connections), keepAliveTimeout: 30_000 })));
  }

  /** Closes the connections (none made: nothing to close). */
  async close(): Promise<void> {
    if (this.pool) await (await this.pool).close();
  }
}
