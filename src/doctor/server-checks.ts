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
import { capCause, capFix, cutShort } from '../stages/sample-guard.js';
import type { GenerateResult } from '../backends/types.js';

const KIND_NAME: Record<ServerKind, string> = { vllm: 'vLLM', sglang: 'SGLang', openai: 'an OpenAI-compatible server' };

/** The flag that stops a server from filling sampling fields from the model's generation_config.json. */
function defaultsFix(kind: ServerKind, role: string): string {
  if (kind === 'vllm') return 'restart vLLM with --generation-config vllm (it then ignores the model\'s generation_config.json)';
  if (kind === 'sglang') return 'restart SGLang with --sampling-defaults openai (it then ignores the model\'s generation_config.json)';
  return `if this is vLLM or SGLang behind a proxy, set ${role}.backend.server to "vllm" or "sglang" so rlaifv sends top_k, min_p and repetition_penalty itself; else restart vLLM with --generation-config vllm (SGLang: --sampling-defaults openai)`;
}

/**
 * Samples the probe image the way a run does (generate.max_new_tokens, so a server's cap on max_tokens shows), on one
 * endpoint of the policy: four seeds, then the first seed again, and a greedy answer when the four are the same.
 * Identical answers for different seeds at T > 0 that equal the greedy one mean the server samples greedily (top_k 1
 * from a generation_config.json); identical answers unlike the greedy one mean it ignores the seed and samples every
 * request alike (SGLang's deterministic mode on its chat route, sglang #15746); two answers for one seed mean
 * recorded seeds do not reproduce (SGLang without --enable-deterministic-inference). Answers that stop for "length"
 * below max_tokens are a cap, unless they reach the model's context (its card's max_model_len).
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
      const asked = c.generate.max_new_tokens;
      const ask = async (seeds: number[], temperature = T) => {
        const decoding = { temperature, top_p: c.generate.top_p, max_new_tokens: asked };
        const rs = await gen.generate({ imagePath: image, question: 'Describe the image in detail.', history: [], samples: seeds.map((seed, index) => ({ index, seed })), decoding });
        return rs.map((r) => {
          if ('error' in r) throw new Error(r.error);
          return r;
        });
      };
      const four = await ask([11, 12, 13, 14]);
      // The first seed three times more: a server that ignores seeds gives the same short answer twice by chance now
      // and then, three times in a row far more rarely (the test server's SGLang mode did, once in a few CI runs).
      const again = await ask([11, 11, 11]);
      const texts = four.map((r) => r.text);
      let seedsIgnored = false;
      if (new Set(texts).size === 1) {
        const [greedy] = await ask([11], 0);
        seedsIgnored = greedy!.text !== texts[0];
        out.push(
          seedsIgnored
            ? warn('generate sampling', shown, `4 samples with different seeds at temperature ${T} came out identical, and unlike the greedy answer: the server ignores the request's seed and samples every request alike (SGLang's --enable-deterministic-inference on its chat route, sglang #15746)`, seedsIgnoredFix(kind))
            : warn('generate sampling', shown, `4 samples with different seeds at temperature ${T} came out identical, the greedy answer: the server samples greedily (a generation_config.json with top_k 1, as Qwen2-VL ships, or its defaults)`, defaultsFix(kind, 'generate')),
        );
      } else {
        out.push(ok('generate sampling', shown, `4 seeded samples at temperature ${T} give ${new Set(texts).size} different answers (${KIND_NAME[kind]})`));
      }
      if (again.some((r) => r.text !== texts[0])) {
        out.push(warn('generate seeds', shown, 'the same seed gave two different answers: recorded seeds will not reproduce a sample',
          kind === 'sglang'
            ? 'restart SGLang with --enable-deterministic-inference (without it SGLang ignores the request\'s seed); run rlaifv doctor again after: on releases with sglang #15746 that flag makes every seed give the same sample'
            : 'use a server that honours the request\'s seed (vLLM does; SGLang with --enable-deterministic-inference)'));
      } else if (!seedsIgnored) {
        out.push(ok('generate seeds', shown, 'the same seed gives the same answer'));
      }
      out.push(await lengthCheck(shown, [...four, ...again], asked, b, url, key));
    } catch (e) {
      out.push(fail('generate sampling', shown, redact(`sampling probe failed: ${(e as Error).message}`, [key]), 'check the generate completion check above and the server\'s log'));
    }
  }
  return out;
}

/** The fix when a server ignores seeds (every sample alike). */
function seedsIgnoredFix(kind: ServerKind): string {
  return kind === 'sglang'
    ? 'restart SGLang without --enable-deterministic-inference (seeds then do not reproduce a sample, but samples differ), or use a release that passes the seed on /v1/chat/completions'
    : 'if this is SGLang behind a proxy, restart it without --enable-deterministic-inference; else use a server that honours the request\'s seed';
}

type Sample = Extract<GenerateResult, { text: string }>;

/** Whether the probe's answers stop for "length" below max_tokens: a cap, unless they reach the model's context. */
async function lengthCheck(shown: string, answers: Sample[], asked: number, b: OpenAIBackend, url: string, key: string | null): Promise<Check> {
  const cut = answers.filter((a) => cutShort(a, asked));
  if (cut.length === 0) {
    const longest = Math.max(...answers.map((a) => a.completionTokens ?? 0));
    return ok('generate length', shown, `asked for ${asked} tokens; no answer stopped for "length" before that (the longest: ${longest} tokens)`);
  }
  const at = Math.max(...cut.map((a) => a.completionTokens!));
  const context = await maxModelLen(b, url, key);
  if (context !== null && cut.every((a) => (a.promptTokens ?? 0) + a.completionTokens! >= context)) {
    return ok('generate length', shown, `answers stop for "length" at the model's context (max_model_len ${context}), not at a cap`);
  }
  return warn('generate length', shown, `${cut.length} of ${answers.length} probe ${capCause(at, asked)}`, capFix(asked, at));
}

/** The model's context from its GET /models card (vLLM and SGLang list max_model_len), or null. */
async function maxModelLen(b: OpenAIBackend, url: string, key: string | null): Promise<number | null> {
  try {
    const page = await (await openaiClient(url, key, { timeout: 15_000 })).models.list();
    const card = page.data.find((m) => m.id === b.model) as { max_model_len?: unknown } | undefined;
    return typeof card?.max_model_len === 'number' ? card.max_model_len : null;
  } catch {
    return null;
  }
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
      const client = await openaiClient(url, key, { timeout: 15_000 });
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
            : 'restart vLLM with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment and --enable-lora --max-lora-rank <your rank> (the route takes PEFT adapters; full checkpoints need a restart: see docs/remote-servers.md "Run with vLLM")'));
      } else {
        out.push(ok('deploy route', shown, `POST ${route} is there (${KIND_NAME[kind]}; an empty probe got HTTP ${status})`));
      }
    } catch (e) {
      out.push(fail('deploy route', shown, redact(`the adapter route could not be probed: ${(e as Error).message}`, [key]), 'check the generate endpoint check above'));
    }
  }
  return out;
}
