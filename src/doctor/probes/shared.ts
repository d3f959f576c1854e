// What every endpoint probe of `rlaifv doctor` shares: the probe inputs, the probe image, a failed request in words,
// and the loop that probes each endpoint of a served backend alone with its API key read as a run reads it (never
// shown: every text that leaves a probe is redacted).
import OpenAI from 'openai';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../config/load.js';
import type { LlmDividerBackend, OpenAIBackend } from '../../config/schema.js';
import { imageUrl } from '../../backends/openai/images.js';
import { displayUrl, redact, resolveApiKey } from '../../backends/openai/settings.js';
import { fail, type Check } from '../types.js';

/** The roles whose backend may be a served model, and such a backend. */
export type Role = 'generate' | 'divide' | 'label';
export type Remote = OpenAIBackend | LlmDividerBackend;

/** The image sent with the probe completions of vision models: a shapes-world image shipped with the package. */
export const PROBE_IMAGE = path.join(PACKAGE_ROOT, 'data', 'shapes', 'dev', 'images', 'dev-0000.png');
export const PROBE_QUESTION = 'Is there a shape in the image?';
export const PROBE_ANSWER = 'Yes, there is a shape in the image.';
export const PROBE_NEGATIVE = 'No, the image is empty.';
export const PROBE_REWRITE = 'There is a red circle. There is a purple star in the top left.';
export const PROBE_REWRITE_CLAIM = 'There is a purple star in the top left.';

/** The probe image as a data URL; a plain grey PNG when the package's image is not there. */
export async function probeImage(): Promise<string> {
  try {
    return await imageUrl(PROBE_IMAGE);
  } catch {
    // sharp is loaded here only: a doctor run whose probes find the package's image never pays its start-up.
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).png().toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  }
}

/** Why a request failed, in words, and whether the server never answered. */
export function describe(e: unknown, timeoutMs: number): { text: string; unreachable: boolean; status: number | null; server: string } {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { text: `no answer within ${timeoutMs} ms`, unreachable: true, status: null, server: '' };
  if (e instanceof OpenAI.APIConnectionError) {
    const cause = (e as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return { text: `not reachable (${code ?? cause?.message ?? e.message})`, unreachable: true, status: null, server: '' };
  }
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const server = (e.message || '').replace(/^\d{3}\s*/, '').slice(0, 300);
    return { text: `HTTP ${e.status}: ${server}`, unreachable: false, status: e.status, server };
  }
  return { text: (e as Error)?.message ?? String(e), unreachable: false, status: null, server: '' };
}

/** One endpoint as a probe gets it: its URL, how it is shown, and the redaction of its API key. */
export interface ProbeTarget {
  url: string;
  shown: string;
  hide: (text: string) => string;
}

/**
 * One check per endpoint of a served backend: its API key is read as a run reads it (errors name `keyRole`'s
 * setting), `probe` runs on that endpoint alone, and anything either throws is a fail `check` with its message
 * redacted and `fix`.
 */
export async function probeEachEndpoint(
  b: Pick<OpenAIBackend, 'base_urls' | 'api_key_env' | 'api_key_file'>,
  keyRole: string,
  check: string,
  fix: string,
  probe: (t: ProbeTarget) => Promise<Check>,
): Promise<Check[]> {
  const out: Check[] = [];
  for (const url of b.base_urls) {
    const shown = displayUrl(url);
    let key: string | null = null;
    try {
      key = resolveApiKey(b, keyRole);
      out.push(await probe({ url, shown, hide: (text) => redact(text, [key]) }));
    } catch (e) {
      out.push(fail(check, shown, redact((e as Error).message, [key]), fix));
    }
  }
  return out;
}

/** A probe that got no usable reply: the reason, and the last line of the reply when there was one. */
export function noVerdict(what: string, error: string, reply: string | undefined): string {
  const end = (reply ?? '').trim().split(/\r?\n/).at(-1)?.slice(0, 120) ?? '';
  return `${what}: ${error}${end ? `; the reply ends "${end}"` : ''}`;
}

/** Seconds since `t0` (a performance.now() reading), one decimal. */
export function secondsSince(t0: number): string {
  return ((performance.now() - t0) / 1000).toFixed(1);
}
