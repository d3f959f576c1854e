// Where the store is, for the commands that read only the store (stats, report, pull, export, sql): without
// --config, --db or the default is all there is to know, so the config schema (zod and every section's schema, about
// 90 ms of CPU per start) is not loaded; with --config the file is loaded and checked in full, as for every command.
import path from 'node:path';
import { DEFAULT_DB } from './default-db.js';

/** The store path `--config FILE` and `--db FILE` give, resolved as `loadConfig` resolves it. */
export async function storePath(f: { config?: string; db?: string }, cwd = process.cwd()): Promise<string> {
  if (f.config === undefined) {
    const p = f.db || DEFAULT_DB;
    return /^[a-z]+:\/\//i.test(p) ? p : path.resolve(cwd, p);
  }
  const { loadConfig } = await import('./load.js');
  return loadConfig(f.config, f.db ? { db: f.db } : {}, cwd).config.db;
}
