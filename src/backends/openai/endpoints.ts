// Talking to one or more OpenAI-compatible servers that serve the same model: least-loaded endpoint choice with a
// per-endpoint in-flight limit, resting of endpoints that keep failing, retries with backoff (p-retry) that honour
// Retry-After, a clear immediate error for mistakes retrying cannot fix, and request/token accounting.
//
// The pool is here; its parts beside it: settings.ts (API key, URLs safe to show), error-action.ts (what to do about
// a failed request), endpoint.ts (one endpoint's state) and adapter-names.ts (served model names). This file is the
// public entry for all of them.
import pRetry, { AbortError } from 'p-retry';
import { BadResponseError, FatalBackendError, ItemRejectedError } from '../errors.js';
import { bareAdapterMessage, servesModel, sglangAdapterName, type ModelCard } from './adapter-names.js';
import { endpointShape, openEndpoint, releaseEndpoint, usageOf, type Endpoint, type UsageCounts } from './endpoint.js';
import type { RequestShape } from './server-kind.js';
import { redact, resolveApiKey, type ServerSettings } from './settings.js';
import type { Transport } from './transport.js';

export { BadResponseError, FatalBackendError, ItemRejectedError };
export type { RequestShape, UsageCounts };
export { displayUrl, redact, resolveApiKey, type ServerSettings } from './settings.js';
export type { ErrorAction } from './error-action.js';
export { servesModel } from './adapter-names.js';

/** Refusals without a reason of the item's own, before any success, after which the run stops (see refused()). */
const REFUSALS_BEFORE_STOP = 5;

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
  /** When the wake timer fires (Date.now() milliseconds), while one is set. */
  private wakeAt = 0;
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
    this.endpoints = settings.base_urls.map((url) => openEndpoint(url, this.apiKey, settings));
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
        // Not scheduleWake(): a slot may be free (the rest ended after pick looked): then the head waiters go now.
        this.wakeSome();
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

  /**
   * Wakes waiters when the first resting endpoint comes back (nothing else would wake them if every endpoint rests).
   * A timer set for a later rest's end is set again for an earlier one: an endpoint that rests for minutes (its rest
   * doubles while it keeps failing) must not hold the waiters after another one is back.
   */
  private scheduleWake(now: number): void {
    let at = Infinity;
    for (const e of this.endpoints) if (!e.stopped && e.restUntil > now && e.restUntil < at) at = e.restUntil;
    if (at === Infinity) return;
    if (this.wakeTimer) {
      if (this.wakeAt <= at) return;
      clearTimeout(this.wakeTimer);
    }
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeSome();
    }, Math.max(1, at - now));
    // Not unref'd: while requests wait for a resting endpoint, this timer is what keeps the process alive.
  }

  private wakeSome(): void {
    let free = 0;
    const now = Date.now();
    for (const e of this.endpoints) if (e.restUntil <= now && !e.stopped) free += Math.max(0, this.settings.max_in_flight - e.inFlight);
    while (free-- > 0 && this.waiters.length) this.waiters.shift()!();
    // The same `now`: an endpoint this call saw resting gets its timer, whenever the clock's ms ticks over.
    if (this.waiters.length) this.scheduleWake(now);
  }

  private release(e: Endpoint, ok: boolean): void {
    releaseEndpoint(e, ok, this.settings);
    this.wakeSome();
  }

  private count(e: Endpoint): UsageCounts {
    return usageOf(e, this.stage);
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
        // Loaded at the first failure: error-action.ts reads the OpenAI SDK's error classes, and a run whose
        // requests all succeed (or that makes none: a local-backend round) never loads the SDK.
        const { classifyError, isItemRefusal } = await import('./error-action.js');
        const c = classifyError(err, { role: this.role, endpoint: e.shown, model: this.settings.model });
        // A refused request is not the endpoint's fault: it does not count towards resting it.
        this.release(e, c.kind !== 'retry');
        if (c.kind === 'max-completion-tokens' && shape?.maxTokensField === 'max_tokens') {
          // The server named the field it wants: every later request to it sends that one, and this one again now.
          e.completionTokens = true;
          wait = 0;
          throw new Error(`${e.shown} wants max_completion_tokens instead of max_tokens`);
        }
        if (c.kind === 'item') throw new AbortError(this.refused(c.message, isItemRefusal));
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
  private refused(message: string, isItemRefusal: (text: string) => boolean): Error {
    const text = this.redact(message);
    if (!this.succeeded && !isItemRefusal(text) && ++this.unexplained >= REFUSALS_BEFORE_STOP) {
      return (this.fatal ??= new FatalBackendError(`${text} (every request so far was refused this way: check ${this.role}.backend and the server's log)`));
    }
    return new ItemRejectedError(text);
  }

  /** The request shape of an endpoint: its server's kind (detected once when the setting is auto) and its fields. */
  private shapeOf(e: Endpoint): Promise<RequestShape> {
    return endpointShape(e, this.settings, this.apiKey, this.opts.chatTemplateKwargs);
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
          const page = await (await e.client()).models.list({ timeout: Math.min(this.settings.timeout_ms, 15_000), maxRetries: 1 });
          reachable++;
          const ids = page.data.map((m) => m.id);
          const kind = (await this.shapeOf(e)).kind;
          const exact = sglangAdapterName(page.data as ModelCard[], this.settings.model, kind);
          if (exact) bare.push(`${e.shown}: ${bareAdapterMessage(`${this.role}.backend.model`, this.settings.model, exact)}`);
          else if (ids.length && !servesModel(ids, this.settings.model, kind)) {
            problems.push(`${e.shown} serves ${ids.slice(0, 8).map((i) => `"${i}"`).join(', ')}${ids.length > 8 ? ', …' : ''}, not "${this.settings.model}"`);
          }
        } catch (err) {
          const [{ default: OpenAI }, { classifyError }] = await Promise.all([import('openai'), import('./error-action.js')]);
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
