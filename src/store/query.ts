// Read-only queries for analysts (`rlaifv sql`): a read-only connection, and a statement that must only read.
import { InputError } from '../errors.js';
import type { Db } from './open.js';

/** Thrown when a statement is refused or fails to prepare; the message says why and what is allowed. */
export class QueryError extends InputError {
  override name = 'QueryError';
}

/** A prepared read-only query. */
export interface ReadQuery {
  /** Column names in order (duplicates possible: `SELECT a.id, b.id`). */
  columns: string[];
  /** The rows as arrays in column order, streamed. */
  rows(): IterableIterator<unknown[]>;
}

/**
 * Prepares one statement that only reads and returns rows (SELECT, WITH … SELECT, read-only PRAGMA, EXPLAIN).
 * Writing statements are refused before they run, whatever the connection allows (`CREATE TEMP …`, `VACUUM INTO`
 * and `ATTACH` can write even on a read-only connection).
 * @example prepareReadQuery(db, 'SELECT round, pairs FROM v_rounds').rows()
 */
export function prepareReadQuery(db: Db, sql: string): ReadQuery {
  if (!sql.trim()) throw new QueryError('No SQL given; pass one query, e.g. rlaifv sql "SELECT * FROM v_rounds".');
  let s;
  try {
    s = db.prepare(sql);
  } catch (e) {
    const msg = (e as Error).message;
    if (/more than one statement/i.test(msg)) {
      throw new QueryError('Only one statement at a time: remove everything after the first ";".');
    }
    throw new QueryError(`SQL error: ${msg}`);
  }
  if (!s.readonly) {
    const verb = sql.trim().split(/\s+/)[0]!.toUpperCase();
    throw new QueryError(`Refused: ${verb} writes to the database; rlaifv sql only reads (SELECT, WITH, EXPLAIN, PRAGMA).`);
  }
  if (!s.reader) {
    throw new QueryError('This statement returns no rows; rlaifv sql runs queries (SELECT, WITH, EXPLAIN, PRAGMA).');
  }
  const st = s;
  return {
    columns: st.columns().map((c) => c.name),
    rows: () => st.raw(true).iterate() as IterableIterator<unknown[]>,
  };
}
