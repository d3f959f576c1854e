// `rlaifv doctor` against the test server behaving like vLLM and SGLang: it catches what a config can't say (a
// generation_config that makes samples identical, seeds a server ignores, no runtime adapter route for the loop's
// deploy hook, a labeler that thinks first), tells SGLang's merged top tokens from a real shortfall, shows the
// server's own text under every error envelope, and names the exact server flag for each fix.
import { beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDoctor, type Check } from '../../src/doctor/index.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { DEFAULT_MODELS, TestServer } from '../../scripts/mimic/openai-server.js';
import { LABELER, POLICY, tempDir } from '../helpers/paths.js';
import { sharedPool } from '../helpers/file-pool.js';

// The test servers run in the test process's shared pool (tests/helpers/file-pool.ts): no file here watches a pool's life.
let pool: WorkerPool;
let dir: string;
beforeAll(() => {
  pool = sharedPool(2);
  dir = tempDir('rlaifv-doctor-mimic-');
});

const backend = (url: string, model: string, extra: Record<string, unknown> = {}) => ({ type: 'openai', model, base_urls: [url], max_retries: 0, ...extra });

/** Doctor on an all-remote config (policy, labeler, divider on `url`), edited by `extra`. */
async function doctor(url: string, extra: { generate?: Record<string, unknown>; label?: Record<string, unknown>; top?: number; loop?: Record<string, unknown> } = {}): Promise<Check[]> {
  const file = path.join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      db: path.join(dir, 'd.sqlite'),
      generate: { backend: backend(url, 'shapes-policy', extra.generate) },
      divide: { backend: { ...backend(url, 'rules-divider'), type: 'llm' } },
      label: { backend: backend(url, 'shapes-labeler', extra.label), ...(extra.top ? { top_logprobs: extra.top } : {}) },
      ...(extra.loop ? { loop: extra.loop } : {}),
    }),
  );
  return (await runDoctor({ config: file })).checks;
}

const one = (checks: Check[], name: string) => {
  const c = checks.filter((x) => x.check === name);
  expect(c, `${name} in ${JSON.stringify(checks.map((x) => x.check))}`).toHaveLength(1);
  return c[0]!;
};

describe('sampling and seeds', () => {
  test('a generation_config with top_k 1 behind a proxy (server "openai"): identical samples, with the flag to fix it', async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', generationConfig: { top_k: 1 } });
    try {
      const hidden = await doctor(v.url, { generate: { server: 'openai' } });
      const c = one(hidden, 'generate sampling');
      expect(c.status).toBe('warn');
      expect(c.detail).toMatch(/4 samples with different seeds at temperature 0\.7 came out identical/);
      expect(c.fix).toMatch(/set generate\.backend\.server to "vllm" or "sglang".*--generation-config vllm/);
      // Told it is vLLM (or left to find out), rlaifv sends top_k itself: the samples differ.
      const seen = await doctor(v.url);
      expect(one(seen, 'generate sampling')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/4 seeded samples at temperature 0\.7 give [2-4] different answers \(vLLM\)/) });
      expect(one(seen, 'generate seeds').status).toBe('ok');
    } finally {
      await v.close();
    }
  });

  test('SGLang without deterministic inference: one seed gives two answers; the fix is --enable-deterministic-inference', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang' });
    const d = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      const c = one(await doctor(s.url), 'generate seeds');
      expect(c.status).toBe('warn');
      expect(c.fix).toMatch(/--enable-deterministic-inference/);
      expect(one(await doctor(d.url), 'generate seeds').status).toBe('ok');
    } finally {
      await Promise.all([s.close(), d.close()]);
    }
  });
});

describe('the second reading: seeds ignored, a max_tokens cap, a bare SGLang adapter name', () => {
  test('SGLang ignoring seeds in deterministic mode (sglang #15746): blamed on the seeds, not on top_k', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', deterministic: true, seedIgnored: true });
    try {
      const checks = await doctor(s.url);
      const c = one(checks, 'generate sampling');
      expect(c.status).toBe('warn');
      expect(c.detail).toMatch(/came out identical, and unlike the greedy answer: the server ignores the request's seed/);
      expect(c.detail).not.toMatch(/top_k/);
      expect(c.fix).toMatch(/restart SGLang without --enable-deterministic-inference/);
      expect(c.fix).not.toMatch(/--sampling-defaults/);
      // "The same seed gives the same answer" would be true and beside the point.
      expect(checks.some((x) => x.check === 'generate seeds')).toBe(false);
    } finally {
      await s.close();
    }
  });

  test('a cap on max_tokens from the generation config (vLLM get_max_tokens): the probe asks for more and sees it', async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', capMaxTokens: 8 });
    const plain = await TestServer.start({ pool, mimic: 'vllm' });
    try {
      const c = one(await doctor(v.url, { generate: {} }), 'generate length');
      expect(c.status).toBe('warn');
      expect(c.detail).toMatch(/probe answers stop for "length" after 8 tokens though max_tokens was 512: the server caps max_tokens/);
      expect(c.fix).toMatch(/--generation-config vllm.*"max_new_tokens": 512.*generate\.max_new_tokens to 8/);
      expect(one(await doctor(plain.url), 'generate length').status).toBe('ok');
    } finally {
      await Promise.all([v.close(), plain.close()]);
    }
  });

  test("SGLang: a policy named by its adapter's bare name is refused with the exact name to use", async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      s.adapters.loaded.set('policy-r1', POLICY);
      const c = one(await doctor(s.url, { generate: { model: 'policy-r1' } }), 'generate endpoint');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/generate\.backend\.model "policy-r1" is a LoRA adapter that SGLang lists by its bare name but serves only as "shapes-policy:policy-r1"/);
      expect(c.fix).toBe('set generate.backend.model to "shapes-policy:policy-r1"');
      expect(one(await doctor(s.url, { generate: { model: 'shapes-policy:policy-r1' } }), 'generate endpoint').status).toBe('ok');
    } finally {
      await s.close();
    }
  });
});

describe('the labeler', () => {
  test('SGLang lists each token text once: fewer than top_logprobs is not an error there', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      const c = one(await doctor(s.url), 'label completion');
      expect(c.status).toBe('ok');
      expect(c.detail).toMatch(/works: 1\d of top_logprobs 20 listed, each token text once \(SGLang merges tokens that read the same; not an error\)/);
    } finally {
      await s.close();
    }
  });

  test('a reasoning model as labeler: its first token is <think> unless thinking is off (rlaifv\'s default)', async () => {
    const t = await TestServer.start({ pool, mimic: 'vllm', models: { ...DEFAULT_MODELS, 'shapes-labeler': { kind: 'vlm', dir: LABELER, thinking: true } } });
    try {
      expect(one(await doctor(t.url), 'label yes/no').status).toBe('ok');
      const c = one(await doctor(t.url, { label: { chat_template_kwargs: { enable_thinking: true } } }), 'label yes/no');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/the labeler's first token is "<think>": a reasoning model thinks before it answers/);
      expect(c.fix).toMatch(/label\.backend\.chat_template_kwargs to \{"enable_thinking": false\}/);
    } finally {
      await t.close();
    }
  });

  test('a vLLM started with --return-tokens-as-token-ids: the labeler asks for token texts, and yes/no are found', async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', returnTokensAsTokenIds: true });
    try {
      expect(one(await doctor(v.url), 'label yes/no').status).toBe('ok');
    } finally {
      await v.close();
    }
  });

  test.each(['vllm', 'vllm-legacy'] as const)('%s: top_logprobs over --max-logprobs shows the server\'s text and the limit to set', async (mimic) => {
    const v = await TestServer.start({ pool, mimic, maxLogprobs: 5 });
    try {
      const c = one(await doctor(v.url), 'label completion');
      expect(c.status).toBe('fail');
      expect(c.detail).toBe('a 1-token chat completion with logprobs (top_logprobs 20) failed: HTTP 400: Requested sample logprobs of 20, which is greater than max allowed: 5');
      expect(c.fix).toBe("set label.top_logprobs to 5 or less (the server's limit), or restart the server allowing 20 (vLLM: --max-logprobs 20)");
    } finally {
      await v.close();
    }
  });
});

describe('endpoints and the loop', () => {
  test('a base URL without /v1: the completion fails naming /v1', async () => {
    const v = await TestServer.start({ pool, mimic: 'sglang' });
    try {
      const checks = await doctor(v.root);
      expect(one(checks, 'generate endpoint').status).toBe('warn');
      const c = one(checks, 'generate completion');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/HTTP 404: Not Found/);
      expect(c.fix).toMatch(/generate\.backend\.base_urls must be its OpenAI base URL, ending in \/v1/);
    } finally {
      await v.close();
    }
  });

  test('a loop with a deploy hook: vLLM without the runtime adapter route fails with the variable and flag to set', async () => {
    const off = await TestServer.start({ pool, mimic: 'vllm' });
    const on = await TestServer.start({ pool, mimic: 'vllm', loraUpdating: true });
    const sg = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      const loop = { deploy: { command: 'node {root}/scripts/deploy/load-adapter.mjs {base_urls} {model} {checkpoint}', model: 'policy-r{round}', start_checkpoint: POLICY } };
      const c = one(await doctor(off.url, { loop }), 'deploy route');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/no runtime adapter route \(POST \/v1\/load_lora_adapter: HTTP 404 Not Found\)/);
      expect(c.fix).toMatch(/VLLM_ALLOW_RUNTIME_LORA_UPDATING=True .*--enable-lora/);
      expect(one(await doctor(on.url, { loop }), 'deploy route').status).toBe('ok');
      expect(one(await doctor(sg.url, { loop }), 'deploy route').status).toBe('ok');
      const sgOff = await TestServer.start({ pool, mimic: 'sglang', loraUpdating: false });
      try {
        const c2 = one(await doctor(sgOff.url, { loop }), 'deploy route');
        expect(c2.status).toBe('fail');
        expect(c2.detail).toMatch(/LoRA is not enabled\. Please set `--enable-lora` to enable LoRA\./);
        expect(c2.fix).toMatch(/restart SGLang with --enable-lora/);
      } finally {
        await sgOff.close();
      }
      // Without a deploy hook there is nothing to check.
      expect((await doctor(off.url)).some((x) => x.check === 'deploy route')).toBe(false);
    } finally {
      await Promise.all([off.close(), on.close(), sg.close()]);
    }
  });
});
