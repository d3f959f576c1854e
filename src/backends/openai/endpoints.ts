// Talking to one or more OpenAI-compatible servers that serve the same model: least-loaded endpoint choice with a
// per-endpoint in-flight limit, resting of endpoints that keep failing, retries with backoff (p-retry) that honour
// Retry-After, a clear immediate error for mistakes retrying cannot fix, and request/token accounting.
import OpenAI from 'openai';
import pRetry, { AbortError } from 'p-retry';
import { readFileSync } from 'node:fs';
import { errorEnvelope, openaiClient } from './client.js';
import { Transport } from './transport.js';
import type { OpenAIBackend } from '../../config/schema.js';

/** The fields every server backend has (policy, labeler, LLM divider). */
export type ServerSettings = Omit<OpenAIBackend, 'type'>;

import { BadResponseError, FatalBackendError, ItemRejectedError } from '../errors.js';
import { serverKind, type RequestShape } from './server-kind.js';
import { bareAdapterMessage, sglangAdapterName, type ModelCard } from './adapter-names.js';

export { BadResponseError, FatalBackendError, ItemRejectedError };
export type { RequestShape };

/** Refusals without a reason of the item's own, before any success, after which the run stops (see refused()). */
const REFUSALS_BEFORE_STOP = 5;

/** Requests, retries and tokens of one endpoint for one stage. */
export interface UsageCounts {
  requests: number;
  retries: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
}

/** Reads the API key from the environment variable or key file a backend names; null when it names neither. */
export function resolveApiKey(b: Pick<ServerSettings, 'api_key_env' | 'api_key_file'>, role: string): string | null {
  if (b.api_key_env) {
    const v = process.env[b.api_key_env];
    if (!v) throw new FatalBackendError(`${role}.backend.api_key_env: the environment variable ${b.api_key_env} is not set.`);
    return v.trim();
  }
  if (b.api_key_file) {
    let text: string;
    try {
      text = readFileSync(b.api_key_file, 'utf8');
    } catch (e) {
      throw new FatalBackendError(`${role}.backend.api_key_file: cannot read ${b.api_key_file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    const key = text.split(/\r?\n/)[0]!.trim();
    if (!key) throw new FatalBackendError(`${role}.backend.api_key_file: ${b.api_key_file} is empty.`);
    return key;
  }
  return null;
}

/** A base URL as it may be shown and stored: no credentials, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid url)';
  }
}

/** Replaces every occurrence of the secrets in a text (error messages can echo a key). */
export function redact(text: string, secrets: (string | null)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}

interface Endpoint {
  url: string;
  shown: string;
  /** The SDK, for GET /models (the cold path). */
  client: OpenAI;
  /** Requests' own connections (the hot path). */
  http: Transport;
  /** What requests to this endpoint carry, once its server's kind is known. */
  shape: Promise<RequestShape> | null;
  /** Set when the server asked for max_completion_tokens instead of max_tokens. */
  completionTokens: boolean;
  inFlight: number;
  failStreak: number;
  restUntil: number;
  restMs: number;
  usage: Map<string, UsageCounts>;
  /** Why a guard took this endpoint out of the pool for good (it answers otherwise than asked), else null. */
  stopped: string | null;
}

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

/**
 * Whether a GET /models list serves a model name. SGLang lists only its base model and addresses a LoRA adapter as
 * "base:adapter", which it takes on trust when the base is listed.
 */
export function servesModel(ids: readonly string[], model: string, kind: string): boolean {
  if (ids.includes(model)) return true;
  const colon = model.indexOf(':');
  return kind === 'sglang' && colon > 0 && ids.includes(model.slice(0, colon));
}

/** Waiters for a free slot, served in order of arrival. */
type Waiter = () => void;

/**
 * The endpoints of one backend. `request` runs one API call on the least-loaded endpoint that has a free slot and is not
 * resting, retrying on any endpoint with backoff; it throws FatalBackendError for mistakes and Error after the retries.
 */
export class EndpointPool {
  private readonly endpoints: Endpoint[];
  private readonly waiters: Waiter[] = [];
  private readonly apiKey: string | null;
  private wakeTimer: NodeJS.Timeout | null = null;
  /** Once a mistake retrying cannot fix is seen, every other request fails with it at once. */
  private fatal: FatalBackendError | null = null;
  /** Whether any request has succeeded, and refusals that named no reason of the item's own before one did. */
  private succeeded = false;
  private unexplained = 0;
  private checked = false;
  /** Which endpoint last served an affinity key (an image): its requests go back there, where the prefix is cached. */
  private readonly affinity = new Map<string, Endpoint>();
  /** The stage the calls are accounted to: the backend's role. */
  readonly stage: string;

  constructor(
    readonly role: string,
    readonly settings: ServerSettings,
    /** A role's own default chat_template_kwargs (the labeler's: no thinking), when the backend sets none. */
    private readonly opts: { chatTemplateKwargs?: Record<string, unknown> } = {},
  ) {
    this.stage = role;
    this.apiKey = resolveApiKey(settings, role);
    this.endpoints = settings.base_urls.map((url) => ({
      url,
      shown: displayUrl(url),
      // Retries are ours: they may move to another endpoint and are counted.
      client: openaiClient(url, this.apiKey, { timeout: settings.timeout_ms }),
      http: new Transport(url, this.apiKey, { timeoutMs: settings.timeout_ms, connections: settings.max_in_flight }),
      shape: null,
      completionTokens: false,
      inFlight: 0,
      failStreak: 0,
      restUntil: 0,
      restMs: settings.rest_ms,
      usage: new Map(),
      stopped: null,
    }));
  }

  /** Requests that can be in flight at once over all endpoints. */
  get capacity(): number {
    return this.endpoints.length * this.settings.max_in_flight;
  }

  /** The endpoints as shown in messages and stored in accounting (no credentials). */
  get shownUrls(): string[] {
    return this.endpoints.map((e) => e.shown);
  }

  /** Hides the API key in a text. */
  redact(text: string): string {
    return redact(text, [this.apiKey]);
  }

  private pick(key?: string): Endpoint | null {
    const now = Date.now();
    let best: Endpoint | null = null;
    for (const e of this.endpoints) {
      if (e.inFlight >= this.settings.max_in_flight || e.restUntil > now || e.stopped) continue;
      if (!best || e.inFlight < best.inFlight) best = e;
    }
    if (!best || key === undefined) return best;
    // Stay with the endpoint that has this image cached unless it is much busier than the least-loaded one.
    const home = this.affinity.get(key);
    if (home && home !== best && home.inFlight < this.settings.max_in_flight && home.restUntil <= now &&
        home.inFlight - best.inFlight <= Math.max(1, this.settings.max_in_flight >> 1)) best = home;
    this.affinity.delete(key);
    this.affinity.set(key, best);
    if (this.affinity.size > 4096) this.affinity.delete(this.affinity.keys().next().value!);
    return best;
  }

  private async acquire(key?: string): Promise<Endpoint> {
    for (;;) {
      if (this.fatal) throw new AbortError(this.fatal);
      const e = this.pick(key);
      if (e && this.waiters.length === 0) {
        e.inFlight++;
        return e;
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.scheduleWake();
      });
      const f = this.pick(key);
      if (f) {
        f.inFlight++;
        return f;
      }
    }
  }

  /**
   * Takes an endpoint out of the pool for good, because a guard saw it answer otherwise than asked (identical samples,
   * answers cut short); its requests go to the others. With none left every request fails with the reasons.
   */
  stop(shown: string, reason: string): void {
    const e = this.endpoints.find((x) => x.shown === shown);
    if (!e || e.stopped) return;
    e.stopped = reason;
    if (this.endpoints.every((x) => x.stopped)) {
      this.fatal ??= new FatalBackendError(this.redact(this.endpoints.map((x) => x.stopped).join('\n')));
      while (this.waiters.length) this.waiters.shift()!();
    }
  }

  /** Wakes waiters when a resting endpoint comes back (nothing else would wake them if every endpoint rests). */
  private scheduleWake(): void {
    if (this.wakeTimer) return;
    const now = Date.now();
    const resting = this.endpoints.filter((e) => e.restUntil > now).map((e) => e.restUntil);
    if (resting.length === 0) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeSome();
    }, Math.max(1, Math.min(...resting) - now));
    // Not unref'd: while requests wait for a resting endpoint, this timer is what keeps the process alive.
  }

  private wakeSome(): void {
    let free = 0;
    const now = Date.now();
    for (const e of this.endpoints) if (e.restUntil <= now) free += Math.max(0, this.settings.max_in_flight - e.inFlight);
    while (free-- > 0 && this.waiters.length) this.waiters.shift()!();
    if (this.waiters.length) this.scheduleWake();
  }

  private release(e: Endpoint, ok: boolean): void {
    e.inFlight--;
    if (ok) {
      e.failStreak = 0;
      e.restMs = this.settings.rest_ms;
    } else if (++e.failStreak >= this.settings.rest_after_failures) {
      e.restUntil = Date.now() + e.restMs;
      e.restMs = Math.min(e.restMs * 2, 10 * 60_000);
      e.failStreak = 0;
    }
    this.wakeSome();
  }

  private count(e: Endpoint): UsageCounts {
    let u = e.usage.get(this.stage);
    if (!u) e.usage.set(this.stage, (u = { requests: 0, retries: 0, failures: 0, promptTokens: 0, completionTokens: 0 }));
    return u;
  }

  /**
   * Runs `call` with a client, retrying retryable faults up to max_retries times (each attempt may use another endpoint).
   * `call` returns its result and the token usage it reports.
   */
  async request<T>(
    call: (http: Transport, shape: RequestShape, endpoint: string) => Promise<{ value: T; usage?: { prompt_tokens?: number; completion_tokens?: number } | null }>,
    opts: { affinity?: string } = {},
  ): Promise<T> {
    let lastEndpoint: Endpoint | null = null;
    let wait: number | null = null;
    const run = async (): Promise<T> => {
      if (this.fatal) throw new AbortError(this.fatal);
      const e = await this.acquire(opts.affinity);
      if (this.fatal) {
        this.release(e, true);
        throw new AbortError(this.fatal);
      }
      lastEndpoint = e;
      const u = this.count(e);
      u.requests++;
      let shape: RequestShape | null = null;
      try {
        shape = await this.shapeOf(e);
        const { value, usage } = await call(e.http, shape, e.shown);
        u.promptTokens += usage?.prompt_tokens ?? 0;
        u.completionTokens += usage?.completion_tokens ?? 0;
        this.succeeded = true;
        this.release(e, true);
        return value;
      } catch (err) {
        const c = classifyError(err, { role: this.role, endpoint: e.shown, model: this.settings.model });
        // A refused request is not the endpoint's fault: it does not count towards resting it.
        this.release(e, c.kind !== 'retry');
        if (c.kind === 'max-completion-tokens' && shape?.maxTokensField === 'max_tokens') {
          // The server named the field it wants: every later request to it sends that one, and this one again now.
          e.completionTokens = true;
          wait = 0;
          throw new Error(`${e.shown} wants max_completion_tokens instead of max_tokens`);
        }
        if (c.kind === 'item') throw new AbortError(this.refused(c.message));
        if (c.kind !== 'retry') {
          const message = c.kind === 'fatal' ? c.message : `${this.role} endpoint ${e.shown} refused max_completion_tokens as well as max_tokens`;
          throw new AbortError((this.fatal ??= new FatalBackendError(this.redact(message))));
        }
        wait = c.waitMs;
        const wrapped = new Error(this.redact(`${c.reason} (${e.shown})`));
        throw wrapped;
      }
    };
    try {
      return await pRetry(run, {
        retries: this.settings.max_retries,
        factor: 2,
        minTimeout: this.settings.min_backoff_ms,
        maxTimeout: this.settings.max_backoff_ms,
        randomize: true,
        onFailedAttempt: async ({ retriesLeft }) => {
          if (retriesLeft > 0 && lastEndpoint) this.count(lastEndpoint).retries++;
          // Retry-After wins when it asks for longer than the backoff will wait anyway.
          if (retriesLeft > 0 && wait !== null && wait > this.settings.min_backoff_ms) {
            await new Promise((r) => setTimeout(r, Math.min(wait! - this.settings.min_backoff_ms, 10 * 60_000)));
          }
          wait = null;
        },
      });
    } catch (err) {
      if (err instanceof FatalBackendError) throw err;
      if (lastEndpoint) this.count(lastEndpoint).failures++;
      if (err instanceof ItemRejectedError) throw err;
      const msg = (err as Error).message;
      throw new Error(`gave up after ${this.settings.max_retries + 1} attempts: ${msg}`);
    }
  }

  /**
   * An item the server refused. Its text usually names what is wrong with the item (too long, an image it cannot
   * read); a refusal that reads like neither, before any request has succeeded, is more likely a setting every
   * request trips on, so after REFUSALS_BEFORE_STOP of them the run stops with it instead of failing every item.
   */
  private refused(message: string): Error {
    const text = this.redact(message);
    if (!this.succeeded && !isItemRefusal(text) && ++this.unexplained >= REFUSALS_BEFORE_STOP) {
      return (this.fatal ??= new FatalBackendError(`${text} (every request so far was refused this way: check ${this.role}.backend and the server's log)`));
    }
    return new ItemRejectedError(text);
  }

  /** The request shape of an endpoint: its server's kind (detected once when the setting is auto) and its fields. */
  private async shapeOf(e: Endpoint): Promise<RequestShape> {
    e.shape ??= serverKind(this.settings.server ?? 'auto', e.url, this.apiKey).then((kind) => ({
      kind,
      maxTokensField: kind === 'openai' && /(^|\.)openai\.(com|azure\.com)$/.test(new URL(e.url).hostname) ? 'max_completion_tokens' : 'max_tokens',
      chatTemplateKwargs: this.settings.chat_template_kwargs ?? this.opts.chatTemplateKwargs ?? null,
    }));
    const shape = await e.shape;
    return e.completionTokens ? { ...shape, maxTokensField: 'max_completion_tokens' } : shape;
  }

  /** Closes every endpoint's connections. */
  async close(): Promise<void> {
    await Promise.all(this.endpoints.map((e) => e.http.close()));
  }

  /** Makes every later request fail at once with this error (a backend found a mistake retrying cannot fix). */
  stopWith(e: FatalBackendError): FatalBackendError {
    return (this.fatal ??= e);
  }

  /** Usage per (stage, endpoint) since the last call, then resets the counters. */
  takeUsage(): { stage: string; endpoint: string; counts: UsageCounts }[] {
    const out: { stage: string; endpoint: string; counts: UsageCounts }[] = [];
    for (const e of this.endpoints) {
      for (const [stage, counts] of e.usage) if (counts.requests > 0) out.push({ stage, endpoint: e.shown, counts });
      e.usage.clear();
    }
    return out;
  }

  /**
   * Checks every endpoint before work starts: those that don't answer rest (and are named in the returned warnings);
   * none answering, or the model not among those served, is a FatalBackendError naming the endpoints and the setting.
   * A server without GET /models is taken on trust.
   */
  async preflight(): Promise<string[]> {
    if (this.checked) return [];
    const warnings: string[] = [];
    const problems: string[] = [];
    const bare: string[] = [];
    let reachable = 0;
    await Promise.all(
      this.endpoints.map(async (e) => {
        try {
          const page = await e.client.models.list({ timeout: Math.min(this.settings.timeout_ms, 15_000), maxRetries: 1 });
          reachable++;
          const ids = page.data.map((m) => m.id);
          const kind = (await this.shapeOf(e)).kind;
          const exact = sglangAdapterName(page.data as ModelCard[], this.settings.model, kind);
          if (exact) bare.push(`${e.shown}: ${bareAdapterMessage(`${this.role}.backend.model`, this.settings.model, exact)}`);
          else if (ids.length && !servesModel(ids, this.settings.model, kind)) {
            problems.push(`${e.shown} serves ${ids.slice(0, 8).map((i) => `"${i}"`).join(', ')}${ids.length > 8 ? ', …' : ''}, not "${this.settings.model}"`);
          }
        } catch (err) {
          if (err instanceof OpenAI.APIError && (err.status === 404 || err.status === 405)) {
            reachable++; // no /models route: nothing to check (a base URL without /v1 is named by the first request)
            return;
          }
          const c = classifyError(err, { role: this.role, endpoint: e.shown, model: this.settings.model });
          if (c.kind !== 'retry') throw new FatalBackendError(this.redact(c.kind === 'fatal' || c.kind === 'item' ? c.message : 'GET /models failed'));
          e.restUntil = Date.now() + e.restMs;
          warnings.push(this.redact(`${this.role} endpoint ${e.shown} did not answer (${c.reason}); it rests and is retried later`));
        }
      }),
    );
    if (bare.length) throw this.stopWith(new FatalBackendError(bare.join('; ')));
    if (problems.length) {
      throw this.stopWith(new FatalBackendError(`${this.role}.backend.model "${this.settings.model}" is not served: ${problems.join('; ')}.`));
    }
    if (reachable === 0) {
      throw this.stopWith(
        new FatalBackendError(`none of the ${this.role} endpoints answered (${this.endpoints.map((e) => e.shown).join(', ')}); check ${this.role}.backend.base_urls and that the servers are up.`),
      );
    }
    this.checked = true;
    return warnings;
  }

  get size(): number {
    return this.endpoints.length;
  }
}
