// `rlaifv loop`: iterative RLAIF-V. Each round the current policy answers the train prompts (a whole round), the
// round's pairs are pulled for the loop's consumer, an external trainer turns them into a checkpoint (deployed when the
// policy is served), and the checkpoint is evaluated on held-out prompts; the checkpoint is the next round's policy.
// Every step is recorded in the transaction that finishes it, so a killed loop resumes at the first unfinished step.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config, ModelBackend } from '../config/schema.js';
import { ConfigError, storedConfig } from '../config/load.js';
import { addLoopRound, createLoop, findLoop, getLoopRound, openDb, setLoopBaseline, updateLoopRound, type LoopRow } from '../store/index.js';
import { now } from '../store/index.js';
import { runRound, withPool } from '../pipeline/round.js';
import type { WorkerPool } from '../backends/local/pool.js';
import { STAGES } from '../domain.js';
import { silentProgress, type Progress } from '../progress.js';
import { evaluatePolicy, type PolicyEvaluation } from '../eval/runs/policy-eval.js';
import { LoopStepError, customPairs, deploy, pullPairs, sftStep, train, withDb, type PairsMaker } from './steps.js';
import { onlineTrain, startOnline, type OnlineContext } from './online.js';
import type { StartOptions } from '../serve/server.js';
import { selectCheckpoint } from './select.js';
import { parseJudgeSpec, type JudgeSpec } from '../eval/runs/compare/index.js';
import { multiturnAblation, type AblationFigures } from '../eval/runs/ablation.js';
import { correctionEval, type FeedbackReport } from '../eval/runs/correction.js';
import { checkOnline, checkpointsDir, loopHash, policyBackend, startCheckpoint } from './settings.js';
import { winRates } from './win-rates.js';
import { loopReport, type LoopRoundReport } from './report.js';

export { LoopStepError, type PairsMaker } from './steps.js';
export type { SelectCandidate } from './select.js';
export { loopReport, type LoopRoundReport } from './report.js';
export type { LoopTruthFree, LoopWinRate } from './win-rates.js';

/** How to run a loop. */
export interface LoopOptions {
  /** Rounds the loop should have done when this call returns (finished rounds are not redone). */
  rounds: number;
  /** The first N train prompts (and held-out prompts, unless evalLimit or loop.eval_limit says otherwise). */
  limit?: number;
  evalLimit?: number;
  progress?: Progress;
  /** Where the trainer's and deploy hook's output goes as it comes (null: nowhere; their stderr tail is stored anyway). */
  echo?: NodeJS.WritableStream | null;
  /**
   * Makes a round's pairs file instead of the pull (studies: oracle or random pairs). Runs once per round; must write
   * a TRL JSONL file at `file` and return how many pairs it holds.
   */
  pairs?: PairsMaker;
  /**
   * The config a loop round runs with (studies: dpo-reward feedback from round 2 on, scored by the round's own policy);
   * absent: the loop's config. Not part of the loop's identity.
   */
  roundConfig?: (k: number, config: Config) => Config;
  /** Online mode, studies only: the reward server's claim verdicts instead of the labeler's (the oracle arm). */
  serveVerdicts?: StartOptions['verdicts'];
  /** A worker pool to use instead of one of the call's own (tests: one per file); the caller closes it. */
  pool?: WorkerPool;
}

/** What a loop call did. */
export interface LoopResult {
  loop: LoopRow;
  baseline: PolicyEvaluation;
  /** The start policy's multi-turn ablation (loop.ablation_prompts), or null. */
  baseline_ablation: AblationFigures | null;
  /** The start policy's correction rate after feedback (loop.eval_feedback), or null. */
  baseline_feedback: FeedbackReport | null;
  rounds: LoopRoundReport[];
}

/**
 * Runs (or resumes) the loop until it has `rounds` rounds. Returns the baseline evaluation and every round's record.
 * @example await runLoop(loadConfig(undefined).config, { rounds: 2, limit: 20 })
 */
export async function runLoop(config: Config, o: LoopOptions): Promise<LoopResult> {
  const progress = o.progress ?? silentProgress;
  const l = config.loop;
  const limit = o.limit ?? null;
  const evalLimit = o.evalLimit ?? l.eval_limit ?? limit;
  const hash = loopHash(config, limit, evalLimit);
  const start = startCheckpoint(config);
  const startPolicy = config.generate.backend.model;

  // Settings are checked before anything is stored (parseJudgeSpec throws a ConfigError naming loop.judge).
  if (l.select === 'best') {
    if (config.generate.backend.type !== 'local') {
      throw new ConfigError('loop.select: "best" evaluates every checkpoint the trainer left, which needs a local policy; a served policy uses "last".');
    }
    if (path.resolve(l.select_prompts) === path.resolve(l.eval_prompts)) {
      throw new ConfigError(`loop.select_prompts: ${l.select_prompts} is the held-out loop.eval_prompts; checkpoints are selected on a validation split, never on the test prompts.`);
    }
  }
  const judge: JudgeSpec = parseJudgeSpec(l.judge, 'loop.judge', l.judge_api_key_env);
  if (l.mode === 'online') checkOnline(config);
  if (l.sft_trainer !== null && !config.pair.corrections.includes('refine')) {
    throw new ConfigError('loop.sft_trainer: the SFT step trains on the round\'s refinement dialogues, which only the "refine" editor makes; add "refine" to pair.corrections.');
  }

  let loop: LoopRow;
  {
    const db = openDb(config.db);
    try {
      loop = db.transaction(() => findLoop(db, hash) ?? createLoop(db, { config_hash: hash, config_json: storedConfig(config), start_policy: startPolicy })).immediate();
    } finally {
      db.close();
    }
  }
  progress.log(`loop ${loop.id} in ${config.db} (consumer ${loop.consumer}), ${o.rounds} rounds`);
  // One worker pool for every round, evaluation and checkpoint selection of this call: each worker imports the model
  // runtime and loads the labeler once, not once per round (a round's checkpoint is dropped when it is no longer used).
  return withPool(config, o.pool ?? null, (pool) => loopRounds(config, o, { loop, start, startPolicy, evalLimit, limit, judge, pool, progress }));
}

/** What runLoop settled before its rounds: the loop row, its start, limits and judge, and the shared worker pool. */
interface LoopContext {
  loop: LoopRow;
  start: string;
  startPolicy: string;
  evalLimit: number | null;
  limit: number | null;
  judge: JudgeSpec;
  pool: WorkerPool | null;
  progress: Progress;
}

/** The baseline evaluations, then each round's steps until the loop has `o.rounds` rounds. */
async function loopRounds(config: Config, o: LoopOptions, c: LoopContext): Promise<LoopResult> {
  const { loop, start, startPolicy, evalLimit, limit, judge, pool, progress } = c;
  const l = config.loop;
  const evaluate = (policy: ModelBackend) =>
    evaluatePolicy(config, {
      policy,
      prompts: l.eval_prompts,
      limit: evalLimit,
      samples: l.eval_samples,
      temperature: l.eval_temperature,
      greedy: l.eval_greedy,
      progress,
      pool,
    });

  const ablate = (policy: ModelBackend) =>
    multiturnAblation(config, { policy, prompts: l.ablation_prompts!, limit: evalLimit, samples: l.eval_samples, temperature: l.eval_temperature, progress, pool });
  // The correction rate after a teacher's feedback (InterFeedback's N_c / N_e), from the labeler's verdicts.
  const feedbackRate = (policy: ModelBackend) =>
    correctionEval(config, { policy, prompts: l.eval_prompts, limit: evalLimit, level: l.eval_feedback!, provider: 'labeler', noise: 0, maxTurns: 3, progress, pool });
  // The starting policy is evaluated first: its held-out prompts are then known before any pull can deliver a pair.
  const baseline = await evaluate(config.generate.backend);
  const baselineAblation = l.ablation_prompts !== null ? await ablate(config.generate.backend) : null;
  const baselineFeedback = l.eval_feedback !== null ? await feedbackRate(config.generate.backend) : null;
  withDb(config, (db) => setLoopBaseline(db, loop.id, baseline.id));

  const dir = path.join(checkpointsDir(config), `loop-${loop.id}`);
  let policy = { policy: startPolicy, checkpoint: start };
  // loop.mode "online": rlaifv serve runs on the store while any budget point still needs training.
  let online: OnlineContext | null = null;
  try {
    for (let k = 1; k <= o.rounds; k++) {
      let row = withDb(config, (db) => addLoopRound(db, { loop_id: loop.id, idx: k, policy: policy.policy, policy_checkpoint: policy.checkpoint }));
      const roundDir = path.join(dir, `round-${k}`);
      mkdirSync(roundDir, { recursive: true });

      if (l.mode === 'online') {
        if (row.checkpoint === null) {
          online ??= await startOnline(config, limit, dir, progress, o.serveVerdicts, pool);
          row = await onlineTrain(config, loop, row, { ctx: online, out: path.join(roundDir, 'policy'), start, echo: o.echo ?? null, progress });
        }
      } else {
        if (!row.round_done_at) {
          progress.log(`loop round ${k}: ${row.policy} answers ${l.train_prompts}`);
          const base = o.roundConfig?.(k, config) ?? config;
          const roundConfig: Config = { ...base, prompts: l.train_prompts, generate: { ...base.generate, backend: policyBackend(config, row) } };
          const run = await runRound(roundConfig, {
            choice: row.train_round ?? 'next',
            stages: STAGES,
            ...(limit !== null ? { limit } : {}),
            progress,
            pool,
            create: { purpose: 'train', onCreate: (db, id) => updateLoopRound(db, loop.id, k, { train_round: id }) },
          });
          row = withDb(config, (db) => {
            updateLoopRound(db, loop.id, k, { train_round: run.round.id, round_done_at: now() });
            return getLoopRound(db, loop.id, k)!;
          });
        }

        if (row.pairs_file === null) {
          // The pairs get a folder of their own, so a trainer that loads a data set folder ({pairs_dir}) sees only them.
          mkdirSync(path.join(roundDir, 'pairs'), { recursive: true });
          const file = path.join(roundDir, 'pairs', l.pairs_file);
          row = o.pairs ? await customPairs(config, loop, k, file, o.pairs) : await pullPairs(config, loop, row, file);
          progress.log(`loop round ${k}: ${row.pairs} pairs in ${row.pairs_file}`);
        }
        if (!row.pairs) {
          throw new LoopStepError(
            `loop round ${k}: round ${row.train_round} gave no pairs to train on (see rlaifv stats --round ${row.train_round}); ` +
              'more prompts (--limit) or other pair settings start a new loop.',
          );
        }

        // FIRE's student training on the round's dialogues; the DPO trainer then starts from its checkpoint.
        if (l.sft_trainer !== null && row.sft_checkpoint === null) row = await sftStep(config, loop, row, roundDir, o.echo ?? null, progress);
        if (row.checkpoint === null) row = await train(config, loop, row, path.join(roundDir, 'policy'), o.echo ?? null, progress);
        if (l.select === 'best' && row.select_json === null) row = await selectCheckpoint(config, loop, row, progress, pool);
      }

      const d = l.deploy;
      if (d && config.generate.backend.type === 'openai' && row.served_model === null) row = await deploy(config, loop, row, o.echo ?? null, progress);

      const next = d && config.generate.backend.type === 'openai' ? row.served_model! : row.checkpoint!;
      if (row.eval_id === null) {
        const ev = await evaluate(policyBackend(config, { policy: next }));
        row = withDb(config, (db) => {
          updateLoopRound(db, loop.id, k, { eval_id: ev.id, evaluated_at: now() });
          return getLoopRound(db, loop.id, k)!;
        });
      }
      if (row.win_rates_json === null) row = await winRates(config, loop, row, baseline, judge, progress);
      if (l.ablation_prompts !== null && row.ablation_json === null) {
        const a = await ablate(policyBackend(config, { policy: next }));
        row = withDb(config, (db) => {
          updateLoopRound(db, loop.id, k, { ablation_json: JSON.stringify(a) });
          return getLoopRound(db, loop.id, k)!;
        });
      }
      if (l.eval_feedback !== null && row.feedback_json === null) {
        const f = await feedbackRate(policyBackend(config, { policy: next }));
        progress.log(`loop round ${row.idx}: correction rate after ${f.level} feedback ${f.correction_rate === null ? '-' : (100 * f.correction_rate).toFixed(1) + '%'} of N_e ${f.n_e}`);
        row = withDb(config, (db) => {
          updateLoopRound(db, loop.id, k, { feedback_json: JSON.stringify(f) });
          return getLoopRound(db, loop.id, k)!;
        });
      }
      policy = { policy: next, checkpoint: row.checkpoint! };
    }
  } finally {
    await online?.server.close();
  }
  return { loop, baseline, baseline_ablation: baselineAblation, baseline_feedback: baselineFeedback, rounds: withDb(config, (db) => loopReport(db, loop.id)) };
}
