// The deploy hook of a remote policy: after training, a command serves the new checkpoint; the loop then waits until
// every endpoint of the policy's backend serves the model before the next round samples from it.
import type { OpenAIBackend } from '../config/schema.js';
import { displayUrl, redact, resolveApiKey, servesModel } from '../backends/openai/endpoints.js';
import { openaiClient } from '../backends/openai/client.js';
import { serverKind } from '../backends/openai/server-kind.js';
import { bareAdapterMessage, sglangAdapterName, type ModelCard } from '../backends/openai/adapter-names.js';

/** Thrown when the served model never appeared: the step is recorded as failed and a rerun retries it. */
export class DeployError extends Error {
  override name = 'DeployError';
}

/**
 * Waits until every base URL serves `model`, polling every `pollMs`; throws DeployError after `timeoutMs`. vLLM lists
 * a loaded adapter in GET /models. SGLang lists only its base, so an adapter it serves as "base:adapter" is asked for
 * a 1-token answer instead.
 */
export async function waitForModel(b: OpenAIBackend, model: string, timeoutMs: number, pollMs = 500): Promise<void> {
  const key = resolveApiKey(b, 'generate');
  const deadline = Date.now() + timeoutMs;
  for (const base of b.base_urls) {
    const client = await openaiClient(base, key);
    const kind = await serverKind(b.server ?? 'auto', base, key).catch(() => 'openai' as const);
    let last = '';
    for (;;) {
      const timeout = Math.max(1000, Math.min(10_000, deadline - Date.now()));
      try {
        const page = await client.models.list({ timeout });
        const ids = page.data.map((m) => m.id);
        const exact = sglangAdapterName(page.data as ModelCard[], model, kind);
        if (exact) throw new DeployError(`${displayUrl(base)}: ${bareAdapterMessage('loop.deploy.model', model, exact)}`);
        if (ids.includes(model)) break;
        if (kind === 'sglang' && servesModel(ids, model, kind)) {
          await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 1, temperature: 0 }, { timeout });
          break;
        }
        last = `serves ${ids.length ? ids.map((i) => `"${i}"`).join(', ') : 'no models'}`;
      } catch (e) {
        if (e instanceof DeployError) throw e;
        last = redact((e as Error).message, [key]);
      }
      if (Date.now() >= deadline) {
        throw new DeployError(`${displayUrl(base)} did not serve "${model}" within ${timeoutMs} ms after the deploy command (last: ${last}).`);
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}
