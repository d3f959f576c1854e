// Doctor checks of the SQLite store: it opens, PRAGMA integrity_check, its schema version against this rlaifv's, WAL.
// The file is opened read-only and never migrated or written.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { latestSchemaVersion } from '../store/open.js';
import { inspectStoreFile } from '../store/inspect.js';
import { fail, ok, warn, type Check } from './types.js';

const RECOVER = (file: string) =>
  `move ${file} aside and restore it from a backup, or salvage its rows with \`sqlite3 ${file} .recover | sqlite3 recovered.sqlite\`; ` +
  'a new store is made by the next `rlaifv run` (finished work in other stores can be merged back with `rlaifv merge`)';

/** Checks the database file (which need not exist yet). */
export function checkDatabase(file: string): Check[] {
  if (!existsSync(file)) {
    const dir = path.dirname(path.resolve(file));
    return [
      warn('database', file, `does not exist yet${existsSync(dir) ? '' : ` (nor its folder ${dir})`}; \`rlaifv run\` creates it`,
        'nothing to do before the first run; if a store should be there, pass --db FILE or set "db" in the config to its path'),
    ];
  }
  if (statSync(file).isDirectory()) {
    return [fail('database', file, 'is a folder, not a SQLite file', 'pass --db with the path of a .sqlite file (it is created if missing)')];
  }
  const found = inspectStoreFile(file);
  if (!found.opened) {
    return [fail('database', file, `cannot be opened: ${found.error.message}`, 'check the file\'s permissions (rlaifv needs to read and write it and its folder)')];
  }
  const out: Check[] = [];
  if (!found.ok) {
    const code = found.error.code ?? '';
    if (code === 'SQLITE_NOTADB') {
      out.push(fail('database integrity', file, 'is not a SQLite database (or its header is destroyed)',
        `point --db (or "db" in the config) at the rlaifv store; if this was the store, move ${file} aside and restore it from a backup (the next \`rlaifv run\` makes a new one)`));
    } else out.push(fail('database integrity', file, `is corrupt: ${found.error.message}`, RECOVER(file)));
    return out;
  }
  const rows = found.integrity;
  const problems = rows.flatMap((r) => r.split('\n')).filter((r) => r !== 'ok' && !/^\*\*\* in database/.test(r));
  if (problems.length === 0) out.push(ok('database integrity', file, 'PRAGMA integrity_check: ok'));
  else {
    out.push(fail('database integrity', file,
      `PRAGMA integrity_check found ${rows.length >= 20 ? 'at least ' : ''}${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}`,
      RECOVER(file)));
  }

  const { version, tables, isStore } = found;
  const latest = latestSchemaVersion();
  if (version > latest) {
    out.push(fail('database schema', file, `schema version ${version} is newer than this rlaifv's (${latest}): it was written by a newer rlaifv`,
      'upgrade rlaifv (npm install rlaifv@latest, or pull and rebuild this checkout) to open it; never downgrade a store'));
  } else if (version === 0 && tables === 0) {
    out.push(warn('database schema', file, `empty database (no tables); this rlaifv writes schema version ${latest}`,
      'nothing to do: the next `rlaifv run` creates the tables'));
  } else if (!isStore) {
    out.push(fail('database schema', file, `not an rlaifv store: ${tables} table${tables === 1 ? '' : 's'}, none named "rounds" (user_version ${version})`,
      'point --db (or "db" in the config) at an rlaifv store, or at a new file name'));
  } else if (version < latest) {
    out.push(warn('database schema', file, `schema version ${version}, this rlaifv writes ${latest}`,
      'nothing to do: the next writing command (rlaifv run, pull, merge) migrates it in place; back the file up first if an older rlaifv still reads it'));
  } else {
    out.push(ok('database schema', file, `schema version ${version} (this rlaifv: ${latest})`));
  }

  const mode = found.journalMode;
  if (mode === 'wal') out.push(ok('database WAL', file, 'journal_mode wal (readers never block the writer)'));
  else {
    out.push(warn('database WAL', file, `journal_mode ${mode}, not wal: readers (stats, pull, sql) and a run would block each other`,
      `the next writing command switches it to WAL; or now: sqlite3 ${file} 'PRAGMA journal_mode=WAL'. Keep the store on a local disk: WAL does not work on network file systems`));
  }
  return out;
}
