// Failures are values: each keeps its stage, item, reason and raw output.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A failure to record. */
export interface FailureInput {
  round_id: number | null;
  stage: string;
  item: string;
  reason: string;
  raw?: string | null;
  attempts?: number;
}

/** Records failures (the latest reason wins when the same item fails again). */
export function putFailures(db: Db, rows: FailureInput[]): void {
  const ins = stmt(
    db,
    `INSERT INTO failures (round_id, stage, item, reason, raw, attempts, created_at)
     VALUES (@round_id, @stage, @item, @reason, @raw, @attempts, @created_at)
     ON CONFLICT (round_id, stage, item) DO UPDATE SET reason = excluded.reason, raw = excluded.raw,
       attempts = failures.attempts + excluded.attempts`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run({ raw: null, attempts: 1, ...r, created_at: t });
  })();
}

/** Items of a stage that failed in a round. */
export function failedItems(db: Db, roundId: number, stage: string): Set<string> {
  const rows = stmt(db, 'SELECT item FROM failures WHERE round_id = ? AND stage = ?').all(roundId, stage) as {
    item: string;
  }[];
  return new Set(rows.map((r) => r.item));
}
