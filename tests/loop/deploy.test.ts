// The loop with a served policy, against the test server behaving like vLLM and like SGLang: after training, the
// deploy hook (scripts/deploy/load-adapter.mjs) serves the new checkpoint on every endpoint, the loop waits until each
// serves it, and the evaluation and the next round sample from it. vLLM takes PEFT adapters only, behind
// VLLM_ALLOW_RUNTIME_LORA_UPDATING; a rerun after a partial deploy keeps the name it loaded; SGLang loads adapters at
// its root and serves them as "base:adapter", and replaces the base's weights for a full checkpoint.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runLoop } from '../../src/loop/index.js';
import { loopCommands, openDb } from '../../src/store/index.js';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import type { Mimic } from '../../scripts/mimic/mimic.js';
import type { Quirks } from '../../scripts/mimic/quirks.js';
import { POLICY, ROOT, tempDir } from '../helpers/paths.js';

// One worker pool for the file's servers and its loops (runLoop's `pool`): each of the ~11 loops made its own before,
// and each worker loads the labeler and the divider's model again.
let pool: WorkerPool;
beforeAll(() => {
  pool = new WorkerPool(1);
});
afterAll(async () => {
  await pool?.close();
});

/** Servers sharing the test's models. */
async function servers(n: number, mimic: Mimic, loraUpdating = true, quirks: Quirks & { deterministic?: boolean } = {}): Promise<TestServer[]> {
  return Promise.all(Array.from({ length: n }, () => TestServer.start({ pool, mimic, loraUpdating, ...quirks })));
}

/** The deploy hook as a user runs it by hand. */
async function hook(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const r = await promisify(execFile)('node', [path.join(ROOT, 'scripts/deploy/load-adapter.mjs'), ...args]);
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stderr: string };
    return { code: x.code, stderr: x.stderr };
  }
}

/** Training is not what these tests are about: the trainer copies its parent (a real command leaving a real folder). */
const COPY = 'cp -r {policy} {out}';
/** ...and marks it a PEFT adapter (the tiny models have no LoRA; the test server serves the folder's weights for it). */
const ADAPTER = `${COPY} && echo '{"peft_type": "LORA", "r": 8, "base_model_name_or_path": "shapes-policy"}' > {out}/adapter_config.json`;
const HOOK = 'node {root}/scripts/deploy/load-adapter.mjs {base_urls} {model} {checkpoint}';

// A loop runs 6 train prompts and 4 held-out ones where a test counts the evaluation's requests (4 × (3 sampled + 1
// greedy)), and 4 and 2 elsewhere: the deploy step and its failures do not depend on the round's size.
function served(urls: string[], o: { trainer?: string; command?: string; model?: string; readyMs?: number } = {}) {
  const dir = tempDir('rlaifv-deploy-');
  const db = path.join(dir, 'loop.sqlite');
  const config = loadConfig(undefined, { db, workers: 1 }).config;
  config.generate = { ...config.generate, samples: 3, max_new_tokens: 48, backend: { ...openaiDefaults(), model: 'shapes-policy', base_urls: urls } };
  config.loop = {
    ...config.loop,
    trainer: o.trainer ?? ADAPTER,
    eval_samples: 3,
    deploy: { command: o.command ?? HOOK, model: o.model ?? 'policy-r{round}', start_checkpoint: POLICY, ready_timeout_ms: o.readyMs ?? 30_000 },
  };
  return { config, db };
}

function openaiDefaults() {
  return {
    type: 'openai' as const,
    model: '',
    base_urls: [] as string[],
    max_in_flight: 4,
    timeout_ms: 60_000,
    max_retries: 2,
    min_backoff_ms: 50,
    max_backoff_ms: 500,
    rest_after_failures: 3,
    rest_ms: 1000,
  };
}

function steps(db: string, loopId: number) {
  const d = openDb(db, { readonly: true });
  try {
    return loopCommands(d, loopId).map((c) => [c.step, c.exit_code, c.reason === null] as const);
  } finally {
    d.close();
  }
}

describe('deploying to vLLM (runtime LoRA)', () => {
  test('an adapter is loaded on every endpoint; the evaluation samples from it on both', async () => {
    const [a, b] = await servers(2, 'vllm');
    try {
      const { config, db } = served([a!.url, b!.url]);
      const r = await runLoop(config, { pool, rounds: 1, limit: 6, evalLimit: 4 });
      expect(r.rounds[0]!.served_model).toBe('policy-r1');
      expect(r.rounds[0]!.eval?.false_claim_rate).toBeTypeOf('number');
      // Both endpoints list the adapter (vLLM adds a model card per adapter) and took part in the evaluation:
      // 4 held-out prompts × (3 sampled + 1 greedy), one request each, and the hook's one request per endpoint that
      // checks the new adapter answers before the previous one is unloaded.
      for (const s of [a!, b!]) expect(s.adapters.loaded.get('policy-r1')).toBe(r.rounds[0]!.checkpoint);
      expect((a!.stats.byModel['policy-r1'] ?? 0) + (b!.stats.byModel['policy-r1'] ?? 0)).toBe(16 + 2);
      expect(a!.stats.byModel['policy-r1']).toBeGreaterThan(0);
      expect(b!.stats.byModel['policy-r1']).toBeGreaterThan(0);
      const cmd = steps(db, r.loop.id);
      expect(cmd).toEqual([['train', 0, true], ['deploy', 0, true]]);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  test('a deploy that loaded one endpoint of two fails; the rerun, with the same name, passes', async () => {
    const [a, b] = await servers(2, 'vllm');
    // b was started without VLLM_ALLOW_RUNTIME_LORA_UPDATING: its route is missing.
    (b!.adapters as { enabled: boolean }).enabled = false;
    try {
      const { config, db } = served([a!.url, b!.url]);
      await expect(runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(
        /the deploy hook failed \(exit code 1\)[\s\S]*load_lora_adapter does not exist: start vLLM with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment and --enable-lora/,
      );
      expect(a!.adapters.loaded.has('policy-r1')).toBe(true);
      // The server is restarted with the route; a's adapter "has already been loaded" (vLLM's 400), from this folder.
      (b!.adapters as { enabled: boolean }).enabled = true;
      const r = await runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 });
      expect(r.rounds[0]!.served_model).toBe('policy-r1');
      expect(b!.adapters.loaded.get('policy-r1')).toBe(r.rounds[0]!.checkpoint);
      expect(steps(db, r.loop.id)).toEqual([['train', 0, true], ['deploy', 1, false], ['deploy', 0, true]]);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  test('a full checkpoint cannot be loaded at run time: the step fails naming the restart recipe', async () => {
    const [a] = await servers(1, 'vllm');
    try {
      const { config } = served([a!.url], { trainer: COPY });
      await expect(runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(
        /vLLM cannot load a full checkpoint at run time[\s\S]*vllm serve .* --served-model-name policy-r1/,
      );
      expect(a!.adapters.loaded.size).toBe(0);
    } finally {
      await a!.close();
    }
  });

  test('a hook after which the model is never served fails the step; the rerun retries only the deploy', async () => {
    const [a] = await servers(1, 'vllm');
    try {
      const { config, db } = served([a!.url], { command: 'true', model: 'never-r{round}', readyMs: 1500 });
      await expect(runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(/did not serve "never-r1" within 1500 ms/);
      // The rerun's hook loads the adapter and checks it answers: it gets the usual time.
      config.loop.deploy = { ...config.loop.deploy!, command: HOOK, model: 'fixed-r{round}', ready_timeout_ms: 30_000 };
      const r = await runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 });
      expect(r.rounds[0]!.served_model).toBe('fixed-r1');
      const cmds = steps(db, r.loop.id);
      expect(cmds).toEqual([['train', 0, true], ['deploy', 0, false], ['deploy', 0, true]]);
      const d = openDb(db, { readonly: true });
      expect(loopCommands(d, r.loop.id)[2]!.command).toContain(`${ROOT}/scripts/deploy/load-adapter.mjs ${a!.url} fixed-r1 `);
      d.close();
    } finally {
      await a!.close();
    }
  });
});

describe('deploying to SGLang', () => {
  // Seeds honoured (deterministic mode) in both loops below: without it SGLang (and the mimic) draws a fresh seed for
  // every request, and about once in a few runs all 3 samples of each of the tiny policy's first 3 prompts came out
  // alike, which stopped the round (the sample guard, which now waits for 8 such prompts) in a test about where the adapter is loaded.
  test('an adapter is loaded at the root and served as "base:adapter"', async () => {
    const [a] = await servers(1, 'sglang', true, { deterministic: true });
    try {
      const { config } = served([a!.url], { model: 'shapes-policy:policy-r{round}' });
      const r = await runLoop(config, { pool, rounds: 1, limit: 6, evalLimit: 4 });
      expect(r.rounds[0]!.served_model).toBe('shapes-policy:policy-r1');
      expect(a!.adapters.loaded.get('policy-r1')).toBe(r.rounds[0]!.checkpoint);
      expect(a!.stats.routes['POST /load_lora_adapter']).toBe(1);
      expect(a!.stats.byModel['shapes-policy:policy-r1']).toBeGreaterThanOrEqual(16);
    } finally {
      await a!.close();
    }
  });

  test('a full checkpoint replaces the served model\'s weights; its name stays', async () => {
    const [a] = await servers(1, 'sglang', true, { deterministic: true });
    try {
      const { config } = served([a!.url], { trainer: COPY, model: 'shapes-policy' });
      const r = await runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 });
      expect(r.rounds[0]!.served_model).toBe('shapes-policy');
      expect(a!.stats.routes['POST /update_weights_from_disk']).toBe(1);
      expect((a!.opts.models['shapes-policy'] as { dir: string }).dir).toBe(r.rounds[0]!.checkpoint);
    } finally {
      await a!.close();
    }
  });
});

describe('one adapter per checkpoint, named by its content hash (loop.deploy.model "policy-{hash}")', () => {
  test.each([
    ['vllm', 'policy-{hash}'],
    ['sglang', 'shapes-policy:policy-{hash}'],
  ] as const)('%s: four rounds leave exactly one adapter of the loop loaded; load_inplace is never sent, no generation pays a reload', async (mimic, model) => {
    // Seeds honoured (SGLang: deterministic mode, without the #15746 bug), so each round's pairs are reproducible.
    const [a] = await servers(1, mimic, true, { inplaceReloadMs: 2000, deterministic: true });
    try {
      // Each round's trainer writes its own adapter (the round in adapter_config.json): four contents, four names.
      const trainer = `${COPY} && echo '{"peft_type": "LORA", "r": 8, "round": {round}}' > {out}/adapter_config.json`;
      const { config } = served([a!.url], { model, trainer });
      const r = await runLoop(config, { pool, rounds: 4, limit: 4, evalLimit: 2 });
      expect(r.rounds).toHaveLength(4);
      const names = r.rounds.map((x) => x.served_model!);
      expect(new Set(names).size).toBe(4);
      for (const n of names) expect(n).toMatch(mimic === 'vllm' ? /^policy-[0-9a-f]{12}$/ : /^shapes-policy:policy-[0-9a-f]{12}$/);
      const last = names.at(-1)!.replace(/^shapes-policy:/, '');
      expect([...a!.adapters.loaded.keys()]).toEqual([last]);
      expect(a!.adapters.inplaceRequests).toBe(0);
      expect(a!.adapters.reloads.size).toBe(0);
      if (mimic === 'vllm') expect(await (await fetch(`${a!.root}/metrics`)).text()).not.toMatch(/lora_name=/);
    } finally {
      await a!.close();
    }
  });

  test.each([
    ['vllm', 'policy-'],
    ['sglang', 'shapes-policy:policy-'],
  ] as const)('%s: the hook run twice on one checkpoint keeps one adapter and says it already serves it; a new checkpoint replaces it after it answers', async (mimic, stem) => {
    const [a] = await servers(1, mimic);
    const dir = tempDir('rlaifv-hook-');
    try {
      const cp = async (name: string, r: number) => {
        const out = path.join(dir, name);
        await promisify(execFile)('sh', ['-c', `cp -r ${POLICY} ${out} && echo '{"peft_type": "LORA", "r": ${r}}' > ${out}/adapter_config.json`]);
        return out;
      };
      const one = await cp('one', 8);
      const first = await hook(a!.url, `${stem}aaaa`, one);
      expect(first.code).toBe(0);
      const again = await hook(a!.url, `${stem}aaaa`, one);
      expect(again).toMatchObject({ code: 0, stderr: expect.stringMatching(/already serves/) });
      expect([...a!.adapters.loaded.keys()]).toEqual(['policy-aaaa']);
      const two = await cp('two', 4);
      const next = await hook(a!.url, `${stem}bbbb`, two);
      expect(next).toMatchObject({ code: 0, stderr: expect.stringMatching(/unloaded policy-aaaa/) });
      expect([...a!.adapters.loaded.keys()]).toEqual(['policy-bbbb']);
      expect(a!.adapters.inplaceRequests).toBe(0);
    } finally {
      await a!.close();
    }
  });
});

describe('a name reused for another folder (a config without {hash}): unloaded, then loaded; never in place', () => {
  test.each(['vllm', 'vllm-legacy'] as const)('%s', async (mimic) => {
    const [a] = await servers(1, mimic);
    const dir = tempDir('rlaifv-hook-');
    try {
      const folders = ['one', 'two'].map((n) => path.join(dir, n));
      for (const [i, f] of folders.entries()) {
        await promisify(execFile)('sh', ['-c', `cp -r ${POLICY} ${f} && echo '{"peft_type": "LORA", "r": 8, "n": ${i}}' > ${f}/adapter_config.json`]);
      }
      expect((await hook(a!.url, 'policy-r1', folders[0]!)).code).toBe(0);
      const again = await hook(a!.url, 'policy-r1', folders[1]!);
      expect(again.code, again.stderr).toBe(0);
      expect(a!.adapters.loaded.get('policy-r1')).toBe(folders[1]);
      expect(a!.adapters.inplaceRequests).toBe(0);
      expect(a!.stats.routes['POST /v1/unload_lora_adapter']).toBe(1);
    } finally {
      await a!.close();
    }
  });
});

describe("vLLM's 500s for adapters it cannot load: the server's text and the flag to fix", () => {
  test.each([
    [{ maxLoraRank: 4 }, /HTTP 500: LoRA rank 8 is greater than max_lora_rank 4\. Fix: restart vLLM with --max-lora-rank 8 or more/],
    [{ loraDisabled: true }, /HTTP 500: LoRA is not enabled\. Fix: restart vLLM with --enable-lora/],
  ] as const)('%o', async (quirks, message) => {
    const [a] = await servers(1, 'vllm', true, quirks);
    try {
      const { config } = served([a!.url], { model: 'policy-{hash}' });
      await expect(runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(message);
      expect(a!.adapters.loaded.size).toBe(0);
    } finally {
      await a!.close();
    }
  });
});

describe('SGLang serves a bare adapter name with the base model', () => {
  test('a deploy whose model is the bare adapter name is refused with the exact name to use', async () => {
    // Seeds honoured (deterministic mode), so the round before the deploy has pairs on every run, not by chance.
    const [a] = await servers(1, 'sglang', true, { deterministic: true });
    try {
      // The hook refuses it before loading (SGLang needs "base:adapter").
      const { config } = served([a!.url], { model: 'policy-{hash}' });
      await expect(runLoop(config, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(/give loop\.deploy\.model as "<served base>:policy-[0-9a-f]{12}"/);
      // A hook that loads it anyway (by hand): the wait for the model names the exact name instead of waiting.
      const { config: c2 } = served([a!.url], { model: 'policy-r{round}', command: `curl -s -X POST ${a!.root}/load_lora_adapter -H 'content-type: application/json' -d '{"lora_name": "policy-r1", "lora_path": "'{checkpoint}'"}'` });
      c2.db = config.db.replace(/loop\.sqlite$/, 'loop2.sqlite');
      await expect(runLoop(c2, { pool, rounds: 1, limit: 4, evalLimit: 2 })).rejects.toThrow(
        /loop\.deploy\.model "policy-r1" is a LoRA adapter that SGLang lists by its bare name but serves only as "shapes-policy:policy-r1"/,
      );
    } finally {
      await a!.close();
    }
  });
});
