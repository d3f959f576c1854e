// The deploy hook of a remote policy: after training, a command serves the new checkpoint; the loop then waits until
// every endpoint of the policy's backend lists the served model before the next round samples from it.
import type { OpenAIBackend } from '../config/schema.js';
import { displayUrl, redact, resolveApiKey } from '../backends/openai/endpoints.js';
import { openaiClient } from '../backends/openai/client.js';

/** Thrown when the served model never appeared: the step is recorded as failed and a rerun retries it. */
export class DeployError extends Error {
  override name = 'DeployError';
}

/** Waits until GET /models of every base URL lists `model`, polling every `pollMs`; throws DeployError after `timeoutMs`. */
export async function waitForModel(b: OpenAIBackend, model: string, timeoutMs: number, pollMs = 500): Promise<void> {
  const key = resolveApiKey(b, 'generate');
  const deadline = Date.now() + timeoutMs;
  for (const base of b.base_urls) {
    const client = openaiClient(base, key);
    let last = '';
    for (;;) {
      try {
        const page = await client.models.list({ timeout: Math.max(1000, Math.min(10_000, deadline - Date.now())) });
        const ids = page.data.map((m) => m.id);
        if (ids.includes(model)) break;
        last = `serves ${ids.length ? ids.map((i) => `"${i}"`).join(', ') : 'no models'}`;
      } catch (e) {
        last = redact((e as Error).message, [key]);
      }
      if (Date.now() >= deadline) {
        throw new DeployError(`${displayUrl(base)} did not serve "${model}" within ${timeoutMs} ms after the deploy command (last: ${last}).`);
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}
