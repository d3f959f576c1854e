// The test server's quirks (scripts/mimic/quirks.ts, SERVERS.md "Second reading" S1–S7), each as the real server
// answers, so the tests that lean on them test rlaifv against what a user meets: seeds ignored, max_tokens capped,
// SGLang listing adapters by bare name while serving the base under it, vLLM's sticky load_inplace with its cost
// visible, vLLM's 500s for adapters it cannot load, SGLang's /model_info, and /version saying what a mode copies.
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { detectServerKind } from '../../src/backends/openai/server-kind.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { sharedPool } from '../helpers/file-pool.js';
import { LABELER, POLICY, serverBackend, tempDir } from '../helpers/paths.js';
import { OpenAIGenerator } from '../../src/backends/openai/index.js';

// The test servers run in the test process's shared pool (tests/helpers/file-pool.ts): nothing here watches a pool's life.
let pool: WorkerPool;
beforeAll(() => {
  pool = sharedPool(1);
});

const post = async (url: string, body: unknown) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, text: await r.text() };
};
const chat = (url: string, model: string, extra: Record<string, unknown> = {}) =>
  post(`${url}/chat/completions`, { model, messages: [{ role: 'user', content: 'Describe the image in detail.' }], temperature: 1, max_tokens: 40, ...extra });

/** A PEFT adapter folder for the tiny policy (its weights served for the adapter), of rank `r`. */
function adapter(r = 8, from = POLICY): string {
  const dir = path.join(tempDir('rlaifv-quirk-'), 'adapter');
  mkdirSync(dir, { recursive: true });
  cpSync(from, dir, { recursive: true });
  writeFileSync(path.join(dir, 'adapter_config.json'), JSON.stringify({ peft_type: 'LORA', r }));
  return dir;
}

describe('sampling', () => {
  test('--seed-ignored: different seeds give one sample; without it they differ', async () => {
    const bad = await TestServer.start({ pool, mimic: 'sglang', deterministic: true, seedIgnored: true });
    const good = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      // A reply that is not a completion fails naming its status and body (a loaded CI clone once got one without
      // choices here, which a TypeError did not explain).
      const texts = (s: TestServer) =>
        Promise.all([1, 2, 3].map(async (seed) => {
          const r = await chat(s.url, 'shapes-policy', { seed });
          expect(r.status, `seed ${seed}: ${r.text}`).toBe(200);
          return JSON.parse(r.text).choices[0].message.content as string;
        }));
      expect(new Set(await texts(bad)).size).toBe(1);
      expect(new Set(await texts(good)).size).toBeGreaterThan(1);
    } finally {
      await Promise.all([bad.close(), good.close()]);
    }
  });

  test('--cap-max-tokens: an explicit max_tokens above the cap ends "length" at the cap', async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', capMaxTokens: 5 });
    try {
      const r = JSON.parse((await chat(v.url, 'shapes-policy', { seed: 1 })).text);
      expect(r.choices[0].finish_reason).toBe('length');
      expect(r.usage.completion_tokens).toBe(5);
      expect(v.stats.sampling.at(-1)!.max_tokens).toBe(40);
    } finally {
      await v.close();
    }
  });
});

describe('adapters', () => {
  test('SGLang lists a loaded adapter by its bare name, yet serves the base under it; "base:adapter" reaches it', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang' });
    try {
      // The "adapter" holds other weights (the labeler's), so which model answered shows in the greedy answer.
      const dir = adapter(8, LABELER);
      expect((await post(`${s.root}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir })).status).toBe(200);
      const cards = (JSON.parse(await (await fetch(`${s.url}/models`)).text()) as { data: { id: string; parent: string | null; root: string }[] }).data;
      expect(cards.find((c) => c.id === 'r1')).toMatchObject({ parent: 'shapes-policy', root: dir });
      const greedy = async (model: string) => {
        const r = await chat(s.url, model, { temperature: 0 });
        expect(r.status).toBe(200);
        return JSON.parse(r.text).choices[0].message.content as string;
      };
      const base = await greedy('shapes-policy');
      expect(await greedy('r1')).toBe(base);
      expect(await greedy('shapes-policy:r1')).not.toBe(base);
      const old = await TestServer.start({ pool, mimic: 'sglang', listAdapters: false });
      try {
        await post(`${old.root}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir });
        expect((JSON.parse(await (await fetch(`${old.url}/models`)).text()) as { data: { id: string }[] }).data.map((c) => c.id)).not.toContain('r1');
      } finally {
        await old.close();
      }
    } finally {
      await s.close();
    }
  });

  test('a policy named by the bare adapter name stops at preflight, before any sample, with the exact name to use', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang' });
    try {
      await post(`${s.root}/load_lora_adapter`, { lora_name: 'r1', lora_path: adapter() });
      const gen = new OpenAIGenerator(serverBackend(s.url, 'r1'));
      await expect(gen.pool.preflight()).rejects.toThrow(
        /generate\.backend\.model "r1" is a LoRA adapter that SGLang lists by its bare name but serves only as "shapes-policy:r1": under "r1" it answers with the base model, silently\. Set generate\.backend\.model to "shapes-policy:r1"\./,
      );
      expect(s.stats.requests).toBe(0);
      await gen.close();
      const right = new OpenAIGenerator(serverBackend(s.url, 'shapes-policy:r1'));
      await expect(right.pool.preflight()).resolves.toEqual([]);
      await right.close();
    } finally {
      await s.close();
    }
  });

  test("vLLM's load_inplace sticks: every later generation pays a reload, counted at /metrics; vllm-legacy ignores the field", async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', loraUpdating: true, inplaceReloadMs: 300 });
    const legacy = await TestServer.start({ pool, mimic: 'vllm-legacy', loraUpdating: true });
    try {
      const dir = adapter();
      expect((await post(`${v.url}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir })).status).toBe(200);
      expect((await post(`${v.url}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir, load_inplace: true })).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await chat(v.url, 'r1')).status).toBe(200);
      expect(v.adapters.reloads.get('r1')).toBe(2);
      expect(await (await fetch(`${v.root}/metrics`)).text()).toMatch(/rlaifv_mimic_lora_inplace_reloads_total\{lora_name="r1"\} 2/);
      await post(`${legacy.url}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir });
      const again = await post(`${legacy.url}/load_lora_adapter`, { lora_name: 'r1', lora_path: dir, load_inplace: true });
      expect(again).toMatchObject({ status: 400, text: expect.stringMatching(/has already been loaded/) });
    } finally {
      await Promise.all([v.close(), legacy.close()]);
    }
  });

  test("vLLM answers 500 with add_lora's text for a rank over --max-lora-rank and for LoRA not enabled", async () => {
    const rank = await TestServer.start({ pool, mimic: 'vllm', loraUpdating: true, maxLoraRank: 8 });
    const off = await TestServer.start({ pool, mimic: 'vllm', loraUpdating: true, loraDisabled: true });
    try {
      const r = await post(`${rank.url}/load_lora_adapter`, { lora_name: 'big', lora_path: adapter(16) });
      expect(r.status).toBe(500);
      expect(JSON.parse(r.text).error.message).toBe('LoRA rank 16 is greater than max_lora_rank 8.');
      expect((await post(`${rank.url}/load_lora_adapter`, { lora_name: 'small', lora_path: adapter(8) })).status).toBe(200);
      const o = await post(`${off.url}/load_lora_adapter`, { lora_name: 'x', lora_path: adapter() });
      expect(o.status).toBe(500);
      expect(JSON.parse(o.text).error.message).toBe('LoRA is not enabled.');
    } finally {
      await Promise.all([rank.close(), off.close()]);
    }
  });
});

describe('what a server says it is', () => {
  test("SGLang's /model_info answers; a release after the removal of its deprecated /get_model_info has only it", async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', noGetModelInfo: true });
    try {
      expect((await fetch(`${s.root}/get_model_info`)).status).toBe(404);
      expect((await fetch(`${s.root}/model_info`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('behind a proxy whose model cards say no owner, /model_info still tells SGLang once /get_model_info is gone', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', noGetModelInfo: true });
    // A pass-through proxy on 127.0.0.1 that writes GET /v1/models without owned_by (the S7 case in SERVERS.md).
    const proxy = http.createServer(async (req, res) => {
      const r = await fetch(`${s.root}${req.url}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '' } });
      let body = await r.text();
      if (req.url === '/v1/models') body = JSON.stringify({ ...JSON.parse(body), data: JSON.parse(body).data.map(({ owned_by: _o, ...c }: { owned_by: string }) => c) });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/v1`;
      expect(await detectServerKind(url, null)).toBe('sglang');
      expect(s.stats.routes['GET /model_info']).toBe(1);
    } finally {
      await new Promise((r) => proxy.close(r));
      await s.close();
    }
  });

  test('/version names the release a vLLM mode copies and the quirks switched on', async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', capMaxTokens: 96 });
    const l = await TestServer.start({ pool, mimic: 'vllm-legacy' });
    try {
      expect(await (await fetch(`${v.root}/version`)).json()).toEqual({ version: '0.17.0', mimic: { mode: 'vllm', behaviours: ['cap-max-tokens 96', 'sticky-load-inplace 100ms'] } });
      expect(await (await fetch(`${l.root}/version`)).json()).toEqual({ version: '0.9.2', mimic: { mode: 'vllm-legacy', behaviours: [] } });
    } finally {
      await Promise.all([v.close(), l.close()]);
    }
  });
});
