// A server backend's settings as requests use them: the API key it names, and URLs and texts safe to show.
import { readFileSync } from 'node:fs';
import type { OpenAIBackend } from '../../config/schema.js';
import { FatalBackendError } from '../errors.js';

/** The fields every server backend has (policy, labeler, LLM divider). */
export type ServerSettings = Omit<OpenAIBackend, 'type'>;

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
