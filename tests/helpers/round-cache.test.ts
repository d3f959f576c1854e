// The round cache of tests/helpers: a copy is what a real run into the caller's file writes, copies are independent,
// and two callers of one key at once build it once.
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runDemoRound } from './round.js';
import { cachedFolder, roundCacheDir } from './round-cache.js';
import { snapshot, type Snapshot } from './db-snapshot.js';
import { tempDir } from './paths.js';
import { filePool } from './file-pool.js';
import type { Db } from '../../src/store/index.js';
import type { Config } from '../../src/config/schema.js';

// Times and durations differ between any two runs; everything else must be equal.
const TIMES = /"(started_at|finished_at|created_at|seconds|elapsed_ms|wall_ms|[a-z_]*_at)":("[^"]*"|[0-9.e-]+|null)/g;
const untimed = (s: Snapshot) => Object.fromEntries(Object.entries(s).filter(([t]) => t !== 'stage_runs').map(([t, rows]) => [t, rows.map((r) => r.replace(TIMES, '"$1":0')).sort()]));

describe('runDemoRound through the round cache', () => {
  const opened: Db[] = [];
  // One worker pool for the rounds this file makes for real (a pool each before: about 1.3 s of CPU a pool).
  const pool = filePool();
  afterAll(() => opened.forEach((d) => d.close()));
  // 3 prompts with 4 samples each: the smallest rounds here that still make pairs.
  const FOUR = (c: Config) => (c.generate.samples = 4);
  const round = async (o: Parameters<typeof runDemoRound>[0]) => {
    const r = await runDemoRound({ edit: FOUR, pool: pool(), ...o });
    opened.push(r.db);
    return r;
  };

  test('the run has a cache folder', () => {
    expect(roundCacheDir()).not.toBeNull();
  });

  test('a copy equals a real run into the same kind of file, row for row but for times, with its own file in the stored config', async () => {
    const real = await round({ limit: 3, seed: 5, fresh: true });
    const a = await round({ limit: 3, seed: 5 });
    const b = await round({ limit: 3, seed: 5 });
    expect(a.file).not.toBe(b.file);
    const cfg = (r: { db: Db }) => JSON.parse((r.db.prepare('SELECT config_json FROM rounds').get() as { config_json: string }).config_json).db;
    expect(cfg(a)).toBe(a.file);
    expect(cfg(b)).toBe(b.file);
    expect(a.round).toEqual({ ...b.round, config_json: a.round.config_json });
    const strip = (r: { file: string; db: Db }) => {
      r.db.pragma('wal_checkpoint(TRUNCATE)');
      const s = snapshot(r.file);
      s.rounds = s.rounds!.map((row) => row.replaceAll(r.file, 'FILE'));
      s.store_info = s.store_info!.map((row) => (JSON.parse(row).key === 'store_id' ? 'store_id' : row));
      return untimed(s);
    };
    expect(strip(a)).toEqual(strip(real));
    expect(strip(a).pairs!.length).toBeGreaterThan(0);
    // Each copy is a store of its own, as a real run's file is (merge tells stores apart by this id).
    const id = (r: { db: Db }) => (r.db.prepare("SELECT value FROM store_info WHERE key = 'store_id'").get() as { value: string }).value;
    expect(new Set([id(real), id(a), id(b)]).size).toBe(3);
  });

  test('a write to one copy is not seen by another', async () => {
    const a = await round({ limit: 3, seed: 5 });
    const n = (a.db.prepare('SELECT COUNT(*) AS n FROM pairs').get() as { n: number }).n;
    a.db.prepare('DELETE FROM pairs').run();
    const b = await round({ limit: 3, seed: 5 });
    expect((b.db.prepare('SELECT COUNT(*) AS n FROM pairs').get() as { n: number }).n).toBe(n);
  });

  test('another limit, seed or edit is another round', async () => {
    const base = await round({ limit: 3, seed: 5 });
    const seed = await round({ limit: 3, seed: 6 });
    const edited = await round({ limit: 3, seed: 5, edit: (c) => (c.generate.samples = 2) });
    const count = (r: { db: Db }) => (r.db.prepare('SELECT COUNT(*) AS n FROM candidates').get() as { n: number }).n;
    expect(count(edited)).toBe(6);
    expect(count(base)).toBe(count(seed));
    const texts = (r: { db: Db }) => r.db.prepare('SELECT text FROM candidates ORDER BY text').all();
    expect(texts(seed)).not.toEqual(texts(base));
  });
});

describe('cachedFolder', () => {
  test('two callers of one key at once: one builds, the other waits for it, nothing half-built is left', async () => {
    const cache = tempDir('rlaifv-cache-');
    let builds = 0;
    const build = async (file: string) => {
      builds++;
      await sleep(300);
      expect(existsSync(path.join(cache, 'k'))).toBe(false); // not visible while being built
      writeFileSync(file, 'x');
    };
    const [a, b] = await Promise.all([cachedFolder(cache, 'k', build), cachedFolder(cache, 'k', build)]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    expect(readdirSync(cache)).toEqual(['k']);
    expect(readdirSync(a)).toEqual(['round.sqlite']);
  });

  test('a build that fails leaves nothing, and the next caller builds again', async () => {
    const cache = tempDir('rlaifv-cache-');
    await expect(cachedFolder(cache, 'bad', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(readdirSync(cache)).toEqual([]);
    const dir = await cachedFolder(cache, 'bad', async (f) => writeFileSync(f, 'y'));
    expect(readdirSync(dir)).toEqual(['round.sqlite']);
  });
});
