// The loop's records (db/006_loop.sql): loops, their rounds' steps, the commands they ran, and policy evaluations.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A stored loop. */
export interface LoopRow {
  id: number;
  config_hash: string;
  config_json: string;
  start_policy: string;
  consumer: string;
  baseline_eval: number | null;
  created_at: string;
}

/** One round of a loop; a null step column means that step has not finished. */
export interface LoopRoundRow {
  loop_id: number;
  idx: number;
  policy: string;
  policy_checkpoint: string | null;
  train_round: number | null;
  round_done_at: string | null;
  delivery_id: number | null;
  pairs_file: string | null;
  pairs: number | null;
  trainer_command: string | null;
  trainer_exit: number | null;
  trainer_stderr_tail: string | null;
  trainer_seconds: number | null;
  checkpoint: string | null;
  checkpoint_sha256: string | null;
  trained_at: string | null;
  served_model: string | null;
  deployed_at: string | null;
  eval_id: number | null;
  evaluated_at: string | null;
  /** The held-out win rates against the previous round and the start (db/011_compare.sql); null until computed. */
  win_rates_json: string | null;
  /** Checkpoint selection's candidates and figures (loop.select: best); null otherwise or until it ran. */
  select_json: string | null;
  /** The multi-turn ablation's figures (loop.ablation_prompts); null otherwise or until it ran. */
  ablation_json: string | null;
  /** The SFT step (loop.sft_trainer, db/014): the dialogues file, its dialogues, the checkpoint it wrote. */
  dialogues_file: string | null;
  dialogues: number | null;
  sft_checkpoint: string | null;
  /** The checkpoint's correction rate after feedback (loop.eval_feedback); null otherwise or until it ran. */
  feedback_json: string | null;
}

/** Creates a loop; its pull consumer is `loop-<id>`. */
export function createLoop(db: Db, l: { config_hash: string; config_json: string; start_policy: string }): LoopRow {
  return db.transaction(() => {
    const id = Number(
      stmt(db, `INSERT INTO loops (config_hash, config_json, start_policy, consumer, created_at) VALUES (?, ?, ?, '', ?)`).run(
        l.config_hash,
        l.config_json,
        l.start_policy,
        now(),
      ).lastInsertRowid,
    );
    stmt(db, 'UPDATE loops SET consumer = ? WHERE id = ?').run(`loop-${id}`, id);
    return getLoop(db, id)!;
  }).immediate();
}

/** A loop by id. */
export function getLoop(db: Db, id: number): LoopRow | undefined {
  return stmt(db, 'SELECT * FROM loops WHERE id = ?').get(id) as LoopRow | undefined;
}

/** The newest loop with these settings (what `rlaifv loop` resumes), or undefined. */
export function findLoop(db: Db, configHash: string): LoopRow | undefined {
  return stmt(db, 'SELECT * FROM loops WHERE config_hash = ? ORDER BY id DESC LIMIT 1').get(configHash) as LoopRow | undefined;
}

/** Records the loop's evaluation of its starting policy. */
export function setLoopBaseline(db: Db, loopId: number, evalId: number): void {
  stmt(db, 'UPDATE loops SET baseline_eval = ? WHERE id = ?').run(evalId, loopId);
}

/** The rounds of a loop, in order. */
export function loopRounds(db: Db, loopId: number): LoopRoundRow[] {
  return stmt(db, 'SELECT * FROM loop_rounds WHERE loop_id = ? ORDER BY idx').all(loopId) as LoopRoundRow[];
}

/** One round of a loop. */
export function getLoopRound(db: Db, loopId: number, idx: number): LoopRoundRow | undefined {
  return stmt(db, 'SELECT * FROM loop_rounds WHERE loop_id = ? AND idx = ?').get(loopId, idx) as LoopRoundRow | undefined;
}

/** Adds a round to a loop (idempotent: an existing row is kept as it is). */
export function addLoopRound(db: Db, r: { loop_id: number; idx: number; policy: string; policy_checkpoint: string | null }): LoopRoundRow {
  stmt(
    db,
    `INSERT INTO loop_rounds (loop_id, idx, policy, policy_checkpoint) VALUES (@loop_id, @idx, @policy, @policy_checkpoint)
     ON CONFLICT (loop_id, idx) DO NOTHING`,
  ).run(r);
  return getLoopRound(db, r.loop_id, r.idx)!;
}

type StepFields = Partial<Omit<LoopRoundRow, 'loop_id' | 'idx' | 'policy' | 'policy_checkpoint'>>;
const STEP_COLUMNS = new Set([
  'train_round', 'round_done_at', 'delivery_id', 'pairs_file', 'pairs', 'trainer_command', 'trainer_exit',
  'trainer_stderr_tail', 'trainer_seconds', 'checkpoint', 'checkpoint_sha256', 'trained_at', 'served_model',
  'deployed_at', 'eval_id', 'evaluated_at', 'win_rates_json', 'select_json', 'ablation_json',
  'dialogues_file', 'dialogues', 'sft_checkpoint', 'feedback_json',
]);

/** Writes a step's columns of a loop round (call it in the transaction that finishes the step). */
export function updateLoopRound(db: Db, loopId: number, idx: number, fields: StepFields): void {
  const keys = Object.keys(fields);
  for (const k of keys) if (!STEP_COLUMNS.has(k)) throw new Error(`updateLoopRound: ${k} is not a step column`);
  if (keys.length === 0) return;
  db.prepare(`UPDATE loop_rounds SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE loop_id = @loop_id AND idx = @idx`).run({
    ...fields,
    loop_id: loopId,
    idx,
  });
}

/** A run of one of the loop's external commands. */
export interface LoopCommandRow {
  loop_id: number;
  idx: number;
  step: 'train' | 'deploy' | 'sft';
  command: string;
  exit_code: number | null;
  reason: string | null;
  stderr_tail: string;
  seconds: number;
  started_at: string;
}

/** Records a run of a trainer or deploy command, failed or not. */
export function recordLoopCommand(db: Db, c: LoopCommandRow): void {
  stmt(
    db,
    `INSERT INTO loop_commands (loop_id, idx, step, command, exit_code, reason, stderr_tail, seconds, started_at)
     VALUES (@loop_id, @idx, @step, @command, @exit_code, @reason, @stderr_tail, @seconds, @started_at)`,
  ).run(c);
}

/** The command runs of a loop, oldest first. */
export function loopCommands(db: Db, loopId: number): (LoopCommandRow & { id: number })[] {
  return stmt(db, 'SELECT * FROM loop_commands WHERE loop_id = ? ORDER BY id').all(loopId) as (LoopCommandRow & { id: number })[];
}

/** A stored held-out evaluation of a policy. */
export interface PolicyEvalRow {
  id: number;
  policy: string;
  policy_sha256: string | null;
  prompts: string;
  prompt_limit: number | null;
  samples: number;
  temperature: number;
  seed: number;
  sampled_round: number | null;
  greedy_round: number | null;
  figures_json: string | null;
  created_at: string;
  finished_at: string | null;
}

/** What identifies an evaluation: the same policy bytes on the same prompts with the same decoding. */
export type PolicyEvalKey = Pick<PolicyEvalRow, 'policy' | 'policy_sha256' | 'prompts' | 'prompt_limit' | 'samples' | 'temperature' | 'seed'>;

/** The newest evaluation with this key (finished or not), or undefined. */
export function findPolicyEval(db: Db, k: PolicyEvalKey): PolicyEvalRow | undefined {
  return stmt(
    db,
    `SELECT * FROM policy_evals WHERE policy = @policy AND policy_sha256 IS @policy_sha256 AND prompts = @prompts
       AND prompt_limit IS @prompt_limit AND samples = @samples AND temperature = @temperature AND seed = @seed
     ORDER BY id DESC LIMIT 1`,
  ).get(k) as PolicyEvalRow | undefined;
}

/** Starts an evaluation record; its rounds are linked as they are made. */
export function createPolicyEval(db: Db, k: PolicyEvalKey): PolicyEvalRow {
  const id = Number(
    stmt(
      db,
      `INSERT INTO policy_evals (policy, policy_sha256, prompts, prompt_limit, samples, temperature, seed, created_at)
       VALUES (@policy, @policy_sha256, @prompts, @prompt_limit, @samples, @temperature, @seed, @created_at)`,
    ).run({ ...k, created_at: now() }).lastInsertRowid,
  );
  return getPolicyEval(db, id)!;
}

/** An evaluation by id. */
export function getPolicyEval(db: Db, id: number): PolicyEvalRow | undefined {
  return stmt(db, 'SELECT * FROM policy_evals WHERE id = ?').get(id) as PolicyEvalRow | undefined;
}

/** The evaluation a round belongs to (as its sampled or greedy round), or undefined. */
export function policyEvalOfRound(db: Db, roundId: number): PolicyEvalRow | undefined {
  return stmt(db, 'SELECT * FROM policy_evals WHERE sampled_round = ? OR greedy_round = ? ORDER BY id DESC LIMIT 1').get(roundId, roundId) as
    | PolicyEvalRow
    | undefined;
}

/** The newest finished evaluation of a policy (by the generator's name for it), or undefined. */
export function latestPolicyEval(db: Db, policy: string): PolicyEvalRow | undefined {
  return stmt(db, 'SELECT * FROM policy_evals WHERE policy = ? AND figures_json IS NOT NULL ORDER BY id DESC LIMIT 1').get(policy) as
    | PolicyEvalRow
    | undefined;
}

/** Links an evaluation's sampled or greedy round (in the transaction that creates the round). */
export function linkPolicyEvalRound(db: Db, id: number, which: 'sampled' | 'greedy', roundId: number): void {
  stmt(db, `UPDATE policy_evals SET ${which === 'sampled' ? 'sampled_round' : 'greedy_round'} = ? WHERE id = ?`).run(roundId, id);
}

/** Stores an evaluation's figures. */
export function finishPolicyEval(db: Db, id: number, figures: unknown): void {
  stmt(db, 'UPDATE policy_evals SET figures_json = ?, finished_at = ? WHERE id = ?').run(JSON.stringify(figures), now(), id);
}

/** The loop a training round belongs to, with its baseline evaluation and every round's evaluation id, or null. */
export function loopOfRound(db: Db, roundId: number): { loop: LoopRow; rounds: LoopRoundRow[] } | null {
  const r = stmt(db, 'SELECT loop_id FROM loop_rounds WHERE train_round = ?').get(roundId) as { loop_id: number } | undefined;
  if (!r) return null;
  return { loop: getLoop(db, r.loop_id)!, rounds: loopRounds(db, r.loop_id) };
}
