// The database file a reading command works on, from --db or the config; it must already exist.
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { ExportInputError } from '../export/errors.js';

/** The store path the flags point at (--db, else the config's `db`), checked to exist: readers never create one. */
export function existingDbFile(f: { db?: string; config?: string }): string {
  const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
  if (!existsSync(config.db)) {
    throw new ExportInputError(`Database ${config.db} does not exist; run \`rlaifv run\` first, or pass --db FILE.`);
  }
  return config.db;
}
