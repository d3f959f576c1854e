// The generate stage's guards against a server that samples otherwise than asked, without an error (SERVERS.md
// "Second reading" S1, S2): all N samples of a prompt the same text (SGLang ignoring seeds, sglang #15746, through the
// test server's --seed-ignored), answers cut below max_tokens (vLLM's get_max_tokens cap, --cap-max-tokens). The
// rule is pinned on its own, then a real round through the built CLI against the real test server on 127.0.0.1:
// it stops within its first prompts naming the causes and the fixes, or goes on with the endpoint that samples right.
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SampleGuard, IDENTICAL_PROMPTS_TO_STOP, CUT_PROMPTS_TO_STOP } from '../../src/stages/sample-guard.js';
import type { GenerateResult } from '../../src/backends/types.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { sharedPool } from '../helpers/file-pool.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { DEV, serverBackend, tempDir } from '../helpers/paths.js';
import { runNode } from '../helpers/run-cli.js';
import { openDb } from '../../src/store/index.js';

/** One prompt's answers from `endpoint`: texts, each with its finish reason and token counts. */
function answers(endpoint: string, texts: string[], o: { finish?: string; tokens?: number; prompt?: number } = {}): GenerateResult[] {
  return texts.map((text, index) => ({ index, seed: index, text, finishReason: o.finish ?? 'stop', promptTokens: o.prompt ?? 20, completionTokens: o.tokens ?? 10, endpoint }));
}

describe('the rule', () => {
  test(`identical samples on the first ${IDENTICAL_PROMPTS_TO_STOP} prompts stop that endpoint once, naming both causes and their fixes`, () => {
    expect(IDENTICAL_PROMPTS_TO_STOP).toBe(8);
    const g = new SampleGuard(0.7, 48);
    expect(g.observe(answers('B', ['p', 'q', 'r']))).toEqual([]);
    // Three, then seven prompts of identical samples are what a peaked policy shows by chance: not yet a fault.
    for (let i = 0; i < 7; i++) expect(g.observe(answers('A', [`x${i}`, `x${i}`, `x${i}`]))).toEqual([]);
    const [stop] = g.observe(answers('A', ['z', 'z', 'z']));
    expect(stop!.endpoint).toBe('A');
    expect(stop!.message).toMatch(/all 3 samples of each of its first 8 prompts came out as the same text at temperature 0\.7/);
    expect(stop!.message).toMatch(/--generation-config vllm/);
    expect(stop!.message).toMatch(/--enable-deterministic-inference/);
    expect(g.stopped('A')).toBe(true);
    expect(g.stopped('B')).toBe(false);
    expect(g.observe(answers('A', ['w', 'w']))).toEqual([]);
  });

  test('one prompt whose samples differ clears the endpoint; at temperature 0 identical samples are the design', () => {
    const g = new SampleGuard(0.7, 48);
    g.observe(answers('A', ['a', 'b']));
    for (let i = 0; i < 5; i++) expect(g.observe(answers('A', ['x', 'x']))).toEqual([]);
    const greedy = new SampleGuard(0, 48);
    for (let i = 0; i < 5; i++) expect(greedy.observe(answers('A', ['x', 'x']))).toEqual([]);
  });

  test(`answers cut at one length below max_tokens on ${CUT_PROMPTS_TO_STOP} prompts are a cap; cut at one prompt + answer total, a context limit`, () => {
    const cap = new SampleGuard(0.7, 48);
    expect(cap.observe(answers('A', ['a', 'b'], { finish: 'length', tokens: 8, prompt: 20 }))).toEqual([]);
    expect(cap.observe(answers('A', ['c', 'd'], { finish: 'length', tokens: 8, prompt: 25 }))).toEqual([]);
    const [stop] = cap.observe(answers('A', ['e', 'f'], { finish: 'length', tokens: 8, prompt: 30 }));
    expect(stop!.message).toMatch(/on 3 prompts, answers stop for "length" after 8 tokens though max_tokens was 48: the server caps max_tokens/);
    expect(stop!.message).toMatch(/--override-generation-config '\{"max_new_tokens": 48\}'/);
    expect(cap.cutByEndpoint).toEqual({ A: 6 });
    const context = new SampleGuard(0.7, 48);
    for (const prompt of [20, 20, 20, 20]) expect(context.observe(answers('A', ['a', 'b'], { finish: 'length', tokens: 30, prompt }))).toEqual([]);
    // An answer that reached max_tokens is not cut.
    const full = new SampleGuard(0.7, 48);
    full.observe(answers('A', ['a', 'b'], { finish: 'length', tokens: 48 }));
    expect(full.cutByEndpoint).toEqual({});
  });
});

// The test servers run in the test process's shared pool (tests/helpers/file-pool.ts): nothing here watches a pool's life.
let pool: WorkerPool;
let dir: string;
beforeAll(() => {
  pool = sharedPool(2);
  dir = tempDir('rlaifv-guard-');
});

/** A config file whose policy is served at `urls`, on the first `n` dev prompts. */
function config(urls: string[], n: number, generate: Record<string, unknown> = {}): { file: string; db: string } {
  const rows = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, n)
    .map((l) => JSON.parse(l) as { image: string }).map((r) => ({ ...r, image: path.join(DEV, r.image) }));
  const prompts = path.join(dir, `p-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(prompts, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const db = path.join(dir, `r-${Math.random().toString(36).slice(2)}.sqlite`);
  const file = path.join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ prompts, db, seed: 0, workers: 1, generate: { backend: serverBackend(urls, 'shapes-policy'), samples: 4, temperature: 0.9, max_new_tokens: 48, ...generate } }));
  return { file, db };
}

describe('a real round through the built CLI', () => {
  test('SGLang ignoring seeds: `rlaifv generate` stops within its first prompts with the causes and the fixes (exit 2, a server setup mistake like any FatalBackendError)', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', deterministic: true, seedIgnored: true });
    try {
      const { file } = config([s.url], 24);
      const r = await runNode(['generate', '--config', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/generate endpoint http:\/\/127\.0\.0\.1:\d+\/v1 is stopped: all 4 samples of each of its first 8 prompts came out as the same text at temperature 0\.9/);
      expect(r.stderr).toMatch(/restart SGLang without --enable-deterministic-inference/);
      // Stopped within its first prompts: not all 24 prompts × 4 samples were asked for.
      expect(s.stats.byModel['shapes-policy']).toBeLessThanOrEqual(12 * 4);
    } finally {
      await s.close();
    }
  });

  test('the same server without the bug samples all 12 prompts, with differing samples', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      const { file, db } = config([s.url], 12);
      const r = await runNode(['generate', '--config', file]);
      expect(r.code, r.stderr).toBe(0);
      const d = openDb(db, { readonly: true });
      const distinct = d.prepare('SELECT COUNT(DISTINCT text) AS n, prompt_id FROM candidates GROUP BY prompt_id').all() as { n: number }[];
      d.close();
      expect(distinct).toHaveLength(12);
      expect(distinct.filter((x) => x.n > 1).length).toBeGreaterThan(6);
    } finally {
      await s.close();
    }
  });

  test('two endpoints, one ignoring seeds: it is stopped and the round goes on with the other', async () => {
    const bad = await TestServer.start({ pool, mimic: 'sglang', deterministic: true, seedIgnored: true });
    const good = await TestServer.start({ pool, mimic: 'sglang', deterministic: true });
    try {
      const { file, db } = config([bad.url, good.url], 40);
      const r = await runNode(['generate', '--config', file]);
      expect(r.stderr).toMatch(new RegExp(`generate endpoint ${bad.url.replace(/[.]/g, '\\.')} is stopped`));
      expect(r.code, r.stderr).toBe(0);
      const before = bad.stats.byModel['shapes-policy'] ?? 0;
      expect(good.stats.byModel['shapes-policy']).toBeGreaterThan(before);
      const d = openDb(db, { readonly: true });
      const n = (d.prepare('SELECT COUNT(*) AS n FROM candidates').get() as { n: number }).n;
      d.close();
      expect(n).toBeGreaterThan(40 * 4 / 2);
    } finally {
      await Promise.all([bad.close(), good.close()]);
    }
  });

  test("vLLM capping max_tokens with the generation config's max_new_tokens: stopped with the fix; stats counts the cut answers", async () => {
    const v = await TestServer.start({ pool, mimic: 'vllm', capMaxTokens: 6 });
    try {
      const { file } = config([v.url], 12);
      const r = await runNode(['generate', '--config', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/is stopped: on 3 prompts, answers stop for "length" after 6 tokens though max_tokens was 48: the server caps max_tokens/);
      expect(r.stderr).toMatch(/--generation-config vllm/);
      const s = await runNode(['stats', '--config', file]);
      expect(s.code, s.stderr).toBe(0);
      const cut = Number(/answers_cut_short\s+(\d+)/.exec(s.stdout)?.[1]);
      expect(cut).toBeGreaterThanOrEqual(3 * 4 - 3);
      expect(s.stdout).toMatch(/note: \d+ answers stopped for "length" before generate\.max_new_tokens/);
    } finally {
      await v.close();
    }
  });
});
