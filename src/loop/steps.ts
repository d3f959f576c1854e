// The loop's steps after the round: the pull (recorded with the delivery), a study's own pairs, the trainer and the
// deploy hook (each run recorded in loop_commands, the step's columns written in the same transaction).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { PACKAGE_ROOT } from '../config/load.js';
import { getLoopRound, openDb, recordLoopCommand, updateLoopRound, type Db, type LoopRoundRow, type LoopRow } from '../store/index.js';
import { deliveries } from '../store/deliveries.js';
import { now } from '../store/index.js';
import { pull } from '../export/pull.js';
import { exportDialogues } from '../export/fire.js';
import type { Progress } from '../progress.js';
import { hashCheckpoint, isNonEmptyFolder } from '../util/checkpoint.js';
import { fillCommand, runCommand, type CommandResult } from './command.js';
import { waitForModel } from './deploy.js';

/** Thrown when a step of the loop failed (a trainer's non-zero exit, a deploy that never served): recorded, retried by a rerun. */
export class LoopStepError extends Error {
  override name = 'LoopStepError';
}

/** Makes a round's pairs file instead of the pull (see LoopOptions.pairs). */
export type PairsMaker = (c: { db: Db; loop: LoopRow; round: number; file: string; config: Config }) => Promise<number>;

function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The last lines of a command's stderr, for an error message. */
export function tailLines(text: string, n = 8): string {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-n).map((l) => `  | ${l}`).join('\n');
}

/** Records one run of an external command and the step's columns it finished (none when it failed), together. */
export function recordStep(
  config: Config,
  loop: LoopRow,
  row: LoopRoundRow,
  run: { step: 'train' | 'deploy' | 'sft'; command: string; result: CommandResult; startedAt: string; reason: string | null },
  fields: Parameters<typeof updateLoopRound>[3],
): LoopRoundRow {
  return withDb(config, (db) =>
    db.transaction(() => {
      recordLoopCommand(db, {
        loop_id: loop.id,
        idx: row.idx,
        step: run.step,
        command: run.command,
        exit_code: run.result.exitCode,
        reason: run.reason,
        stderr_tail: run.result.stderrTail,
        seconds: run.result.seconds,
        started_at: run.startedAt,
      });
      updateLoopRound(db, loop.id, row.idx, fields);
      return getLoopRound(db, loop.id, row.idx)!;
    }).immediate(),
  );
}

/** Runs `fn` on a connection of its own, closed after. */
export function withDb<T>(config: Config, fn: (db: Db) => T): T {
  const db = openDb(config.db);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The pull step: the round's kept pairs for the loop's consumer, recorded with the loop round in one transaction. */
export async function pullPairs(config: Config, loop: LoopRow, row: LoopRoundRow, file: string): Promise<LoopRoundRow> {
  const db = openDb(config.db);
  try {
    // A delivery to this consumer of this round that the loop did not record cannot happen (they commit together);
    // one by hand (`rlaifv pull --consumer loop-N`) would have taken the pairs: say so rather than train on nothing.
    const earlier = deliveries(db, loop.consumer).filter((d) => d.selector === String(row.train_round) && d.n_pairs > 0);
    if (earlier.length) {
      throw new LoopStepError(
        `loop round ${row.idx}: the pairs of round ${row.train_round} were already delivered to ${loop.consumer} by delivery ${earlier[0]!.id} ` +
          `(${earlier[0]!.target}), outside the loop; the loop's consumer is its own — start a new loop (another --db or settings).`,
      );
    }
    await pull(
      db,
      {
        consumer: loop.consumer,
        rounds: row.train_round!,
        format: config.loop.pairs_format,
        out: file,
        ...(config.loop.pairs_spans ? { spans: true } : {}),
        // The round's stored reference log-probs: a trainer that reads them (scripts/shapes/dpo.py) skips its own pass.
        // Not with an SFT step: the DPO trainer then starts from the SFT checkpoint, whose log-probs these are not.
        ...(config.pair.reference_logprobs && config.loop.sft_trainer === null ? { referenceLogprobs: true } : {}),
        onCommit: (delivery, w) => updateLoopRound(db, loop.id, row.idx, { delivery_id: delivery, pairs_file: w.target, pairs: w.pairIds.length }),
      },
      config.db,
    );
    return getLoopRound(db, loop.id, row.idx)!;
  } finally {
    db.close();
  }
}

/** A study's own pairs in place of the pull (no delivery is recorded: the pairs file marks the step done). */
export async function customPairs(config: Config, loop: LoopRow, k: number, file: string, make: PairsMaker): Promise<LoopRoundRow> {
  const db = openDb(config.db);
  try {
    const n = await make({ db, loop, round: getLoopRound(db, loop.id, k)!.train_round!, file, config });
    updateLoopRound(db, loop.id, k, { pairs_file: path.resolve(file), pairs: n });
    return getLoopRound(db, loop.id, k)!;
  } finally {
    db.close();
  }
}

/** The train step: the trainer command on the round's pairs; its checkpoint is recorded only when it exits 0. */
export async function train(config: Config, loop: LoopRow, row: LoopRoundRow, out: string, echo: NodeJS.WritableStream | null, progress: Progress): Promise<LoopRoundRow> {
  const pairsFile = row.pairs_file!;
  if (!existsSync(pairsFile)) {
    throw new LoopStepError(`loop round ${row.idx}: the pairs file ${pairsFile} it was delivered is gone; restore it to train (the pairs were delivered once).`);
  }
  if (row.delivery_id) {
    const want = withDb(config, (db) => deliveries(db, loop.consumer).find((d) => d.id === row.delivery_id)?.sha256);
    if (want && sha256File(pairsFile) !== want) {
      throw new LoopStepError(`loop round ${row.idx}: ${pairsFile} changed since delivery ${row.delivery_id} (SHA-256 differs); restore it to train.`);
    }
  }
  // A folder at `out` that no finished step recorded is from a trainer that was stopped: it is not trusted.
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  const command = fillCommand(
    config.loop.trainer,
    // After an SFT step (loop.sft_trainer) the DPO trainer starts from the checkpoint it wrote.
    { pairs: pairsFile, pairs_dir: path.dirname(pairsFile), policy: row.sft_checkpoint ?? row.policy_checkpoint!, out, round: String(row.idx), root: PACKAGE_ROOT },
    'loop.trainer',
  );
  progress.log(`loop round ${row.idx}: training: ${command}`);
  const startedAt = now();
  const r = await runCommand(command, { cwd: process.cwd(), timeoutMs: config.loop.trainer_timeout_ms, echo });
  const ok = r.exitCode === 0 && isNonEmptyFolder(out);
  const checkpointSha = ok ? hashCheckpoint(out) : null;
  const recorded = recordStep(config, loop, row, { step: 'train', command, result: r, startedAt, reason: r.reason ?? (r.exitCode === 0 && !ok ? `exited 0 but left no checkpoint at ${out}` : null) }, {
    trainer_command: command,
    trainer_exit: r.exitCode ?? -1,
    trainer_stderr_tail: r.stderrTail,
    trainer_seconds: r.seconds,
    ...(ok ? { checkpoint: out, checkpoint_sha256: checkpointSha, trained_at: now() } : {}),
  });
  if (!ok) {
    const why = r.reason ?? (r.exitCode === 0 ? `exited 0 but left no checkpoint at ${out}` : `exit code ${r.exitCode}`);
    throw new LoopStepError(
      `loop round ${row.idx}: the trainer failed (${why}); recorded in loop_commands. Its stderr ended:\n${tailLines(r.stderrTail)}\n` +
        'Fix the cause and run rlaifv loop again: it retries this step.',
    );
  }
  return recorded;
}

/**
 * The SFT step (loop.sft_trainer, FIRE's student training): the round's refinement dialogues are written to
 * {roundDir}/dialogues/dialogues.json (`rlaifv export --format fire`), then the command runs on them; its checkpoint is
 * recorded only when it exits 0 and left a folder, and the DPO trainer starts from it.
 */
export async function sftStep(config: Config, loop: LoopRow, row: LoopRoundRow, roundDir: string, echo: NodeJS.WritableStream | null, progress: Progress): Promise<LoopRoundRow> {
  mkdirSync(path.join(roundDir, 'dialogues'), { recursive: true });
  const file = path.join(roundDir, 'dialogues', 'dialogues.json');
  const written = withDb(config, (db) => exportDialogues(db, { round: row.train_round!, out: file }));
  progress.log(`loop round ${row.idx}: ${written.dialogues} refinement dialogues in ${file}`);
  const out = path.join(roundDir, 'sft');
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  const command = fillCommand(
    config.loop.sft_trainer!,
    { dialogues: file, policy: row.policy_checkpoint!, out, round: String(row.idx), root: PACKAGE_ROOT },
    'loop.sft_trainer',
  );
  progress.log(`loop round ${row.idx}: SFT on the dialogues: ${command}`);
  const startedAt = now();
  const r = await runCommand(command, { cwd: process.cwd(), timeoutMs: config.loop.trainer_timeout_ms, echo });
  const ok = r.exitCode === 0 && isNonEmptyFolder(out);
  const why = r.reason ?? (r.exitCode === 0 ? (ok ? null : `exited 0 but left no checkpoint at ${out}`) : `exit code ${r.exitCode}`);
  const recorded = recordStep(config, loop, row, { step: 'sft', command, result: r, startedAt, reason: r.exitCode === 0 && ok ? null : why }, {
    dialogues_file: file,
    dialogues: written.dialogues,
    ...(ok ? { sft_checkpoint: out } : {}),
  });
  if (!ok) {
    throw new LoopStepError(
      `loop round ${row.idx}: the SFT trainer failed (${why}); recorded in loop_commands. Its stderr ended:\n${tailLines(r.stderrTail)}\n` +
        'Fix the cause and run rlaifv loop again: it retries this step.',
    );
  }
  return recorded;
}

/** The deploy step (served policy): the hook serves the checkpoint, then every endpoint must list the model. */
export async function deploy(config: Config, loop: LoopRow, row: LoopRoundRow, echo: NodeJS.WritableStream | null, progress: Progress): Promise<LoopRoundRow> {
  const d = config.loop.deploy!;
  const g = config.generate.backend;
  if (g.type !== 'openai') throw new Error('deploy: the policy is not served');
  // {hash}: the checkpoint's content hash (the round's checkpoint_sha256, 12 hex digits), so each checkpoint is served
  // under its own name and no name is loaded twice (vLLM's load_inplace sticks and reloads at every generation, #33791).
  const hash = (row.checkpoint_sha256 ?? hashCheckpoint(row.checkpoint!)).slice(0, 12);
  const model = d.model.replaceAll('{round}', String(row.idx)).replaceAll('{hash}', hash);
  // {base_urls}: every endpoint of the policy, comma-separated, so the hook serves the checkpoint on each of them.
  const command = fillCommand(d.command, { checkpoint: row.checkpoint!, round: String(row.idx), hash, model, root: PACKAGE_ROOT, base_urls: g.base_urls.join(',') }, 'loop.deploy.command');
  progress.log(`loop round ${row.idx}: deploying: ${command}`);
  const startedAt = now();
  const r = await runCommand(command, { cwd: process.cwd(), timeoutMs: d.ready_timeout_ms, echo });
  let failure = r.exitCode === 0 ? null : (r.reason ?? `exit code ${r.exitCode}`);
  if (!failure) {
    try {
      await waitForModel(g, model, d.ready_timeout_ms);
    } catch (e) {
      failure = (e as Error).message;
    }
  }
  const recorded = recordStep(config, loop, row, { step: 'deploy', command, result: r, startedAt, reason: failure }, failure ? {} : { served_model: model, deployed_at: now() });
  if (failure) {
    throw new LoopStepError(`loop round ${row.idx}: the deploy hook failed (${failure}). Its stderr ended:\n${tailLines(r.stderrTail)}\nRun rlaifv loop again to retry it.`);
  }
  return recorded;
}

