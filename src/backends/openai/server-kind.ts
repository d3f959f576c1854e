// Which server is behind a base URL, and what each kind of server needs to be told. vLLM and SGLang fill every
// sampling field a request leaves out from the model's generation_config.json (Qwen2-VL ships top_k 1: every sample
// the same), so rlaifv sends its whole decoding to them; OpenAI's API refuses fields it does not know, so it gets only
// its own. Detected once per base URL (`server: auto`), or set per backend.
import type OpenAI from 'openai';
import { openaiClient } from './client.js';
import type { SERVER_KINDS } from '../../config/schema.js';

/** The kinds of server rlaifv tells apart; 'openai' is also any server that is neither vLLM nor SGLang. */
export type ServerKind = 'vllm' | 'sglang' | 'openai';
/** A backend's `server` setting: a kind, or auto (detected). */
export type ServerSetting = (typeof SERVER_KINDS)[number];

/** A base URL without its trailing /v1: where vLLM's /tokenize and /version and SGLang's native routes live. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** The kind a GET /models page says: vLLM's and SGLang's model cards are `owned_by` them. */
export function kindFromModels(owners: readonly (string | undefined)[]): ServerKind | null {
  if (owners.includes('vllm')) return 'vllm';
  if (owners.includes('sglang')) return 'sglang';
  return null;
}

async function getJson(url: string, key: string | null, timeoutMs: number): Promise<unknown> {
  const r = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.json();
}

/**
 * Asks a server what it is: its GET /models cards' `owner`, else SGLang's GET /model_info (or the older /get_model_info) or vLLM's GET /version
 * at the root; api.openai.com, and anything that answers none of these, is 'openai' (standard fields only).
 */
export async function detectServerKind(baseUrl: string, key: string | null, timeoutMs = 10_000): Promise<ServerKind> {
  let host = '';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return 'openai';
  }
  if (host === 'api.openai.com' || host.endsWith('.openai.azure.com')) return 'openai';
  try {
    const page = await (await openaiClient(baseUrl, key, { timeout: timeoutMs })).models.list();
    const k = kindFromModels(page.data.map((m) => (m as { owned_by?: string }).owned_by));
    if (k) return k;
  } catch {
    // No /models (or not reachable now): the native routes below may still tell.
  }
  const root = serverRoot(baseUrl);
  const probes: [ServerKind, string, (j: unknown) => boolean][] = [
    // SGLang's /model_info; /get_model_info is deprecated ("use /model_info instead") and kept for older releases.
    ['sglang', `${root}/model_info`, (j) => typeof (j as { model_path?: unknown })?.model_path === 'string'],
    ['sglang', `${root}/get_model_info`, (j) => typeof (j as { model_path?: unknown })?.model_path === 'string'],
    ['vllm', `${root}/version`, (j) => typeof (j as { version?: unknown })?.version === 'string'],
  ];
  for (const [kind, url, looks] of probes) {
    try {
      if (looks(await getJson(url, key, timeoutMs))) return kind;
    } catch {
      // not this kind
    }
  }
  return 'openai';
}

const detected = new Map<string, Promise<ServerKind>>();

/** The kind of the server at a base URL: the setting, or (auto) detected once per base URL for the whole process. */
export function serverKind(setting: ServerSetting, baseUrl: string, key: string | null): Promise<ServerKind> {
  if (setting !== 'auto') return Promise.resolve(setting);
  let p = detected.get(baseUrl);
  if (!p) {
    p = detectServerKind(baseUrl, key);
    detected.set(baseUrl, p);
  }
  return p;
}

/**
 * Forget every detected kind. A process that starts and stops servers (the test suite, whose files share one process
 * per worker) can be handed a closed server's port again by the OS, and the kind detected there would be taken for
 * the new server's: an SGLang test server probed as the vLLM one that had held its port.
 */
export function forgetServerKinds(): void {
  detected.clear();
}

/** What one request tells a server, on top of the standard chat fields. */
export interface RequestShape {
  kind: ServerKind;
  /** 'max_completion_tokens' where the server wants it (OpenAI's newer models refuse max_tokens). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The backend's chat_template_kwargs (e.g. {enable_thinking: false}), sent to vLLM and SGLang. */
  chatTemplateKwargs: Record<string, unknown> | null;
}

/**
 * The sampling fields of a request: temperature and top_p for every server, the length limit under the field the
 * server takes, and for vLLM and SGLang every other sampling field at its neutral value, so the model's
 * generation_config.json can't change the decoding (top_k -1 disables top-k on both).
 */
export function samplingFields(s: RequestShape, d: { temperature: number; top_p?: number; max_tokens: number }): Record<string, unknown> {
  const out: Record<string, unknown> = { temperature: d.temperature, [s.maxTokensField]: d.max_tokens };
  if (d.top_p !== undefined) out.top_p = d.top_p;
  if (s.kind !== 'openai') {
    out.top_p ??= 1;
    Object.assign(out, { top_k: -1, min_p: 0, repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0 });
    if (s.chatTemplateKwargs) out.chat_template_kwargs = s.chatTemplateKwargs;
  }
  return out;
}

/** The body of a chat completion request: the model, messages and fields as the server's kind takes them. */
export type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
