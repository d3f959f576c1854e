// Runs a real round (tiny models, worker pool, SQLite file) the way the CLI does, for tests; a finished round the same
// vitest run already made is copied from the run's round cache instead of made again (round-cache.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, storedConfig, type ConfigOverrides } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { latestRound, openDb, type Db, type RoundRow } from '../../src/store/index.js';
import { runRound } from '../../src/pipeline/round.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { sharedPool } from './file-pool.js';
import { STAGES } from '../../src/domain.js';
import { ROOT, tempDir } from './paths.js';
import { cachedFolder, cacheKey, copyRound, roundCacheDir } from './round-cache.js';

/**
 * Runs a whole round of the embedded default config on the first `limit` dev prompts into a new database.
 * Within one vitest run, a round with the same limit and final config (after `overrides` and `edit`) is built once and
 * each caller gets its own copy of the file, equal to what its own run would have written (the stored config names the
 * caller's file). `fresh: true` makes it for real every time: for a test of the round's making (counts, determinism).
 * A round on a served backend, on prompts outside the committed data or into an existing file is always made for real.
 * `pool`: a worker pool to make it in, left open; absent: the test process's shared pool (tests/helpers/file-pool.ts).
 */
export async function runDemoRound(
  opts: { limit: number; seed?: number; overrides?: ConfigOverrides; edit?: (c: Config) => void; dbFile?: string; fresh?: boolean; pool?: WorkerPool },
): Promise<{ db: Db; round: RoundRow; config: Config; file: string }> {
  const file = opts.dbFile ?? path.join(tempDir(), 'round.sqlite');
  const configFor = (db: string) => {
    const { config } = loadConfig(undefined, { db, seed: opts.seed ?? 0, workers: 2, ...opts.overrides });
    opts.edit?.(config);
    return config;
  };
  const config = configFor(file);
  const cache = opts.fresh || existsSync(file) || !cacheable(config) ? null : roundCacheDir();
  if (!cache) {
    const { round } = await runRound(config, { choice: 'latest', stages: STAGES, limit: opts.limit, pool: opts.pool ?? sharedPool(2) });
    return { db: openDb(file), round, config, file };
  }
  const folder = await cachedFolder(cache, cacheKey({ limit: opts.limit, config: { ...config, db: '' } }), async (built) => {
    await runRound(configFor(built), { choice: 'latest', stages: STAGES, limit: opts.limit, pool: opts.pool ?? sharedPool(2) });
  });
  copyRound(folder, file);
  const db = openDb(file);
  // A store's identity (merge tells stores apart by it) is drawn when the file is made: a copy draws its own.
  db.prepare("UPDATE store_info SET value = lower(hex(randomblob(16))) WHERE key = 'store_id'").run();
  // The one place a round stores its own file's path: make it the caller's, as its own run would have.
  const stored = db.prepare('SELECT id, config_json FROM rounds').all() as { id: number; config_json: string }[];
  const built = path.join(folder, 'round.sqlite');
  for (const r of stored) {
    const c = JSON.parse(r.config_json) as Config;
    if (storedConfig({ ...c, db: file }) !== storedConfig(config)) throw new Error(`round cache: round ${r.id} in ${built} has another config`);
    db.prepare('UPDATE rounds SET config_json = ? WHERE id = ?').run(storedConfig(config), r.id);
  }
  return { db, round: latestRound(db)!, config, file };
}

/**
 * Whether a round depends only on committed files and the local models, so a copy is what a new run would make: every
 * path it names (prompts, models) is inside the repository, and no backend is served.
 */
function cacheable(config: Config): boolean {
  const paths: string[] = [];
  const json = JSON.stringify({ ...config, db: '' }, (_k, v: unknown) => {
    if (typeof v === 'string' && path.isAbsolute(v)) paths.push(v);
    return v;
  });
  return !/openai|https?:/.test(json) && paths.every((p) => p.startsWith(ROOT + path.sep));
}
