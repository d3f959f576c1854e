// Opens the SQLite store once per process with WAL, foreign keys and a busy timeout, and migrates it.
// Every transaction that writes is begun with `.immediate()`, anywhere in src: the busy timeout only applies while a
// transaction takes its first lock, so a deferred one that reads first gets "database is locked" at once when its
// first write meets another process's write lock (tests/store/write-lock.e2e.test.ts).
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The better-sqlite3 handle type, re-exported so other store files need not import the driver. */
export type Db = Database.Database;

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'db');

interface Migration {
  version: number;
  file: string;
}

function migrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .map((file) => ({ file, m: /^(\d+)_.*\.sql$/.exec(file) }))
    .filter((x) => x.m)
    .map((x) => ({ version: Number(x.m![1]), file: x.file }))
    .sort((a, b) => a.version - b.version);
}

/** The schema version this build of rlaifv writes. */
export function latestSchemaVersion(): number {
  return migrations().at(-1)?.version ?? 0;
}

/** Options for opening a store. */
export interface OpenOptions {
  readonly?: boolean;
  /**
   * With readonly: a store of an older schema is upgraded first through a short writable connection (migrations only
   * add), so a reader finds the columns and views it queries. `rlaifv sql` leaves this to its --upgrade flag.
   */
  upgrade?: boolean;
}

/** Opens (creating and migrating when writable) the database at `file`. */
export function openDb(file: string, opts: OpenOptions = {}): Db {
  if (opts.readonly && !existsSync(file)) throw new Error(`Database ${file} does not exist.`);
  if (!opts.readonly) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { readonly: !!opts.readonly, fileMustExist: !!opts.readonly });
  } catch (e) {
    throw new Error(`Cannot open database ${file}: ${(e as Error).message}`);
  }
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoint the WAL every ~40 MB instead of 4 MB: fewer page copies and fsyncs while a stage writes in bulk.
    db.pragma('wal_autocheckpoint = 10000');
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  const latest = latestSchemaVersion();
  if (version > latest) {
    db.close();
    throw new Error(
      `Database ${file} has schema version ${version}, newer than this rlaifv knows (${latest}); upgrade rlaifv to open it.`,
    );
  }
  if (!opts.readonly && version < latest) migrate(db, version);
  if (opts.readonly && opts.upgrade && version > 0 && version < latest) {
    // A store written by an older rlaifv: its readers need the new columns and views. Migrations only add, so the
    // file is brought up to date through a short writable connection, when it can be written.
    db.close();
    try {
      openDb(file).close();
    } catch (e) {
      throw new Error(`Database ${file} has schema version ${version}, older than this rlaifv's (${latest}), and cannot be upgraded: ${(e as Error).message}`);
    }
    return openDb(file, { readonly: true });
  }
  return db;
}

function migrate(db: Db, from: number): void {
  for (const m of migrations()) {
    if (m.version <= from) continue;
    const sql = readFileSync(path.join(MIGRATIONS_DIR, m.file), 'utf8');
    // Each migration and its version bump commit together: a crash leaves the previous version intact.
    db.transaction(() => {
      // Another process opening the same new store may have applied it while this one waited for the write lock:
      // the version read before the lock is stale, so it is read again under the lock.
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return;
      db.exec(sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
