// `rlaifv loop`: iterative RLAIF-V. Each round the current policy answers the train prompts (a whole round), the
// round's pairs are pulled for the loop's consumer, an external trainer turns them into a checkpoint (deployed when the
// policy is served), and the checkpoint is evaluated on held-out prompts; the checkpoint is the next round's policy.
// Every step is recorded in the transaction that finishes it, so a killed loop resumes at the first unfinished step.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config, ModelBackend } from '../config/schema.js';
import { ConfigError, configHash, storedConfig } from '../config/load.js';
import { addLoopRound, createLoop, findLoop, getLoopRound, getPolicyEval, loopRounds, openDb, setLoopBaseline, updateLoopRound, type Db, type LoopRoundRow, type LoopRow } from '../store/index.js';
import { now } from '../store/index.js';
import { runRound } from '../pipeline/round.js';
import { STAGES } from '../domain.js';
import { silentProgress, type Progress } from '../progress.js';
import { evaluatePolicy, policyEvaluation, type PolicyEvaluation } from '../eval/runs/policy-eval.js';
import { LoopStepError, customPairs, deploy, pullPairs, sftStep, train, withDb, type PairsMaker } from './steps.js';
import { onlineTrain, startOnline, type OnlineContext } from './online.js';
import type { StartOptions } from '../serve/server.js';
import { selectCheckpoint, type SelectCandidate } from './select.js';
import { compareRounds, parseJudgeSpec, type CompareResult, type JudgeSpec } from '../eval/runs/compare/index.js';
import type { TruthFreeFigures } from '../eval/truth-free.js';
import { multiturnAblation, type AblationFigures } from '../eval/runs/ablation.js';
import { correctionEval, type FeedbackReport } from '../eval/runs/correction.js';

export { LoopStepError, type PairsMaker } from './steps.js';
export type { SelectCandidate } from './select.js';

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
}

/** One round of a loop as `rlaifv loop --json` prints it. */
export interface LoopRoundReport {
  loop: number;
  loop_round: number;
  /** The store's round that made this round's pairs. */
  round: number | null;
  policy: string;
  checkpoint: string | null;
  checkpoint_sha256: string | null;
  pairs: number | null;
  pairs_file: string | null;
  delivery: number | null;
  trainer_exit: number | null;
  served_model: string | null;
  /** Checkpoint selection's candidates with their validation figures (loop.select: best); null otherwise. */
  select: SelectCandidate[] | null;
  /**
   * The held-out evaluation of this round's checkpoint: the truth's sampled figures (null where the prompts carry no
   * truth), plus `greedy`, and `truth_free` with the win rates against the previous round and the start.
   */
  eval:
    | (PolicyEvaluation['sampled'] & {
        greedy: PolicyEvaluation['greedy'];
        eval_id: number;
        truth_free: LoopTruthFree;
        /** ConvBench's multi-turn ablation of the checkpoint (loop.ablation_prompts); null when not configured. */
        multiturn_ablation: AblationFigures | null;
        /** The checkpoint's correction rate after feedback (loop.eval_feedback); null when not configured. */
        feedback: FeedbackReport | null;
      })
    | null;
  /** The SFT step on the round's refinement dialogues (loop.sft_trainer): its dialogues and checkpoint; null: none. */
  sft: { dialogues_file: string; dialogues: number; checkpoint: string | null } | null;
}

/** A win rate as the loop reports it: A is this round's checkpoint (ties count half). */
export interface LoopWinRate {
  win_rate: number | null;
  ci95: [number, number] | null;
}

/** The truth-free figures of a round's checkpoint, with its held-out win rates (null for the start, or not computed). */
export type LoopTruthFree = TruthFreeFigures & {
  win_rate_vs_previous: LoopWinRate | null;
  win_rate_vs_start: LoopWinRate | null;
};

/** The stored form of a round's win rates (loop_rounds.win_rates_json). */
interface StoredWinRates {
  judge: string;
  vs_previous: CompareResult;
  vs_start: CompareResult;
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
 * The identity of a loop: the round settings (start policy included), what it trains and evaluates on, and the prompt
 * limits. How it trains and deploys (the commands, where checkpoints go) is not: a rerun with a fixed trainer command
 * resumes the loop and retries the failed step.
 */
function loopHash(config: Config, limit: number | null, evalLimit: number | null): string {
  const {
    trainer: _t, trainer_timeout_ms: _tt, deploy: _d, checkpoints: _c, judge: _j, judge_api_key_env: _jk, ablation_prompts: _ap, pairs_spans: _ps,
    eval_feedback: _ef, sft_trainer, select, select_prompts, select_limit, mode, online_trainer: _ot, ...what
  } = config.loop;
  // Selection is part of a loop's identity only when it selects (loops made before it existed keep their hash); an
  // SFT step only by being there (its command, like the trainer's, is not).
  const selection = select === 'last' ? [] : [[select, select_prompts, select_limit]];
  const sft = sft_trainer === null ? [] : ['sft'];
  // An online loop is another loop, and so is each reward preset it trains on (config.reward is not in configHash).
  const online = mode === 'online' ? [['online', config.reward]] : [];
  return createHash('sha256')
    .update(JSON.stringify([configHash(config), what, limit, evalLimit, ...selection, ...sft, ...online]))
    .digest('hex')
    .slice(0, 16);
}

/** What the online loop cannot do, said before anything is stored (exit 2). */
function checkOnline(config: Config): void {
  if (config.generate.backend.type !== 'local') {
    throw new ConfigError('loop.mode: "online" trains the policy in its trainer process from a checkpoint folder; it needs a local policy (generate.backend.type "local").');
  }
  if (config.loop.select !== 'last' || config.loop.sft_trainer !== null) {
    throw new ConfigError('loop.mode: "online" keeps the trainer\'s {out} at each budget point; loop.select "best" and loop.sft_trainer are DPO-loop steps.');
  }
}

/** The checkpoint folder the loop starts from: the local policy's folder, or the deploy hook's start checkpoint. */
function startCheckpoint(config: Config): string {
  const g = config.generate.backend;
  if (g.type === 'local') return g.model;
  const d = config.loop.deploy;
  if (!d) {
    throw new ConfigError(
      'loop.deploy: the policy is served (generate.backend.type "openai"), so the loop needs a deploy hook to serve each new checkpoint ' +
        '(loop.deploy.command, loop.deploy.model, loop.deploy.start_checkpoint).',
    );
  }
  return d.start_checkpoint;
}

/** The generate backend that samples from a round's policy. */
function policyBackend(config: Config, r: Pick<LoopRoundRow, 'policy'>): ModelBackend {
  const g = config.generate.backend;
  return g.type === 'local' ? { type: 'local', model: r.policy } : { ...g, model: r.policy };
}

function checkpointsDir(config: Config): string {
  if (config.loop.checkpoints) return config.loop.checkpoints;
  const p = path.parse(config.db);
  return path.join(p.dir, `${p.name}.checkpoints`);
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
  const evaluate = (policy: ModelBackend) =>
    evaluatePolicy(config, {
      policy,
      prompts: l.eval_prompts,
      limit: evalLimit,
      samples: l.eval_samples,
      temperature: l.eval_temperature,
      greedy: l.eval_greedy,
      progress,
    });

  const ablate = (policy: ModelBackend) =>
    multiturnAblation(config, { policy, prompts: l.ablation_prompts!, limit: evalLimit, samples: l.eval_samples, temperature: l.eval_temperature, progress });
  // The correction rate after a teacher's feedback (InterFeedback's N_c / N_e), from the labeler's verdicts.
  const feedbackRate = (policy: ModelBackend) =>
    correctionEval(config, { policy, prompts: l.eval_prompts, limit: evalLimit, level: l.eval_feedback!, provider: 'labeler', noise: 0, maxTurns: 3, progress });
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
          online ??= await startOnline(config, limit, dir, progress, o.serveVerdicts);
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
        if (l.select === 'best' && row.select_json === null) row = await selectCheckpoint(config, loop, row, progress);
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

/**
 * The held-out win rates of a round's checkpoint against the previous round's (the start's, for round 1) and against
 * the start's, from their evaluation rounds (same prompts and seeds), recorded with the round.
 */
async function winRates(config: Config, loop: LoopRow, row: LoopRoundRow, baseline: PolicyEvaluation, judge: JudgeSpec, progress: Progress): Promise<LoopRoundRow> {
  const db = openDb(config.db);
  try {
    const ev = policyEvaluation(getPolicyEval(db, row.eval_id!)!)!;
    const prevRow = row.idx > 1 ? getLoopRound(db, loop.id, row.idx - 1) : undefined;
    const prev = prevRow?.eval_id ? policyEvaluation(getPolicyEval(db, prevRow.eval_id)!)! : baseline;
    const o = { judge, seed: config.seed, a: ev.policy, promptsFile: ev.prompts, progress };
    const vsPrevious = await compareRounds(db, ev.sampled_round, prev.sampled_round, { ...o, b: prev.policy });
    const vsStart = prev.id === baseline.id ? vsPrevious : await compareRounds(db, ev.sampled_round, baseline.sampled_round, { ...o, b: baseline.policy });
    const stored: StoredWinRates = { judge: vsPrevious.judge, vs_previous: vsPrevious, vs_start: vsStart };
    const show = (r: CompareResult) => (r.win_rate_a === null ? '-' : `${(100 * r.win_rate_a).toFixed(1)}% [${r.ci95!.map((x) => (100 * x).toFixed(1)).join(', ')}]`);
    progress.log(`loop round ${row.idx}: held-out win rate (${stored.judge}) vs previous ${show(vsPrevious)}, vs start ${show(vsStart)}`);
    updateLoopRound(db, loop.id, row.idx, { win_rates_json: JSON.stringify(stored) });
    return getLoopRound(db, loop.id, row.idx)!;
  } finally {
    db.close();
  }
}

const winRate = (r: CompareResult | undefined): LoopWinRate | null => (r ? { win_rate: r.win_rate_a, ci95: r.ci95 } : null);

/** A round's truth-free figures with its win rates (null ones until they are computed). */
function truthFree(ev: PolicyEvaluation, winRatesJson: string | null): LoopTruthFree {
  const w = winRatesJson ? (JSON.parse(winRatesJson) as StoredWinRates) : null;
  return { ...ev.truth_free, win_rate_vs_previous: winRate(w?.vs_previous), win_rate_vs_start: winRate(w?.vs_start) };
}

/** Every round of a loop as reported. */
export function loopReport(db: Db, loopId: number): LoopRoundReport[] {
  const rows = loopRounds(db, loopId);
  return rows.map((r) => {
    const ev = r.eval_id === null ? null : policyEvaluation(getPolicyEval(db, r.eval_id)!);
    return {
      loop: loopId,
      loop_round: r.idx,
      round: r.train_round,
      policy: r.policy,
      checkpoint: r.checkpoint,
      checkpoint_sha256: r.checkpoint_sha256,
      pairs: r.pairs,
      pairs_file: r.pairs_file,
      delivery: r.delivery_id,
      trainer_exit: r.trainer_exit,
      served_model: r.served_model,
      select: r.select_json ? (JSON.parse(r.select_json) as SelectCandidate[]) : null,
      eval: ev
        ? {
            ...ev.sampled,
            greedy: ev.greedy,
            eval_id: ev.id,
            truth_free: truthFree(ev, r.win_rates_json),
            multiturn_ablation: r.ablation_json ? (JSON.parse(r.ablation_json) as AblationFigures) : null,
            feedback: r.feedback_json ? (JSON.parse(r.feedback_json) as FeedbackReport) : null,
          }
        : null,
      sft: r.dialogues_file ? { dialogues_file: r.dialogues_file, dialogues: r.dialogues ?? 0, checkpoint: r.sft_checkpoint } : null,
    };
  });
}
