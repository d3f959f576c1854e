// The remote suite against the test server behaving like each real server (scripts/mimic/mimic.ts): vLLM ≥ 0.10.1
// (nested errors), vLLM before it and SGLang (flat errors), FastAPI's 404 for routes that are not there; sampling
// defaults from a generation_config.json; SGLang's seeds and merged top tokens. Every error reaches rlaifv with the
// server's own text, one bad item fails alone, and a round samples as configured whatever the server's defaults.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import type { Mimic } from '../../scripts/mimic/mimic.js';
import { DEV, POLICY, tempDir, serverBackend } from '../helpers/paths.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { sharedPool } from '../helpers/file-pool.js';
import { OpenAIGenerator, OpenAILabeler } from '../../src/backends/openai/index.js';
import { FatalBackendError } from '../../src/backends/errors.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, roundStats } from '../../src/store/index.js';

const MODES: Mimic[] = ['vllm', 'vllm-legacy', 'sglang'];

const server = serverBackend;

/** The dev prompts (the first `n`, or those at the given indices) with absolute image paths, plus the given extra rows, as a JSONL file. */
function promptsFile(n: number | number[], extra: Record<string, unknown>[] = []): string {
  const all = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean);
  const rows = (typeof n === 'number' ? all.slice(0, n) : n.map((k) => all[k]!))
    .map((l) => JSON.parse(l) as { image: string })
    .map((r) => ({ ...r, image: path.join(DEV, r.image) }));
  const file = path.join(tempDir(), 'prompts.jsonl');
  writeFileSync(file, [...rows, ...extra].map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

/** A config file whose three roles all go to `url` (defaults filled in by the schema, as for a user's file). */
function remoteConfig(url: string, prompts: string, extra: Record<string, unknown> = {}): Config {
  const file = path.join(tempDir(), 'rlaifv.json');
  writeFileSync(
    file,
    JSON.stringify({
      prompts,
      db: path.join(tempDir(), 'r.sqlite'),
      seed: 0,
      generate: { backend: server(url, 'shapes-policy'), samples: 4, max_new_tokens: 48 },
      label: { backend: server(url, 'shapes-labeler') },
      divide: { backend: { ...server(url, 'rules-divider'), type: 'llm' } },
      ...extra,
    }),
  );
  return loadConfig(file).config;
}

const IMAGE = path.join(DEV, 'images', 'dev-0000.png');
/** A question too long for the tiny models' 160-token context (with the image's 9 tokens). */
const LONG = `${Array.from({ length: 200 }, (_, i) => ['Is', 'there', 'a', 'red', 'circle'][i % 5]).join(' ')}?`;

// The test servers run in the test process's shared pool (tests/helpers/file-pool.ts): nothing here watches a pool's life.
let pool: WorkerPool;
beforeAll(() => {
  pool = sharedPool(2);
});

describe.each(MODES)('the remote suite against the %s mimic', (mode) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ pool, mimic: mode, maxLogprobs: 20 });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('a round with every role served; a prompt over the context length fails alone, with the server\'s text', async () => {
    // Dev prompts whose 4 samples at temperature 0.7 differ almost always (all 4 alike in 0-4 of 100 draws each, on
    // the tiny policy). SGLang samples without the request's seed, so on the first five dev prompts (prompt 1 alike
    // in 91 of 100, prompt 3 in 40) the sample guard, then stopping at 3 prompts of identical samples, could stop the
    // endpoint, as it is meant to for a server that ignores sampling (a fresh clone failed so once; it needs 8 now).
    const config = remoteConfig(srv.url, promptsFile([2, 4, 5, 7, 12], [{ id: 'too-long', image: IMAGE, question: LONG }]));
    await runRound(config, { choice: 'next', stages: STAGES, limit: 6 });
    const db = openDb(config.db);
    try {
      const s = roundStats(db, 1);
      expect(s.status).toBe('done');
      expect(s.candidates).toBe(20);
      expect(s.pairs).toBeGreaterThan(0);
      const failures = db.prepare('SELECT stage, item, reason FROM failures ORDER BY item').all() as { stage: string; item: string; reason: string }[];
      // Its 4 samples, and nothing else: one failure row per sample, as every generate failure is kept.
      expect(failures.map((f) => f.item)).toEqual(['too-long#0', 'too-long#1', 'too-long#2', 'too-long#3']);
      const text = mode === 'sglang' ? /The input \(\d+ tokens\) is longer than the model's context length \(160 tokens\)\./ : /The decoder prompt \(length \d+\) is longer than the maximum model length of 160\. Make sure that `max_model_len`/;
      for (const f of failures) {
        expect(f.stage).toBe('generate');
        expect(f.reason).toMatch(/^generate endpoint http:\/\/127\.0\.0\.1:\d+\/v1 refused this item \(HTTP 400\): /);
        expect(f.reason).toMatch(text);
      }
      // Refused, not retried.
      expect(s.usage.by_stage.generate!.retries).toBe(0);
    } finally {
      db.close();
    }
  });

  test('an image the server cannot decode fails its own samples only', async () => {
    const bad = path.join(tempDir(), 'broken.png');
    writeFileSync(bad, Buffer.concat([readFileSync(IMAGE).subarray(0, 40), Buffer.alloc(64, 7)]));
    const g = new OpenAIGenerator(server(srv.url, 'shapes-policy'));
    const decoding = { temperature: 0.7, top_p: 1, max_new_tokens: 16 };
    const [broken, fine] = await Promise.all([
      g.generate({ imagePath: bad, question: 'Describe the image.', history: [], samples: [{ index: 0, seed: 1 }], decoding }),
      g.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples: [{ index: 0, seed: 1 }], decoding }),
    ]);
    expect(broken[0]).toMatchObject({ error: expect.stringMatching(/refused this item \(HTTP 400\): cannot identify image file/) });
    expect(fine[0]).toHaveProperty('text');
  });

  test('mistakes stop the run with the server\'s own text, whatever its error envelope', async () => {
    const g = new OpenAIGenerator(server(srv.url, 'llava-13b'));
    const r = g.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples: [{ index: 0, seed: 1 }], decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 8 } });
    if (mode === 'sglang') {
      // SGLang answers whatever the request's model says: only GET /v1/models, which rlaifv checks first, tells.
      expect((await r)[0]).toHaveProperty('text');
      await expect(g.pool.preflight()).rejects.toThrow(/generate\.backend\.model "llava-13b" is not served: .* serves "shapes-policy"/);
      // An adapter it has not loaded is its own 400, which names what is loaded.
      const a = new OpenAIGenerator(server(srv.url, 'shapes-policy:policy-r9'));
      const ra = await a.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples: [{ index: 0, seed: 1 }], decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 8 } });
      expect(ra[0]).toMatchObject({ error: expect.stringMatching(/refused this item \(HTTP 400\): The following requested LoRA adapters are not loaded: policy-r9/) });
    } else {
      await expect(r).rejects.toThrow(FatalBackendError);
      await expect(r).rejects.toThrow(/does not serve model "llava-13b".*Server said: The model `llava-13b` does not exist\./);
    }
    if (mode !== 'sglang') {
      const small = await TestServer.start({ pool, mimic: mode, maxLogprobs: 5 });
      try {
        const l = new OpenAILabeler(server(small.url, 'shapes-labeler'), ' Please answer yes or no.', 20);
        await expect(l.label(IMAGE, ['Is there a circle?'])).rejects.toThrow(
          /refused the logprobs request \(HTTP 400\); lower label\.top_logprobs .* Server said: Requested sample logprobs of 20, which is greater than max allowed: 5/,
        );
      } finally {
        await small.close();
      }
    }
  });

  test('a base URL without /v1 is named as such, not as a model the server lacks', async () => {
    const g = new OpenAIGenerator(server(srv.root, 'shapes-policy'));
    const r = g.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples: [{ index: 0, seed: 1 }], decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 8 } });
    await expect(r).rejects.toThrow(/has no chat completions route \(HTTP 404: Not Found\); generate\.backend\.base_urls must be the server's OpenAI base URL, ending in \/v1/);
  });

  test('the labeler reads the same p(yes), p(no) as from the plain server (merged top tokens keep yes and no)', async () => {
    const plain = await TestServer.start({ pool });
    try {
      const qs = ['Is there a red circle?', 'Is there a blue square?', 'Are there two shapes?', 'Is the triangle on the left?'];
      const a = await new OpenAILabeler(server(srv.url, 'shapes-labeler'), ' Please answer yes or no.', 20).label(IMAGE, qs);
      const b = await new OpenAILabeler(server(plain.url, 'shapes-labeler'), ' Please answer yes or no.', 20).label(IMAGE, qs);
      a.forEach((x, i) => {
        expect(x.pYes).toBeCloseTo(b[i]!.pYes!, 6);
        expect(x.pNo).toBeCloseTo(b[i]!.pNo!, 6);
      });
    } finally {
      await plain.close();
    }
  });
});

describe('sampling defaults from the model\'s generation_config.json (Qwen2-VL ships top_k 1)', () => {
  const GEN = { top_k: 1, repetition_penalty: 1.05, temperature: 0.7, top_p: 0.8 };
  /** rlaifv's generate stage on the server at `url`: 10 samples of each of 20 dev prompts. */
  const answers = async (url: string) => {
    const config = remoteConfig(url, promptsFile(20), { generate: { backend: server(url, 'shapes-policy') } });
    await runRound(config, { choice: 'next', stages: ['generate'], limit: 20 });
    const db = openDb(config.db);
    try {
      return db.prepare('SELECT prompt_id, sample_index, text FROM candidates ORDER BY prompt_id, sample_index').all() as { prompt_id: string; text: string }[];
    } finally {
      db.close();
    }
  };
  // The answers of a server without defaults: the same config and seeds for both modes, so made once and compared
  // with by each (400 answers of up to 512 tokens fewer).
  let plainRun: ReturnType<typeof answers> | undefined;
  const plainAnswers = () =>
    (plainRun ??= (async () => {
      const plain = await TestServer.start({ pool });
      try {
        return await answers(plain.url);
      } finally {
        await plain.close();
      }
    })());

  test.each(['vllm', 'sglang'] as const)('%s: a request that leaves top_k out samples greedily; rlaifv\'s round still samples', async (mode) => {
    const srv = await TestServer.start({ pool, mimic: mode, generationConfig: GEN, deterministic: true });
    try {
      // What the server does to a request that leaves the fields out, as rlaifv's requests used to.
      const raw = await Promise.all(
        [1, 2, 3, 4].map(async (seed) => {
          const r = await fetch(`${srv.url}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'shapes-policy', seed, temperature: 0.7, top_p: 1, max_tokens: 48,
              messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${readFileSync(IMAGE).toString('base64')}` } }, { type: 'text', text: 'Describe the image in detail.' }] }],
            }),
          });
          return ((await r.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
        }),
      );
      expect(new Set(raw).size).toBe(1);
      expect(srv.stats.sampling.at(-1)).toMatchObject({ top_k: 1, repetition_penalty: 1.05 });

      // rlaifv's round on the same server, and on a server without defaults: 10 samples of 20 dev prompts each.
      const before = srv.stats.sampling.length;
      const served = await answers(srv.url);
      // The same answers, sample for sample: the server's generation_config changed nothing.
      expect(served).toEqual(await plainAnswers());
      const distinct = new Map<string, Set<string>>();
      for (const a of served) distinct.set(a.prompt_id, (distinct.get(a.prompt_id) ?? new Set()).add(a.text));
      const mean = [...distinct.values()].reduce((n, x) => n + x.size, 0) / distinct.size;
      expect(mean).toBeGreaterThan(3);
      // Every request carried the whole decoding, so none of the model's defaults applied.
      for (const s of srv.stats.sampling.slice(before)) expect(s).toEqual({ temperature: 0.7, top_p: 1, top_k: -1, min_p: 0, repetition_penalty: 1, max_tokens: 512 });
    } finally {
      await srv.close();
    }
  });
});

describe("OpenAI's newer models refuse max_tokens", () => {
  test('the first refusal switches the endpoint to max_completion_tokens, and every sample is made', async () => {
    const srv = await TestServer.start({ pool, models: { 'o-vision': { kind: 'vlm', dir: POLICY, refusesMaxTokens: true } } });
    try {
      const g = new OpenAIGenerator(server(srv.url, 'o-vision'));
      const samples = [1, 2, 3, 4].map((seed, index) => ({ index, seed }));
      const out = await g.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples, decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 24 } });
      for (const r of out) expect(r).toHaveProperty('text');
      const u = g.pool.takeUsage()[0]!.counts;
      // Each sample in flight before the first refusal came back was refused once; none after.
      expect(u.retries).toBeLessThanOrEqual(4);
      expect(srv.stats.served).toBe(4);
      const later = await g.generate({ imagePath: IMAGE, question: 'Describe the image.', history: [], samples, decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 24 } });
      for (const r of later) expect(r).toHaveProperty('text');
      expect(g.pool.takeUsage()[0]!.counts.retries).toBe(0);
    } finally {
      await srv.close();
    }
  });
});
