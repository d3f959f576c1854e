// Reads rows of a database file the way a user's query would: a read-only connection of its own, closed after.
import { openDb } from '../../src/store/index.js';

/** The rows of `sql` on the database file `db` (read-only). Example: `rows<{ n: number }>(db, 'SELECT COUNT(*) n FROM pairs')`. */
export function rows<T>(db: string, sql: string, ...args: unknown[]): T[] {
  const d = openDb(db, { readonly: true });
  try {
    return d.prepare(sql).all(...args) as T[];
  } finally {
    d.close();
  }
}
