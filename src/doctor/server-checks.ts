// Doctor checks of what a config cannot say about a server: whether its sampling is the one rlaifv asks for (a
// model's generation_config.json can make every sample the same), whether it honours seeds, and whether it can load
// the loop's checkpoints at run time. Each problem names the exact server flag that fixes it.
import type { Config, OpenAIBackend } from '../config/schema.js';
import { OpenAIGenerator } from '../backends/openai/index.js';
import { displayUrl, redact, resolveApiKey } from '../backends/openai/endpoints.js';
import { postRoot, openaiClient } from '../backends/openai/client.js';
import { serverKind, type ServerKind } from '../backends/openai/server-kind.js';
import OpenAI from 'openai';
import { fail, ok, warn, type Check } from './types.js';

const KIND_NAME: Record<ServerKind, string> = { vllm: 'vLLM', sglang: 'SGLang', openai: 'an OpenAI-compatible server' };

/** The flag that stops a server from filling sampling fields from the model's generation_config.json. */
function defaultsFix(kind: ServerKind, role: string): string {
  if (kind === 'vllm') return 'restart vLLM with --generation-config vllm (it then ignores the model\'s generation_config.json)';
  if (kind === 'sglang') return 'restart SGLang with --sampling-defaults openai (it then ignores the model\'s generation_config.json)';
  return `if this is vLLM or SGLang behind a proxy, set ${role}.backend.server to "vllm" or "sglang" so rlaifv sends top_k, min_p and repetition_penalty itself; else restart vLLM with --generation-config vllm (SGLang: --sampling-defaults openai)`;
}

/**
 * Samples the probe image the way a run does, on one endpoint of the policy: four seeds, then the first seed again.
 * Identical answers for different seeds at T > 0 mean the server samples otherwise than asked (top_k 1 from a
 * generation_config.json); two answers for one seed mean recorded seeds do not reproduce (SGLang without
 * --enable-deterministic-inference).
 */
export async function checkSampling(b: OpenAIBackend, c: Config, image: string): Promise<Check[]> {
  const out: Check[] = [];
  const T = c.generate.temperature;
  for (const url of b.base_urls) {
    const shown = displayUrl(url);
    let key: string | null = null;
    try {
      key = resolveApiKey(b, 'generate');
      if (T <= 0) {
        out.push(ok('generate sampling', shown, 'generate.temperature is 0: every sample is the greedy answer by design (seeds do not matter)'));
        continue;
      }
      const kind = await serverKind(b.server ?? 'auto', url, key);
      const gen = new OpenAIGenerator({ ...b, base_urls: [url], max_retries: 0 });
      const decoding = { temperature: T, top_p: c.generate.top_p, max_new_tokens: Math.min(c.generate.max_new_tokens, 32) };
      const ask = async (seeds: number[]) => {
        const rs = await gen.generate({ imagePath: image, question: 'Describe the image in detail.', history: [], samples: seeds.map((seed, index) => ({ index, seed })), decoding });
        return rs.map((r) => {
          if ('error' in r) throw new Error(r.error);
          return r.text;
        });
      };
      const four = await ask([11, 12, 13, 14]);
      const again = await ask([11]);
      if (new Set(four).size === 1) {
        out.push(warn('generate sampling', shown, `4 samples with different seeds at temperature ${T} came out identical: the server samples greedily (a generation_config.json with top_k 1, as Qwen2-VL ships, or its defaults)`, defaultsFix(kind, 'generate')));
      } else {
        out.push(ok('generate sampling', shown, `4 seeded samples at temperature ${T} give ${new Set(four).size} different answers (${KIND_NAME[kind]})`));
      }
      if (again[0] !== four[0]) {
        out.push(warn('generate seeds', shown, 'the same seed gave two different answers: recorded seeds will not reproduce a sample',
          kind === 'sglang'
            ? 'restart SGLang with --enable-deterministic-inference (without it SGLang ignores the request\'s seed)'
            : 'use a server that honours the request\'s seed (vLLM does; SGLang with --enable-deterministic-inference)'));
      } else {
        out.push(ok('generate seeds', shown, 'the same seed gives the same answer'));
      }
    } catch (e) {
      out.push(fail('generate sampling', shown, redact(`sampling probe failed: ${(e as Error).message}`, [key]), 'check the generate completion check above and the server\'s log'));
    }
  }
  return out;
}

/**
 * Whether each endpoint of a served policy can load the loop's checkpoints at run time: vLLM's POST
 * /v1/load_lora_adapter exists only with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True (and --enable-lora); SGLang's
 * /load_lora_adapter answers "LoRA is not enabled" without --enable-lora. Nothing is loaded by the probe.
 */
export async function checkDeployRoutes(b: OpenAIBackend): Promise<Check[]> {
  const out: Check[] = [];
  for (const url of b.base_urls) {
    const shown = displayUrl(url);
    let key: string | null = null;
    try {
      key = resolveApiKey(b, 'generate');
      const kind = await serverKind(b.server ?? 'auto', url, key);
      const client = openaiClient(url, key, { timeout: 15_000 });
      const route = kind === 'sglang' ? '/load_lora_adapter' : '/v1/load_lora_adapter';
      let status = 200;
      let text = '';
      try {
        // vLLM: an empty body (a missing route is FastAPI's 404, a present one refuses the body). SGLang has the
        // route either way and says whether LoRA is enabled only when asked to load something: a folder that is not there.
        await postRoot(client, route, kind === 'sglang' ? { lora_name: 'rlaifv-doctor-probe', lora_path: '/nonexistent/rlaifv-doctor-probe' } : {});
      } catch (e) {
        if (!(e instanceof OpenAI.APIError)) throw e;
        status = e.status ?? 0;
        text = (e.message || '').replace(/^\d{3}\s*/, '');
      }
      const missing = status === 404 && /^not found$/i.test(text.trim());
      const notEnabled = kind === 'sglang' && /lora/i.test(text) && /(not enabled|enable-lora|enable_lora)/i.test(text);
      if (missing || notEnabled) {
        out.push(fail('deploy route', shown, `no runtime adapter route (POST ${route}: HTTP ${status} ${text}); loop.deploy cannot load checkpoints here`,
          kind === 'sglang'
            ? 'restart SGLang with --enable-lora --max-lora-rank <your rank> --lora-target-modules all (or deploy full checkpoints with POST /update_weights_from_disk)'
            : 'restart vLLM with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment and --enable-lora --max-lora-rank <your rank> (the route takes PEFT adapters; full checkpoints need a restart: see README "Run with vLLM")'));
      } else {
        out.push(ok('deploy route', shown, `POST ${route} is there (${KIND_NAME[kind]}; an empty probe got HTTP ${status})`));
      }
    } catch (e) {
      out.push(fail('deploy route', shown, redact(`the adapter route could not be probed: ${(e as Error).message}`, [key]), 'check the generate endpoint check above'));
    }
  }
  return out;
}
