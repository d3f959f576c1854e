// Runs a real round (tiny models, worker pool, SQLite file) the way the CLI does, for tests.
import path from 'node:path';
import { loadConfig, type ConfigOverrides } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { openDb, type Db, type RoundRow } from '../../src/store/index.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { tempDir } from './paths.js';

/** Runs a whole round of the embedded default config on the first `limit` dev prompts into a new database. */
export async function runDemoRound(
  opts: { limit: number; seed?: number; overrides?: ConfigOverrides; edit?: (c: Config) => void; dbFile?: string },
): Promise<{ db: Db; round: RoundRow; config: Config; file: string }> {
  const file = opts.dbFile ?? path.join(tempDir(), 'round.sqlite');
  const { config } = loadConfig(undefined, { db: file, seed: opts.seed ?? 0, workers: 2, ...opts.overrides });
  opts.edit?.(config);
  const { round } = await runRound(config, { choice: 'latest', stages: STAGES, limit: opts.limit });
  return { db: openDb(file), round, config, file };
}
