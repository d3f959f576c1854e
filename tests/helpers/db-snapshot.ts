// A database's whole content as comparable rows, for fault tests that must show nothing stored was lost or
// half-written (tests/faults/: bad input, bad Parquet and the data-set input faults).
import Database from 'better-sqlite3';

/** Every row of every table, as sorted JSON strings per table. */
export type Snapshot = Record<string, string[]>;

/** Reads every row of every table of a database file. */
export function snapshot(file: string): Snapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const out: Snapshot = {};
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
    for (const { name } of tables) {
      out[name] = (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
        .map((r) => {
          // A run that changes nothing still stamps the round's finish time and adds its stage times: not data.
          if (name === 'rounds') delete r.finished_at;
          return JSON.stringify(r);
        })
        .sort();
    }
    return out;
  } finally {
    db.close();
  }
}

/** Rows of `before` missing from `after` (a multiset difference over all tables); failures are keyed by item. */
export function lostRows(before: Snapshot, after: Snapshot): string[] {
  const lost: string[] = [];
  for (const [table, rows] of Object.entries(before)) {
    const key = table === 'failures' ? (r: string) => { const f = JSON.parse(r); return `${f.round_id}|${f.stage}|${f.item}|${f.reason}`; } : (r: string) => r;
    const left = new Map<string, number>();
    for (const r of after[table] ?? []) left.set(key(r), (left.get(key(r)) ?? 0) + 1);
    for (const r of rows) {
      const n = left.get(key(r)) ?? 0;
      if (n === 0) lost.push(`${table}: ${r}`);
      else left.set(key(r), n - 1);
    }
  }
  return lost;
}

/** Tables whose rows changed (added or removed), leaving out stage times, which every run adds. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (t) => t !== 'stage_runs' && JSON.stringify(before[t] ?? []) !== JSON.stringify(after[t] ?? []),
  );
}

/** Failure rows of a database. */
export function failures(file: string): { round_id: number; stage: string; item: string; reason: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT round_id, stage, item, reason FROM failures ORDER BY id').all() as never;
  } finally {
    db.close();
  }
}
