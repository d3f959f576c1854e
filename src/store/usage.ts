// Accounting of remote backends: requests, retries, failures and tokens per round, stage and endpoint.
import type { Db } from './open.js';
import { stmt } from './statements.js';

/** Counts to add for one (stage, endpoint). */
export interface UsageInput {
  stage: string;
  endpoint: string;
  counts: { requests: number; retries: number; failures: number; promptTokens: number; completionTokens: number };
}

/** A stored usage row. */
export interface UsageRow {
  stage: string;
  endpoint: string;
  requests: number;
  retries: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Adds counts (they accumulate over resumed runs of the same round). */
export function addUsage(db: Db, roundId: number, rows: UsageInput[]): void {
  const s = stmt(
    db,
    `INSERT INTO usage (round_id, stage, endpoint, requests, retries, failures, prompt_tokens, completion_tokens)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (round_id, stage, endpoint) DO UPDATE SET
       requests = requests + excluded.requests, retries = retries + excluded.retries,
       failures = failures + excluded.failures, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
       completion_tokens = completion_tokens + excluded.completion_tokens`,
  );
  db.transaction(() => {
    for (const r of rows) {
      const c = r.counts;
      s.run(roundId, r.stage, r.endpoint, c.requests, c.retries, c.failures, c.promptTokens, c.completionTokens);
    }
  }).immediate();
}

/** A round's usage rows, by stage then endpoint. */
export function roundUsage(db: Db, roundId: number): UsageRow[] {
  return stmt(
    db,
    `SELECT stage, endpoint, requests, retries, failures, prompt_tokens, completion_tokens FROM usage
     WHERE round_id = ? ORDER BY CASE stage WHEN 'generate' THEN 1 WHEN 'divide' THEN 2 WHEN 'label' THEN 3 ELSE 4 END, endpoint`,
  ).all(roundId) as UsageRow[];
}
