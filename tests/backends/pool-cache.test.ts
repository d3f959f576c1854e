// A worker pool shared by many rounds (rlaifv loop keeps one for all its rounds and evaluations): a worker drops a
// model once no backend leases it (a loop's old checkpoints), keeps the ones still leased (the labeler), reloads a
// folder written again, and a round given the pool leaves it open.
import { afterAll, describe, expect, test } from 'vitest';
import { cpSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalGenerator, LocalLabeler } from '../../src/backends/local/index.js';
import type { CachedModels } from '../../src/backends/local/local.worker.js';
import { createBackends } from '../../src/pipeline/backends.js';
import { loadConfig } from '../../src/config/load.js';
import { folderStamp } from '../../src/util/checkpoint.js';
import { LABELER, POLICY, TEST, tempDir } from '../helpers/paths.js';

const IMAGE = path.join(TEST, 'images', 'test-0000.png');
const DECODING = { temperature: 0.7, top_p: 1, max_new_tokens: 16 };

// One worker, so every task lands on the thread whose cache is asked.
const pool = new WorkerPool(1);
afterAll(() => pool.close());
const cached = () => pool.run<CachedModels>({ kind: 'cached' });
const dirs = async () => (await cached()).models.map((m) => m.dir).sort();

describe('a shared worker pool', () => {
  test('over 6 rounds, each with a new checkpoint, the worker holds the labeler and the current checkpoint only', async () => {
    const dir = tempDir('rlaifv-pool-cache-');
    const labeler = new LocalLabeler(pool, LABELER, '');
    const held: number[] = [];
    for (let k = 1; k <= 6; k++) {
      // A loop round: a new checkpoint folder answers, the labeler labels, the round's generator is closed.
      const ckpt = path.join(dir, `round-${k}`);
      cpSync(POLICY, ckpt, { recursive: true });
      const gen = new LocalGenerator(pool, ckpt);
      const [a] = await gen.generate({ imagePath: IMAGE, question: 'Describe the image.', samples: [{ index: 0, seed: k }], decoding: DECODING });
      expect(a).toHaveProperty('text');
      await labeler.label(IMAGE, ['Is there a circle?']);
      expect(await dirs()).toEqual([LABELER, ckpt].sort());
      await gen.close();
      held.push((await cached()).models.length);
    }
    // The task after the last round's close dropped its checkpoint: only the leased labeler stays.
    expect(held).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await dirs()).toEqual([LABELER]);
    await labeler.close();
    expect(pool.leased()).toEqual([]);
  });

  test('a folder written again after its model was loaded is loaded again; a model used without a lease stays', async () => {
    const dir = path.join(tempDir('rlaifv-pool-stamp-'), 'ckpt');
    cpSync(POLICY, dir, { recursive: true });
    const first = new LocalGenerator(pool, dir);
    await pool.run({ kind: 'info', model: dir, threads: 1 });
    const before = (await cached()).models.find((m) => m.dir === dir)!.stamp;
    expect(before).toBe(folderStamp(dir));
    // A trainer that wrote the same folder again (a new checkpoint at the old path) while the model stayed leased.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, 'config.json'), later, later);
    const second = new LocalGenerator(pool, dir);
    await pool.run({ kind: 'info', model: dir, threads: 1 });
    const after = (await cached()).models.find((m) => m.dir === dir)!.stamp;
    expect(after).toBe(folderStamp(dir));
    expect(after).not.toBe(before);
    await first.close();
    await second.close();
    // The policy used directly, with no backend leasing it, is kept for the thread's life, as before leases existed.
    await pool.run({ kind: 'info', model: POLICY, threads: 1 });
    expect((await cached()).models).toEqual([{ dir: POLICY, stamp: null }]);
  });

  test('a round\'s backends given the pool end their leases on close and leave the pool open', async () => {
    const { config } = loadConfig(undefined, { db: path.join(tempDir(), 'p.sqlite'), workers: 1 });
    const backends = createBackends(config, { pool });
    expect(backends.pool).toBe(pool);
    expect(pool.leased().sort()).toEqual([config.generate.backend.model, config.label.backend.model].sort());
    await backends.close();
    expect(pool.leased()).toEqual([]);
    expect((await pool.run<{ claims: unknown[] }[]>({ kind: 'divide', items: [{ question: 'q', answer: 'There is a red circle.' }], maxWords: null }))).toHaveLength(1);
  });
});

describe('a pool\'s threads', () => {
  test('start at its first task; a pool closed unused started none and refuses a task sent after its close', async () => {
    const unused = new WorkerPool(2);
    expect(unused.started).toBe(false);
    await Promise.all([unused.close(), unused.close()]);
    expect(unused.started).toBe(false);
    await expect(unused.run({ kind: 'cached' })).rejects.toThrow('the worker pool is closing');
    expect(unused.started).toBe(false);
    const used = new WorkerPool(1);
    await used.run<CachedModels>({ kind: 'cached' });
    expect(used.started).toBe(true);
    await used.close();
    await expect(used.run({ kind: 'cached' })).rejects.toThrow('the worker pool is closing');
  });
});
