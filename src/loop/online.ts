// The online loop's training step (loop.mode "online"): instead of a round, a pull and the DPO trainer, an online
// trainer (scripts/shapes/grpo.py by default) samples from the policy and asks `rlaifv serve`, started on the loop's
// store, for every answer's reward; the serve round keeps each scored answer, so `rlaifv report` shows them. One
// budget point is one DPO round's samples (train prompts × generate.samples); its checkpoint is evaluated as a round's.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { PACKAGE_ROOT } from '../config/load.js';
import { now } from '../store/index.js';
import type { LoopRoundRow, LoopRow } from '../store/index.js';
import { imageStoreDir } from '../image/store.js';
import { readInput } from '../input/formats.js';
import { startServer, type RewardServer, type StartOptions } from '../serve/server.js';
import type { Progress } from '../progress.js';
import { hashCheckpoint, isNonEmptyFolder } from '../util/checkpoint.js';
import { fillCommand, runCommand } from './command.js';
import { LoopStepError, recordStep, tailLines } from './steps.js';
import type { WorkerPool } from '../backends/local/pool.js';

/** What every budget point's trainer run shares: the reward server, the trainer's prompts file and the budget. */
export interface OnlineContext {
  server: RewardServer;
  /** The train prompts as the trainer reads them (JSONL: id, image as an absolute path, question). */
  promptsFile: string;
  prompts: number;
  /** Policy samples per budget point: prompts × generate.samples (one DPO round's). */
  samples: number;
}

/**
 * Writes the first `limit` train prompts (all when null) as the online trainer's prompts file, each image an absolute
 * path (byte-borne images land in the store's image folder); multi-turn prompts are skipped and counted.
 */
export async function writeTrainerPrompts(config: Config, limit: number | null, file: string, progress: Progress): Promise<number> {
  const lines: string[] = [];
  let skipped = 0;
  const input = readInput(config.loop.train_prompts, config.input_format, config.limits, { imagesDir: imageStoreDir(config.db), columns: config.input_columns });
  for await (const r of input) {
    if (limit !== null && lines.length + skipped >= limit) break;
    if ('problem' in r || r.prompt.history.length) {
      skipped++;
      continue;
    }
    lines.push(JSON.stringify({ id: r.prompt.id, image: path.resolve(r.prompt.image.path), question: r.prompt.question }));
  }
  if (skipped) progress.log(`online loop: ${skipped} of the first train prompts skipped (unreadable, or multi-turn)`);
  if (!lines.length) throw new LoopStepError(`loop.train_prompts: ${config.loop.train_prompts} gave no single-turn prompt to train on`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  return lines.length;
}

/**
 * Starts the reward server on the loop's store, bound to 127.0.0.1 on a free port, and writes the trainer's prompts.
 * @example const ctx = await startOnline(config, null, 'db/x.checkpoints/loop-1', progress); await ctx.server.close();
 */
export async function startOnline(
  config: Config,
  limit: number | null,
  dir: string,
  progress: Progress,
  verdicts?: StartOptions['verdicts'],
  pool: WorkerPool | null = null,
): Promise<OnlineContext> {
  const promptsFile = path.join(dir, 'trainer-prompts.jsonl');
  const prompts = await writeTrainerPrompts(config, limit, promptsFile, progress);
  const server = await startServer(config, { host: '127.0.0.1', port: 0, pool, ...(verdicts ? { verdicts } : {}) });
  progress.log(`online loop: rlaifv serve on ${server.url} (round ${server.round.id}, reward preset ${config.reward.preset})`);
  return { server, promptsFile, prompts, samples: prompts * config.generate.samples };
}

/**
 * One budget point: the online trainer from the previous checkpoint to `out`, with the server's URL in RLAIFV_URL and
 * as {url}; the reference is the loop's start checkpoint. Recorded as a train step; the serve round is the loop
 * round's train_round.
 */
export async function onlineTrain(
  config: Config,
  loop: LoopRow,
  row: LoopRoundRow,
  o: { ctx: OnlineContext; out: string; start: string; echo: NodeJS.WritableStream | null; progress: Progress },
): Promise<LoopRoundRow> {
  const { ctx, out } = o;
  // A folder at `out` that no finished step recorded is from a trainer that was stopped: it is not trusted.
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  const values = {
    url: ctx.server.url,
    prompts: ctx.promptsFile,
    samples: String(ctx.samples),
    policy: row.policy_checkpoint!,
    ref: o.start,
    out,
    round: String(row.idx),
    seed: String(config.seed * 1000 + row.idx),
    root: PACKAGE_ROOT,
  };
  const command = fillCommand(config.loop.online_trainer, values, 'loop.online_trainer');
  o.progress.log(`loop budget point ${row.idx}: ${ctx.samples} samples (${ctx.prompts} prompts × ${config.generate.samples}): ${command}`);
  const startedAt = now();
  const r = await runCommand(command, { cwd: process.cwd(), timeoutMs: config.loop.trainer_timeout_ms, echo: o.echo, env: { ...process.env, RLAIFV_URL: ctx.server.url } });
  const ok = r.exitCode === 0 && isNonEmptyFolder(out);
  const reason = r.reason ?? (r.exitCode === 0 && !ok ? `exited 0 but left no checkpoint at ${out}` : null);
  const recorded = recordStep(config, loop, row, { step: 'train', command, result: r, startedAt, reason }, {
    train_round: ctx.server.round.id,
    trainer_command: command,
    trainer_exit: r.exitCode ?? -1,
    trainer_stderr_tail: r.stderrTail,
    trainer_seconds: r.seconds,
    round_done_at: now(),
    ...(ok ? { checkpoint: out, checkpoint_sha256: hashCheckpoint(out), trained_at: now() } : {}),
  });
  if (!ok) {
    throw new LoopStepError(
      `loop budget point ${row.idx}: the online trainer failed (${reason ?? `exit code ${r.exitCode}`}); recorded in loop_commands. Its stderr ended:\n` +
        `${tailLines(r.stderrTail)}\nFix the cause and run rlaifv loop again: it retries this budget point.`,
    );
  }
  return recorded;
}
