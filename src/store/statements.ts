// Prepared statements, prepared once per connection and reused: preparing is the costly part.
import type Database from 'better-sqlite3';
import type { Db } from './open.js';

const cache = new WeakMap<Db, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, prepared on first use. */
export function stmt(db: Db, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/** The current time as stored (ISO 8601, UTC). */
export function now(): string {
  return new Date().toISOString();
}
