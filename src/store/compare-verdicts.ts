// A served judge's pairwise verdicts (rlaifv compare): one row per ordered pair of answers.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A verdict on two answers in one order: which of them, as shown, the judge named better. */
export interface CompareVerdictRow {
  judge: string;
  first_id: string;
  second_id: string;
  winner: 'first' | 'second';
  reply: string;
  attempts: number;
}

/** Stores a verdict (kept once given: a verdict already stored is not replaced). */
export function putCompareVerdict(db: Db, row: CompareVerdictRow): void {
  stmt(
    db,
    `INSERT INTO compare_verdicts (judge, first_id, second_id, winner, reply, attempts, created_at)
     VALUES (@judge, @first_id, @second_id, @winner, @reply, @attempts, @created_at) ON CONFLICT DO NOTHING`,
  ).run({ ...row, created_at: now() });
}

/** The stored verdict of `judge` on first → second, or undefined. */
export function getCompareVerdict(db: Db, judge: string, firstId: string, secondId: string): CompareVerdictRow | undefined {
  return stmt(db, 'SELECT judge, first_id, second_id, winner, reply, attempts FROM compare_verdicts WHERE judge = ? AND first_id = ? AND second_id = ?').get(
    judge,
    firstId,
    secondId,
  ) as CompareVerdictRow | undefined;
}
