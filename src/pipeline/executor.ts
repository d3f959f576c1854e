// The round executor: runs a round's stages with its backends (streaming when all five run, else stage after stage),
// the quality gate's top-up and length balance, and records each stage's times.
import type { Config } from '../config/schema.js';
import { finishRound, markTopUps, recordStageRun, type Db, type RoundRow } from '../store/index.js';
import { isRemote } from '../backends/openai/index.js';
import { type StageContext, type StageResult } from '../stages/context.js';
import { silentProgress, type Progress } from '../progress.js';
import { runGenerate } from '../stages/generate.js';
import { runDivide } from '../stages/divide.js';
import { runLabel } from '../stages/label.js';
import { runMethodScore, runScore } from '../stages/score.js';
import { rebalance, runPair } from '../stages/pair.js';
import { runStreaming, type StreamStage } from '../stages/stream.js';
import { runToolVerdicts } from '../stages/tools.js';
import { STAGES, type StageName } from '../domain.js';
import { flushUsage, stageConcurrency, verdictLabeler, type Backends } from './backends.js';

/** A stage the feedback method does not use: nothing to do. */
function skipped(stage: string): Promise<StageResult> {
  return Promise.resolve({ stage, items: 0, failures: 0, seconds: 0, modelSeconds: 0 });
}

/**
 * Another method than divide skips the LLM divider (a server call per answer it does not need); the rules divider
 * still runs, as it is cheap and gives `rlaifv eval` the claims it judges a policy by.
 */
function skipsDivide(backends: Backends): boolean {
  return backends.method !== null && isRemote(backends.divider);
}

/**
 * Runs the whole round streaming (see stages/stream.ts): every stage on its own slice of prompts at once, length
 * balance once at the end. Records each stage's summed times; returns what each did.
 */
async function runStreamingRound(
  db: Db,
  round: RoundRow,
  config: Config,
  backends: Backends,
  progress: Progress,
): Promise<StageResult[]> {
  for (const s of STAGES) {
    const role = stageRole(backends, s);
    if (isRemote(role)) for (const w of await role.pool.preflight()) progress.log(w);
  }
  const started = new Date().toISOString();
  const stages: StreamStage[] = STAGES.map((name) => ({ name, run: stageRun(backends, name, name === 'pair' ? { balance: false } : {}) }));
  let results: StageResult[];
  try {
    results = await runStreaming({ db, round, config, backends }, config, stages, progress, () => flushUsage(db, round.id, backends));
  } finally {
    flushUsage(db, round.id, backends);
    if (progress.lane) progress.done(); // ends the lanes' display
  }
  const pair = results.find((r) => r.stage === 'pair')!;
  await topUp({ db, round, config, progress, backends }, backends, [], { balance: false });
  const t0 = performance.now();
  rebalance(db, round.id, round.pair_method, config.pair.length_balance);
  pair.seconds += (performance.now() - t0) / 1000;
  for (const r of results) {
    recordStageRun(db, { round_id: round.id, stage: r.stage, items: r.items, seconds: r.seconds, model_seconds: r.modelSeconds, started_at: started });
  }
  finishRound(db, round.id, 'done');
  return results;
}

/**
 * Runs the given stages of a round and records their times; returns what each did. All five stages stream
 * (prompts move on slice by slice); a subset runs stage after stage over the whole round.
 */
export async function runStages(
  db: Db,
  round: RoundRow,
  config: Config,
  backends: Backends,
  stages: readonly StageName[],
  progress: Progress = silentProgress,
): Promise<StageResult[]> {
  if (STAGES.every((s, i) => stages[i] === s) && stages.length === STAGES.length) {
    return runStreamingRound(db, round, config, backends, progress);
  }
  const ctx: StageContext = { db, round, config, progress, backends };
  const results: StageResult[] = [];
  for (const s of stages) {
    const started = new Date().toISOString();
    const r = await runOneStage(ctx, backends, s);
    recordStageRun(db, { round_id: round.id, stage: s, items: r.items, seconds: r.seconds, model_seconds: r.modelSeconds, started_at: started });
    results.push(r);
  }
  if (stages.includes('pair')) {
    await topUp(ctx, backends, results);
    finishRound(db, round.id, 'done');
  }
  return results;
}

/** The backend a stage calls (the feedback method for score, none for label under another method than divide, the gate's judge for pair). */
function stageRole(backends: Backends, s: StageName): unknown {
  if (s === 'generate') return backends.generator;
  if (s === 'divide') return backends.divider;
  if (s === 'label') return backends.method ? null : backends.labeler;
  if (s === 'score') return backends.method;
  return backends.pairJudge;
}

/** What a stage does with this round's backends: the feedback method decides what divide, label and score are. */
function stageRun(backends: Backends, s: StageName, opts: { balance?: boolean } = {}): (ctx: StageContext) => Promise<StageResult> {
  switch (s) {
    case 'generate':
      return (c) => runGenerate(c, stageConcurrency(backends, backends.generator, c.config.generate.samples));
    case 'divide':
      return (c) => (skipsDivide(backends) ? skipped('divide') : runDivide(c, stageConcurrency(backends, backends.divider)));
    case 'label':
      return (c) => (backends.method ? skipped('label') : labelWithTools(c, backends));
    case 'score':
      return (c) => (backends.method ? runMethodScore(c, backends.method) : runScore(c, verdictLabeler(backends)));
    case 'pair':
      return (c) =>
        runPair(
          c,
          {
            ...opts,
            rewriter: backends.rewriter,
            refineConcurrency: stageConcurrency(backends, backends.generator),
            teacher: backends.teacher,
            // Corrected answers (pair.corrections) go through divide, label and score before they are paired.
            scoreCorrections: async (cc) => {
              const quiet = { ...cc, progress: silentProgress };
              await stageRun(backends, 'divide')(quiet);
              await stageRun(backends, 'label')(quiet);
              await stageRun(backends, 'score')(quiet);
            },
          },
          backends.pairJudge,
          backends.referenceScorer,
        );
  }
}


/** The label stage: the labeler answers every question; with label.tools the routed tools then decide theirs. */
async function labelWithTools(c: StageContext, backends: Backends): Promise<StageResult> {
  const r = await runLabel(c, stageConcurrency(backends, backends.labeler));
  if (!backends.toolVerdicts) return r;
  const served = backends.toolVerdicts.tools.find(isRemote) ?? null;
  const t = await runToolVerdicts(c, backends.toolVerdicts, stageConcurrency(backends, served));
  return { ...r, failures: r.failures + t.failures, seconds: r.seconds + t.seconds, modelSeconds: r.modelSeconds + t.modelSeconds };
}

/** Runs one stage over the round (or ctx.scope) after its backend's preflight, its remote usage flushed after. */
async function runOneStage(ctx: StageContext, backends: Backends, s: StageName, opts: { balance?: boolean } = {}): Promise<StageResult> {
  const role = stageRole(backends, s);
  if (isRemote(role)) for (const w of await role.pool.preflight()) ctx.progress.log(w);
  try {
    return await stageRun(backends, s, opts)(ctx);
  } finally {
    flushUsage(ctx.db, ctx.round.id, backends);
  }
}

/**
 * The quality gate's top-up (feedback.gate.top_up): once the round is paired, prompts left without a kept pair get
 * that many more samples (new recorded seeds), which go through every stage, and are paired again with all their
 * answers. The added work is recorded as stage runs and added to `results`.
 */
async function topUp(ctx: StageContext, backends: Backends, results: StageResult[], opts: { balance?: boolean } = {}): Promise<void> {
  const extra = ctx.config.feedback.gate.top_up;
  if (extra === 0) return;
  const n = markTopUps(ctx.db, ctx.round.id, ctx.round.pair_method, extra);
  if (n === 0) return;
  ctx.progress.log(`top-up: ${n} prompts without a kept pair get ${extra} more samples each`);
  for (const s of STAGES) {
    const started = new Date().toISOString();
    const r = await runOneStage(ctx, backends, s, s === 'pair' ? opts : {});
    recordStageRun(ctx.db, { round_id: ctx.round.id, stage: s, items: r.items, seconds: r.seconds, model_seconds: r.modelSeconds, started_at: started });
    const into = results.find((x) => x.stage === s);
    if (into) {
      into.items += r.items;
      into.failures += r.failures;
      into.seconds += r.seconds;
      into.modelSeconds += r.modelSeconds;
    }
  }
}
