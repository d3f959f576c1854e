// A read-only look at a SQLite file that may not be an rlaifv store (for `rlaifv doctor`): opened read-only, never
// migrated or written, so a newer or foreign file is reported on and left as it is.
import Database from 'better-sqlite3';

/**
 * What a file holds; or why it could not be opened (`opened: false`); or why PRAGMA integrity_check could not run
 * (`ok: false`; `error.code` is SQLite's, e.g. SQLITE_NOTADB).
 */
export type StoreInspection =
  | { opened: false; ok: false; error: Error }
  | { opened: true; ok: false; error: Error & { code?: string } }
  | {
      opened: true;
      ok: true;
      /** PRAGMA integrity_check(20)'s rows ('ok' alone when sound). */
      integrity: string[];
      /** PRAGMA user_version: the schema version that wrote it. */
      version: number;
      tables: number;
      /** It has a `rounds` table. */
      isStore: boolean;
      journalMode: string;
    };

/** Inspects `file` read-only. */
export function inspectStoreFile(file: string): StoreInspection {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    return { opened: false, ok: false, error: e as Error };
  }
  try {
    let rows: { integrity_check: string }[];
    try {
      db.pragma('busy_timeout = 10000');
      rows = db.pragma('integrity_check(20)') as { integrity_check: string }[];
    } catch (e) {
      return { opened: true, ok: false, error: e as Error & { code?: string } };
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
    const isStore = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rounds'").get();
    const journalMode = String(db.pragma('journal_mode', { simple: true }));
    return { opened: true, ok: true, integrity: rows.map((r) => r.integrity_check), version, tables, isStore, journalMode };
  } finally {
    db.close();
  }
}
