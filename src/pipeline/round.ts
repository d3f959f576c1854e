// One RLAIF-V round end to end: ingest prompts, then generate → divide → label → score → pair.
import type { Config } from '../config/schema.js';
import { ConfigError, configHash, storedConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import {
  addRoundPrompt,
  createRound,
  finishRound,
  getRound,
  latestRound,
  putFailures,
  putImage,
  putPrompt,
  recordStageRun,
  claimShard,
  markTopUps,
  shardOf,
  type Shard,
  addUsage,
  promptSource,
  reopenFailures,
  isOnlineRound,
  openDb,
  type Db,
  type RoundPurpose,
  type RoundRow,
} from '../store/index.js';
import { readInput } from '../input/formats.js';
import { imageStoreDir } from '../image/store.js';
import { WorkerPool } from '../backends/local/pool.js';
import { LocalGenerator, LocalLabeler, RulesDivider } from '../backends/local/index.js';
import type { Divider, Generator, Labeler, SequenceScorer } from '../backends/types.js';
import { isRemote, LlmDivider, OpenAIGenerator, OpenAILabeler, takeUsage } from '../backends/openai/index.js';
import { type StageContext, type StageResult } from '../stages/context.js';
import { silentProgress, type Progress } from '../progress.js';
import { runGenerate } from '../stages/generate.js';
import { runDivide } from '../stages/divide.js';
import { runLabel } from '../stages/label.js';
import { runMethodScore, runScore } from '../stages/score.js';
import { createMethod, type FeedbackMethod } from '../methods/index.js';
import { PairJudge } from '../methods/pair-judge.js';
import { rebalance, runPair } from '../stages/pair.js';
import { Rewriter } from '../methods/rewriter.js';
import { Teacher } from '../methods/teacher.js';
import { referenceScorer } from '../stages/reference.js';
import { runStreaming, type StreamStage } from '../stages/stream.js';
import { runToolVerdicts } from '../stages/tools.js';
import { type ToolVerdicts } from '../tools/types.js';
import { createTools, createToolVerdicts } from '../tools/index.js';

import { STAGES, type StageName } from '../domain.js';
export { STAGES, type StageName };

/** Thrown when input is bad and the run was asked to stop on errors (exit 2): the one error module's, re-exported. */
export { InputError };

/** Which round to work on: a number, 'next' (a new one) or 'latest' (resume the newest, or start one). */
export type RoundChoice = number | 'next' | 'latest';

/** How a new round is made: its purpose, and a record of the caller's that must commit with its creation. */
export interface NewRoundOptions {
  purpose?: RoundPurpose;
  /** Runs in the transaction that creates the round (the loop records the round's id there, so a kill loses neither). */
  onCreate?: (db: Db, roundId: number) => void;
}

/** Opens the round a command works on, creating it when asked or when there is none. */
export function selectRound(
  db: Db,
  config: Config,
  choice: RoundChoice,
  ids: { policy: string; labeler: string; divider: string },
  opts: NewRoundOptions = {},
): RoundRow {
  const fresh = (id: number | null) =>
    db.transaction(() => {
      const created = createRound(
        db,
        {
          config_json: storedConfig(config),
          config_hash: configHash(config),
          policy_model: ids.policy,
          labeler_model: ids.labeler,
          divider: ids.divider,
          seed: config.seed,
          accept_rule: config.score.accept_rule,
          score_method: config.score.method,
          feedback_method: config.feedback.method,
          purpose: opts.purpose ?? 'train',
        },
        id,
      );
      opts.onCreate?.(db, created);
      return getRound(db, created)!;
    }).immediate();
  if (typeof choice === 'number') {
    const r = getRound(db, choice);
    // A round number not in this store yet is created with that number: shards of round N each start it as N.
    if (!r) return fresh(choice);
    if (r.config_hash !== configHash(config)) {
      throw new Error(
        `Round ${choice} was made with another config (hash ${r.config_hash}, this one ${configHash(config)}); ` +
          `use the same config to resume it, or --round next to start a new round.`,
      );
    }
    return r;
  }
  const latest = latestRound(db, opts.purpose ?? 'train');
  if (choice === 'latest' && latest && latest.config_hash === configHash(config)) return latest;
  return fresh(null);
}

/** Adds the prompts file's prompts (the first `limit`) to a round; bad lines stop the run or become failures. */
export async function ingestPrompts(
  db: Db,
  round: RoundRow,
  config: Config,
  opts: { limit?: number; progress?: Progress; shard?: Shard | null } = {},
): Promise<{ prompts: number; problems: number }> {
  let n = 0;
  let mine = 0;
  let problems = 0;
  const batch: (() => void)[] = [];
  const flush = () => {
    db.transaction(() => batch.splice(0).forEach((f) => f()))();
  };
  const input = readInput(config.prompts, config.input_format, config.limits, {
    imagesDir: imageStoreDir(config.db),
    columns: config.input_columns,
  });
  for await (const r of input) {
    if (opts.limit !== undefined && n >= opts.limit) break;
    if ('problem' in r) {
      if (config.on_error === 'stop') throw new InputError(`${r.problem.source}: ${r.problem.reason}`);
      putFailures(db, [{ round_id: round.id, stage: 'input', item: r.problem.source, reason: r.problem.reason }]);
      opts.progress?.log(`skipped ${r.problem.source}: ${r.problem.reason}`);
      problems++;
      continue;
    }
    const p = r.prompt;
    // The ordinal is the prompt's place in the whole input, so merged shards keep the input order.
    const ordinal = n++;
    if (opts.shard && shardOf(p.id, opts.shard.count) !== opts.shard.index) continue;
    mine++;
    batch.push(() => {
      // A prompt id already used with other content is refused before anything of it (its image too) is stored.
      const prev = promptSource(db, p.id, p.contentHash);
      if (prev) {
        const reason = `field id: prompt id "${p.id}" was already used by ${prev} with different content`;
        if (config.on_error === 'stop') throw new InputError(`${p.source}: ${reason}`);
        putFailures(db, [{ round_id: round.id, stage: 'input', item: p.source, reason }]);
        opts.progress?.log(`skipped ${p.source}: ${reason}`);
        mine--;
        problems++;
        return;
      }
      putImage(db, p.image);
      putPrompt(db, {
        id: p.id,
        image_id: p.image.id,
        question: p.question,
        meta_json: p.meta === undefined ? null : JSON.stringify(p.meta),
        history_json: p.history.length > 0 ? JSON.stringify(p.history) : null,
        content_hash: p.contentHash,
        source: p.source,
      });
      addRoundPrompt(db, round.id, p.id, ordinal);
    });
    if (batch.length >= 256) flush();
  }
  flush();
  return { prompts: mine, problems };
}

/** The backends a config asks for; local ones share one worker pool (made only when one is local). */
export interface Backends {
  generator: Generator;
  divider: Divider;
  labeler: Labeler;
  /** The feedback method other than divide (null: divide's own divide, label and score stages). */
  method: FeedbackMethod | null;
  /** The quality gate's judge model (feedback.gate.judge), which the pair stage asks; null: none. */
  pairJudge: PairJudge | null;
  /** The `llm` correction editor's served rewriter (pair.rewriter); null: none. */
  rewriter: Rewriter | null;
  /** The `refine` editor's served teacher (pair.refine.teacher); null: none. */
  teacher: Teacher | null;
  /** The round's policy as a scorer of whole answers when pair.reference_logprobs is on (the pair stage asks it); null: off. */
  referenceScorer: SequenceScorer | null;
  /** label.tools: the tools, routing table and verdict set whose labels the round reads; null: the labeler's own. */
  toolVerdicts: ToolVerdicts | null;
  pool: WorkerPool | null;
  close(): Promise<void>;
}

/**
 * The configured divider, as a round uses it (`rlaifv claims` previews the same one): the rules divider runs in
 * `pool`, the LLM divider on its server.
 */
export function createDivider(config: Config, pool: WorkerPool | null): Divider {
  const d = config.divide.backend;
  if (d.type === 'llm') return new LlmDivider(d, config.divide.max_words);
  if (!pool) throw new Error('divide: the rules divider runs in a worker pool, and none was made.');
  return new RulesDivider(pool, config.divide.max_words);
}

/** Builds the configured backends. */
export function createBackends(config: Config): Backends {
  const g = config.generate.backend;
  const l = config.label.backend;
  const dr = config.feedback.dpo_reward;
  const needsPool =
    g.type === 'local' || l.type === 'local' || config.divide.backend.type === 'rules' ||
    (config.feedback.method === 'dpo-reward' && (dr.reference.type === 'local' || (dr.policy ?? g).type === 'local'));
  const pool = needsPool ? new WorkerPool(config.workers) : null;
  try {
    // A local model folder that is incomplete is a config mistake: named by its field (exit 2).
    const local = <T>(field: string, make: () => T): T => {
      try {
        return make();
      } catch (e) {
        throw new ConfigError(`${field}: ${(e as Error).message}`);
      }
    };
    const generator = g.type === 'local' ? local('generate.backend.model', () => new LocalGenerator(pool!, g.model)) : new OpenAIGenerator(g);
    const labeler =
      l.type === 'local'
        ? local('label.backend.model', () => new LocalLabeler(pool!, l.model, config.label.suffix))
        : new OpenAILabeler(l, config.label.suffix, config.label.top_logprobs);
    const divider = createDivider(config, pool);
    const tools = local('label.tools', () => createTools(config));
    const method = local('feedback', () => createMethod(config, { labeler, pool, localConcurrency: (pool?.size.workers ?? 1) * 2, tools }));
    // The gate's judge reads the knowledge tools' findings in its {context} (Anyprefer's tool-augmented judge).
    const pairJudge = config.feedback.gate.judge ? new PairJudge(config.feedback.gate.judge, tools) : null;
    const rewriter = config.pair.rewriter && config.pair.corrections.includes('llm') ? new Rewriter(config.pair.rewriter) : null;
    const teacher = config.pair.refine.teacher && config.pair.corrections.includes('refine') ? new Teacher(config.pair.refine.teacher) : null;
    const reference = local('pair.reference_logprobs', () => referenceScorer(config, pool));
    const toolVerdicts = local('label.tools', () => createToolVerdicts(config, labeler.id, tools));
    return {
      generator,
      labeler,
      divider,
      method,
      pairJudge,
      rewriter,
      teacher,
      referenceScorer: reference,
      toolVerdicts,
      pool,
      close: async () => {
        await method?.close();
        await reference?.close();
        await Promise.all(tools.map((t) => t.close?.()));
        // Served backends hold keep-alive connections to their endpoints.
        await Promise.all([generator, labeler, divider].filter(isRemote).map((b) => (b as unknown as { close(): Promise<void> }).close()));
        await pool?.close();
      },
    };
  } catch (e) {
    void pool?.close();
    throw e;
  }
}

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

/** Tasks a stage keeps in flight for a backend: enough to fill every local worker or every server slot (the reward server uses it too). */
export function stageConcurrency(backends: Backends, b: unknown, requestsPerTask = 1): number {
  const local = (backends.pool?.size.workers ?? 1) * 2;
  if (!isRemote(b)) return local;
  // A served backend: a task per slot; a task that sends several requests (a prompt's samples) fills several, and
  // twice the slots' worth is enough: more only wait for a slot, holding their requests in memory.
  return Math.max(local, requestsPerTask > 1 ? Math.ceil((2 * b.pool.capacity) / requestsPerTask) : b.pool.capacity);
}

/** Stores what the remote backends used (requests, retries, tokens) since the last call. */
export function flushUsage(db: Db, roundId: number, backends: Backends): void {
  const rows = takeUsage([backends.generator, backends.divider, backends.labeler, backends.method, backends.pairJudge, backends.rewriter, backends.teacher, backends.referenceScorer, ...(backends.toolVerdicts?.tools ?? [])]);
  if (rows.length) addUsage(db, roundId, rows);
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

/** The labeler id whose labels the round reads: its verdict set's with label.tools, else the labeler's. */
function verdictLabeler(backends: Backends): string {
  return backends.toolVerdicts?.verdictSet ?? backends.labeler.id;
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

/** What a round run did. */
export interface RoundRun {
  round: RoundRow;
  ingest: { prompts: number; problems: number };
  ingestSeconds: number;
  results: StageResult[];
}

/**
 * Opens the store and backends, picks the round, ingests the prompts and runs the stages, then closes everything.
 * @example await runRound(loadConfig(undefined).config, { choice: 'next', stages: STAGES })
 */
export async function runRound(
  config: Config,
  opts: {
    choice: RoundChoice;
    stages: readonly StageName[];
    limit?: number;
    progress?: Progress;
    shard?: Shard | null;
    /** How a new round is made (purpose, the caller's record); a resumed round is as it was. */
    create?: NewRoundOptions;
    /** Take the round's failed generate, divide, label and score items up again (see reopenFailures). */
    retryFailed?: boolean;
  },
): Promise<RoundRun> {
  const progress = opts.progress ?? silentProgress;
  const backends = createBackends(config);
  const db = openDb(config.db);
  try {
    claimShard(db, config.db, opts.shard ?? null);
    const round = selectRound(db, config, opts.choice, {
      policy: backends.generator.id,
      labeler: verdictLabeler(backends),
      divider: backends.divider.id,
    }, opts.create);
    progress.log(
      `round ${round.id} in ${config.db}` +
        (backends.pool ? ` (${backends.pool.size.workers} workers × ${backends.pool.size.threadsPerWorker} threads)` : ''),
    );
    const t0 = performance.now();
    // A reward server's online round takes its prompts from requests: `rlaifv pair` on it reads no prompts file.
    const ingest = isOnlineRound(db, round.id)
      ? { prompts: 0, problems: 0 }
      : await ingestPrompts(db, round, config, { ...(opts.limit ? { limit: opts.limit } : {}), progress, shard: opts.shard ?? null });
    const ingestSeconds = (performance.now() - t0) / 1000;
    if (opts.retryFailed) {
      const plan = reopenFailures(db, round.id, opts.stages);
      const n = Object.values(plan.failures).reduce((a, b) => a + b, 0);
      progress.log(
        n === 0
          ? `round ${round.id}: no failed items to retry`
          : `round ${round.id}: retrying ${n} failed items (${Object.entries(plan.failures).map(([s, k]) => `${s} ${k}`).join(', ')}); ` +
              `${plan.prompts} prompts rescored and repaired` +
              (plan.delivered_prompts ? `, ${plan.delivered_prompts} keep the pairs a consumer already has` : ''),
      );
    }
    const results = await runStages(db, getRound(db, round.id)!, config, backends, opts.stages, progress);
    return { round: getRound(db, round.id)!, ingest, ingestSeconds, results };
  } finally {
    db.close();
    await backends.close();
  }
}
