// Rounds: one RLAIF-V iteration each, with the config that made it.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A stored round. */
export interface RoundRow {
  id: number;
  config_json: string;
  config_hash: string;
  policy_model: string;
  labeler_model: string;
  divider: string;
  seed: number;
  accept_rule: 'scripts' | 'paper';
  score_method: 'rejc' | 'rejp';
  /** How answers were scored (src/methods/): 'divide' (REJ-C/REJ-P from claims) or another method. */
  feedback_method: string;
  /** The method the round's pairs carry (pairs.method): score_method for divide, else feedback_method. */
  pair_method: string;
  status: 'running' | 'done' | 'failed';
  /** 'train' makes pairs; 'eval' is a held-out policy evaluation (generate, divide, label and score; never paired or delivered). */
  purpose: RoundPurpose;
  started_at: string;
  finished_at: string | null;
}

/** What a round is for. */
export type RoundPurpose = 'train' | 'eval';

/** What a new round records (a training round unless said otherwise). */
export type NewRound = Omit<RoundRow, 'id' | 'status' | 'started_at' | 'finished_at' | 'purpose' | 'feedback_method' | 'pair_method'> & {
  purpose?: RoundPurpose;
  feedback_method?: string;
};

/** Creates a round and returns its id. */
export function createRound(db: Db, r: NewRound, id: number | null = null): number {
  const info = stmt(
    db,
    `INSERT INTO rounds (id, config_json, config_hash, policy_model, labeler_model, divider, seed, accept_rule, score_method, feedback_method, purpose, started_at)
     VALUES (@id, @config_json, @config_hash, @policy_model, @labeler_model, @divider, @seed, @accept_rule, @score_method, @feedback_method, @purpose, @started_at)`,
  ).run({ ...r, feedback_method: r.feedback_method ?? 'divide', purpose: r.purpose ?? 'train', id, started_at: now() });
  return Number(info.lastInsertRowid);
}

/** One round by id, or undefined. */
export function getRound(db: Db, id: number): RoundRow | undefined {
  return stmt(db, 'SELECT * FROM rounds WHERE id = ?').get(id) as RoundRow | undefined;
}

/** The newest training round (or of any purpose), or undefined when there is none. */
export function latestRound(db: Db, purpose: RoundPurpose | 'any' = 'train'): RoundRow | undefined {
  return stmt(db, 'SELECT * FROM rounds WHERE @purpose = \'any\' OR purpose = @purpose ORDER BY id DESC LIMIT 1').get({ purpose }) as
    | RoundRow
    | undefined;
}

/** Marks a round done or failed. */
export function finishRound(db: Db, id: number, status: 'done' | 'failed' | 'running'): void {
  stmt(db, 'UPDATE rounds SET status = ?, finished_at = ? WHERE id = ?').run(status, status === 'running' ? null : now(), id);
}

/** Records the time a stage took in a round. */
export function recordStageRun(
  db: Db,
  r: { round_id: number; stage: string; items: number; seconds: number; model_seconds: number; started_at: string },
): void {
  stmt(
    db,
    `INSERT INTO stage_runs (round_id, stage, items, seconds, model_seconds, started_at)
     VALUES (@round_id, @stage, @items, @seconds, @model_seconds, @started_at)`,
  ).run(r);
}
