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

/** Records failures (the latest reason wins when the same item fails again, and a retried failure is open again). */
export function putFailures(db: Db, rows: FailureInput[]): void {
  const ins = stmt(
    db,
    `INSERT INTO failures (round_id, stage, item, reason, raw, attempts, created_at)
     VALUES (@round_id, @stage, @item, @reason, @raw, @attempts, @created_at)
     ON CONFLICT (round_id, stage, item) DO UPDATE SET reason = excluded.reason, raw = excluded.raw,
       attempts = failures.attempts + excluded.attempts, retried_at = NULL`,
  );
  const t = now();
  db.transaction(() => {
    for (const r of rows) ins.run({ raw: null, attempts: 1, ...r, created_at: t });
  }).immediate();
}

/** Items of a stage that failed in a round and are not being retried (open failures). */
export function failedItems(db: Db, roundId: number, stage: string): Set<string> {
  const rows = stmt(db, 'SELECT item FROM failures WHERE round_id = ? AND stage = ? AND retried_at IS NULL').all(roundId, stage) as {
    item: string;
  }[];
  return new Set(rows.map((r) => r.item));
}

/** The stages whose failed items --retry-failed takes up again (score: a feedback method's failed answers; pair: prompts the gate's judge could not rate). */
export const RETRY_STAGES: readonly string[] = ['generate', 'divide', 'label', 'score', 'pair'];

/** What reopening a round's failures did. */
export interface RetryPlan {
  /** Open failures taken up again, by stage. */
  failures: Record<string, number>;
  /** Prompts whose scores and pairs are recomputed (their pairs and scores were removed). */
  prompts: number;
  /** Prompts left as they are because a consumer already has their pairs (exactly once stays). */
  delivered_prompts: number;
}

/**
 * Takes a round's open generate, divide, label, score (a feedback method's) and pair (the gate judge's) failures up again: they are marked retried (kept as history), and
 * the prompts they touch lose their scores, pairings and pairs so the stages recompute them; a prompt whose pairs a
 * consumer already has keeps them. The round is running again until its stages finish. One transaction.
 */
export function reopenFailures(db: Db, roundId: number, stages: readonly string[] = RETRY_STAGES): RetryPlan {
  const which = JSON.stringify(stages.filter((s) => RETRY_STAGES.includes(s)));
  return db.transaction((): RetryPlan => {
    const open = stmt(
      db,
      `SELECT stage, COUNT(*) AS n FROM failures WHERE round_id = ? AND retried_at IS NULL AND stage IN (SELECT value FROM json_each(?)) GROUP BY stage`,
    ).all(roundId, which) as { stage: string; n: number }[];
    const plan: RetryPlan = { failures: Object.fromEntries(open.map((r) => [r.stage, r.n])), prompts: 0, delivered_prompts: 0 };
    if (open.length === 0) return plan;
    stmt(db, 'DROP TABLE IF EXISTS temp.retry_prompts').run();
    stmt(db, 'CREATE TEMP TABLE retry_prompts (prompt_id TEXT PRIMARY KEY) WITHOUT ROWID').run();
    stmt(
      db,
      `INSERT OR IGNORE INTO temp.retry_prompts (prompt_id)
       SELECT rp.prompt_id FROM failures f JOIN round_prompts rp ON rp.round_id = f.round_id
         WHERE f.round_id = @round AND f.retried_at IS NULL AND f.stage = 'generate' AND f.item LIKE rp.prompt_id || '#%'
           AND 'generate' IN (SELECT value FROM json_each(@which))
       UNION SELECT c.prompt_id FROM failures f JOIN candidates c ON c.id = f.item
         WHERE f.round_id = @round AND f.retried_at IS NULL AND f.stage = 'divide' AND 'divide' IN (SELECT value FROM json_each(@which))
       UNION SELECT c.prompt_id FROM failures f JOIN claims cl ON cl.question_id = f.item JOIN candidates c ON c.id = cl.candidate_id
         WHERE f.round_id = @round AND f.retried_at IS NULL AND f.stage = 'label' AND c.round_id = @round
           AND 'label' IN (SELECT value FROM json_each(@which))
       UNION SELECT c.prompt_id FROM failures f JOIN candidates c ON c.id = f.item
         WHERE f.round_id = @round AND f.retried_at IS NULL AND f.stage = 'score' AND 'score' IN (SELECT value FROM json_each(@which))`,
    ).run({ round: roundId, which });
    const delivered = `SELECT 1 FROM pairs p JOIN delivered_pairs d ON d.pair_id = p.id WHERE p.round_id = @round AND p.prompt_id = t.prompt_id`;
    plan.delivered_prompts = (stmt(db, `SELECT COUNT(*) AS n FROM temp.retry_prompts t WHERE EXISTS (${delivered})`).get({ round: roundId }) as { n: number }).n;
    stmt(db, `DELETE FROM temp.retry_prompts AS t WHERE EXISTS (${delivered})`).run({ round: roundId });
    plan.prompts = (stmt(db, 'SELECT COUNT(*) AS n FROM temp.retry_prompts').get() as { n: number }).n;
    stmt(db, 'DELETE FROM pairs WHERE round_id = ? AND prompt_id IN (SELECT prompt_id FROM temp.retry_prompts)').run(roundId);
    stmt(db, 'DELETE FROM pairings WHERE round_id = ? AND prompt_id IN (SELECT prompt_id FROM temp.retry_prompts)').run(roundId);
    stmt(
      db,
      'DELETE FROM scores WHERE candidate_id IN (SELECT c.id FROM candidates c WHERE c.round_id = ? AND c.prompt_id IN (SELECT prompt_id FROM temp.retry_prompts))',
    ).run(roundId);
    // A prompt the gate's judge failed on has its scores and no pairs: it is only paired again.
    plan.prompts += stmt(
      db,
      `INSERT OR IGNORE INTO temp.retry_prompts (prompt_id) SELECT f.item FROM failures f
       WHERE f.round_id = ? AND f.retried_at IS NULL AND f.stage = 'pair' AND 'pair' IN (SELECT value FROM json_each(?))`,
    ).run(roundId, which).changes;
    stmt(db, 'UPDATE failures SET retried_at = ? WHERE round_id = ? AND retried_at IS NULL AND stage IN (SELECT value FROM json_each(?))').run(now(), roundId, which);
    stmt(db, "UPDATE rounds SET status = 'running', finished_at = NULL WHERE id = ?").run(roundId);
    stmt(db, 'DROP TABLE temp.retry_prompts').run();
    return plan;
  }).immediate();
}
