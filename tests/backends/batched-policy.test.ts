// The batched policy (all samples of a prompt in one batch on one run of the prompt) gives, for each seed, exactly the
// answer the per-seed path (LlavaModel.sample, one transformers.js loop per seed) gives, on the real tiny policy.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LlavaModel, readImage, type Sample } from '../../src/backends/local/llava.js';
import runTask from '../../src/backends/local/local.worker.js';
import type { GenerateResult } from '../../src/backends/types.js';
import { DEV, POLICY } from '../helpers/paths.js';

const prompts = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { image: string; question: string });

describe('batched policy', () => {
  let m: LlavaModel;
  beforeAll(async () => {
    m = await LlavaModel.load(POLICY, { threads: 1 });
  });
  afterAll(() => m.dispose());

  async function perSeed(p: { image: string; question: string }, seeds: number[], s: { temperature: number; topP: number; maxNewTokens: number }): Promise<Sample[]> {
    const out: Sample[] = [];
    for (const seed of seeds) out.push(await m.sample(await readImage(path.join(DEV, p.image)), p.question, { ...s, seed }));
    return out;
  }

  test('10 seeds × 6 prompts at temperature 0.7: every sample equals its seed\'s per-seed sample', async () => {
    const s = { temperature: 0.7, topP: 1, maxNewTokens: 512 };
    const texts = new Set<string>();
    for (const p of prompts.slice(0, 6)) {
      const seeds = Array.from({ length: 10 }, (_, k) => 7919 * k + 13);
      const batched = await m.sampleMany(await readImage(path.join(DEV, p.image)), p.question, seeds, s);
      expect(batched).toEqual(await perSeed(p, seeds, s));
      for (const b of batched) texts.add(b.text);
    }
    expect(texts.size).toBeGreaterThan(20); // the seeds really give different answers
  });

  test('top-p, greedy and a token budget that cuts answers short give the per-seed answers too', async () => {
    const seeds = [1, 2, 3, 4, 5];
    const p = prompts[6]!;
    const image = await readImage(path.join(DEV, p.image));
    for (const s of [
      { temperature: 1, topP: 0.8, maxNewTokens: 512 },
      { temperature: 0, topP: 1, maxNewTokens: 512 },
      { temperature: 0.9, topP: 1, maxNewTokens: 5 },
    ]) {
      const batched = await m.sampleMany(image, p.question, seeds, s);
      expect(batched).toEqual(await perSeed(p, seeds, s));
      if (s.maxNewTokens === 5) for (const b of batched) expect(b).toMatchObject({ finishReason: 'length', tokenIds: expect.any(Array) });
    }
  });

  test('a prompt too long for the context fails the same way on both paths', async () => {
    const p = { image: prompts[0]!.image, question: 'Describe the '.repeat(100) + 'image.' };
    const s = { temperature: 0.7, topP: 1, maxNewTokens: 16 };
    const image = await readImage(path.join(DEV, p.image));
    await expect(m.sample(image, p.question, { ...s, seed: 1 })).rejects.toThrow(/the model's context is 160/);
    await expect(m.sampleMany(image, p.question, [1, 2], s)).rejects.toThrow(/the model's context is 160/);
  });

  test("the worker's generate task (the production path) returns each seed's per-seed sample, in the request's order", async () => {
    const decoding = { temperature: 0.7, top_p: 1, max_new_tokens: 512 };
    for (const p of prompts.slice(10, 13)) {
      const samples = [3, 0, 7, 1].map((index) => ({ index, seed: 1000 + index * 17 }));
      const res = (await runTask({ kind: 'generate', model: POLICY, threads: 1, imagePath: path.join(DEV, p.image), question: p.question, samples, decoding })) as GenerateResult[];
      const ref = await perSeed(p, samples.map((s) => s.seed), { temperature: 0.7, topP: 1, maxNewTokens: 512 });
      expect(res).toEqual(
        samples.map((s, k) => ({
          index: s.index,
          seed: s.seed,
          text: ref[k]!.text,
          finishReason: ref[k]!.finishReason,
          promptTokens: ref[k]!.promptTokens,
          completionTokens: ref[k]!.tokenIds.length + (ref[k]!.finishReason === 'stop' ? 1 : 0),
        })),
      );
    }
    const tooLong = (await runTask({ kind: 'generate', model: POLICY, threads: 1, imagePath: path.join(DEV, prompts[0]!.image), question: 'Describe the '.repeat(100), samples: [{ index: 0, seed: 1 }, { index: 1, seed: 2 }], decoding })) as GenerateResult[];
    expect(tooLong).toEqual([
      { index: 0, seed: 1, error: expect.stringMatching(/context is 160/) },
      { index: 1, seed: 2, error: expect.stringMatching(/context is 160/) },
    ]);
  });
});
