// The probe of a served policy, divider or labeler (generate, divide, label): the API key, then per endpoint
// reachable with the key accepted and the model served (GET /models), then a 1-token completion as a run sends it.
import { bareAdapterMessage, servesModel, sglangAdapterName, type ModelCard } from '../../backends/openai/adapter-names.js';
import { openaiClient } from '../../backends/openai/client.js';
import { serverKind } from '../../backends/openai/server-kind.js';
import { displayUrl, redact, resolveApiKey } from '../../backends/openai/settings.js';
import { fail, ok, warn, type Check } from '../types.js';
import { completionProbe } from './completion.js';
import { describe, type Remote, type Role } from './shared.js';

/** Checks every endpoint of one remote backend. */
export async function checkBackend(role: Role, b: Remote, topLogprobs: number, suffix: string): Promise<Check[]> {
  const out: Check[] = [];
  let key: string | null = null;
  try {
    key = resolveApiKey(b, role);
    if (key) out.push(ok(`${role} API key`, b.api_key_env ? `$${b.api_key_env}` : b.api_key_file!, 'set (not shown)'));
  } catch (e) {
    out.push(fail(`${role} API key`, b.api_key_env ? `$${b.api_key_env}` : b.api_key_file ?? '', (e as Error).message,
      b.api_key_env
        ? `export ${b.api_key_env}=<the server's key> in the shell that runs rlaifv (or set ${role}.backend.api_key_file to a file holding it)`
        : `write the key as the first line of ${b.api_key_file} (readable by rlaifv), or set ${role}.backend.api_key_env instead`));
  }
  const hide = (s: string) => redact(s, [key]);
  for (const [i, url] of b.base_urls.entries()) {
    const shown = displayUrl(url);
    const field = `${role}.backend.base_urls[${i}]`;
    const client = await openaiClient(url, key, { timeout: b.timeout_ms });
    const modelsTimeout = Math.min(b.timeout_ms, 15_000);
    // 1. Reachable, key accepted, model served.
    let served: boolean | null = null;
    try {
      const page = await client.models.list({ timeout: modelsTimeout });
      const ids = page.data.map((m) => m.id);
      const kind = await serverKind(b.server ?? 'auto', url, key);
      served = servesModel(ids, b.model, kind);
      const exact = sglangAdapterName(page.data as ModelCard[], b.model, kind);
      if (exact) {
        out.push(fail(`${role} endpoint`, shown, bareAdapterMessage(`${role}.backend.model`, b.model, exact), `set ${role}.backend.model to "${exact}"`));
        continue;
      }
      if (served) out.push(ok(`${role} endpoint`, shown, `reachable; serves "${b.model}" (${kind === 'vllm' ? 'vLLM' : kind === 'sglang' ? 'SGLang' : 'OpenAI-compatible'})`));
      else {
        const list = ids.slice(0, 8).map((x) => `"${x}"`).join(', ') + (ids.length > 8 ? ', …' : '');
        out.push(fail(`${role} endpoint`, shown, hide(`reachable, but serves ${ids.length ? list : 'no models'}, not "${b.model}"`),
          ids.length
            ? `set ${role}.backend.model to the served name (${list}), or start the server with --served-model-name ${b.model} (vLLM)`
            : `start the server with the model loaded (vLLM: vllm serve <model> --served-model-name ${b.model})`));
        continue;
      }
    } catch (e) {
      const d = describe(e, modelsTimeout);
      if (d.unreachable) {
        const port = (() => { try { return new URL(url).port || '(default)'; } catch { return '?'; } })();
        out.push(fail(`${role} endpoint`, shown, hide(d.text),
          `check ${field} (host, port ${port}, and the /v1 at the end) and that the server is up and listening there: curl ${shown}/models`));
        continue;
      }
      if (d.status === 401 || d.status === 403) {
        out.push(fail(`${role} endpoint`, shown, hide(`refused the API key (${d.text})`),
          b.api_key_env || b.api_key_file
            ? `set ${b.api_key_env ? `$${b.api_key_env}` : b.api_key_file} to the key the server was started with (vLLM: --api-key)`
            : `the server needs a key: set ${role}.backend.api_key_env to the name of an environment variable holding it`));
        continue;
      }
      if (d.status === 404 || d.status === 405) {
        out.push(warn(`${role} endpoint`, shown, hide(`reachable, but has no GET /models (${d.text}); the model name could not be checked`),
          `nothing to do if the completion check below is ok; otherwise check ${field} ends in /v1`));
      } else {
        out.push(fail(`${role} endpoint`, shown, hide(`GET /models failed: ${d.text}`), `check the server's log; ${field} must be an OpenAI-compatible base URL ending in /v1`));
        continue;
      }
    }
    // 2. A 1-token completion as a run sends it (image for vision models; logprobs for the labeler).
    out.push(...(await completionProbe(role, b, client, shown, topLogprobs, suffix, hide)));
  }
  return out;
}
