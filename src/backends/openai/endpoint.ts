// One endpoint of a server backend: its connections, its load and rest state, its request shape and its usage.
import type OpenAI from 'openai';
import { openaiClient } from './client.js';
import { serverKind, type RequestShape } from './server-kind.js';
import { displayUrl, type ServerSettings } from './settings.js';
import { Transport } from './transport.js';

/** Requests, retries and tokens of one endpoint for one stage. */
export interface UsageCounts {
  requests: number;
  retries: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
}

/** One endpoint's state in an EndpointPool. */
export interface Endpoint {
  url: string;
  shown: string;
  /** The SDK, for GET /models (the cold path). */
  /** The SDK client, made (and the SDK loaded) when first asked for. */
  client: () => Promise<OpenAI>;
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

/** `make`'s promise, made at the first call and kept. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= make());
}

/** An endpoint of `url`, idle and not resting, with its clients. */
export function openEndpoint(url: string, apiKey: string | null, settings: ServerSettings): Endpoint {
  return {
    url,
    shown: displayUrl(url),
    // Retries are ours: they may move to another endpoint and are counted.
    client: once(() => openaiClient(url, apiKey, { timeout: settings.timeout_ms })),
    http: new Transport(url, apiKey, { timeoutMs: settings.timeout_ms, connections: settings.max_in_flight }),
    shape: null,
    completionTokens: false,
    inFlight: 0,
    failStreak: 0,
    restUntil: 0,
    restMs: settings.rest_ms,
    usage: new Map(),
    stopped: null,
  };
}

/** An endpoint's counters for a stage (created at zero). */
export function usageOf(e: Endpoint, stage: string): UsageCounts {
  let u = e.usage.get(stage);
  if (!u) e.usage.set(stage, (u = { requests: 0, retries: 0, failures: 0, promptTokens: 0, completionTokens: 0 }));
  return u;
}

/** Frees an endpoint's slot; after `rest_after_failures` failures in a row it rests, twice as long each time. */
export function releaseEndpoint(e: Endpoint, ok: boolean, settings: ServerSettings): void {
  e.inFlight--;
  if (ok) {
    e.failStreak = 0;
    e.restMs = settings.rest_ms;
  } else if (++e.failStreak >= settings.rest_after_failures) {
    e.restUntil = Date.now() + e.restMs;
    e.restMs = Math.min(e.restMs * 2, 10 * 60_000);
    e.failStreak = 0;
  }
}

/** The request shape of an endpoint: its server's kind (detected once when the setting is auto) and its fields. */
export async function endpointShape(
  e: Endpoint,
  settings: ServerSettings,
  apiKey: string | null,
  defaultKwargs: Record<string, unknown> | undefined,
): Promise<RequestShape> {
  e.shape ??= serverKind(settings.server ?? 'auto', e.url, apiKey).then((kind) => ({
    kind,
    maxTokensField: kind === 'openai' && /(^|\.)openai\.(com|azure\.com)$/.test(new URL(e.url).hostname) ? 'max_completion_tokens' : 'max_tokens',
    chatTemplateKwargs: settings.chat_template_kwargs ?? defaultKwargs ?? null,
  }));
  const shape = await e.shape;
  return e.completionTokens ? { ...shape, maxTokensField: 'max_completion_tokens' } : shape;
}
