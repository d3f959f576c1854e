// The backend factory: the generator, divider, labeler, feedback method, judges and tools a config asks for, local
// ones sharing one worker pool; and what the executor asks of them (concurrency, usage).
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { addUsage, type Db } from '../store/index.js';
import { WorkerPool } from '../backends/local/pool.js';
import { LocalGenerator, LocalLabeler, RulesDivider } from '../backends/local/index.js';
import type { Divider, Generator, Labeler, SequenceScorer } from '../backends/types.js';
import { isRemote, LlmDivider, OpenAIGenerator, OpenAILabeler, takeUsage } from '../backends/openai/index.js';
import { createMethod, type FeedbackMethod } from '../methods/index.js';
import { PairJudge } from '../methods/pair-judge.js';
import { Rewriter } from '../methods/rewriter.js';
import { Teacher } from '../methods/teacher.js';
import { referenceScorer } from '../stages/reference.js';
import { type ToolVerdicts } from '../tools/types.js';
import { createTools, createToolVerdicts } from '../tools/index.js';

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

/** Whether a config runs anything in a worker pool (a local generator, labeler or scorer, or the rules divider). */
export function needsPool(config: Config): boolean {
  const g = config.generate.backend;
  const dr = config.feedback.dpo_reward;
  return (
    g.type === 'local' || config.label.backend.type === 'local' || config.divide.backend.type === 'rules' ||
    (config.feedback.method === 'dpo-reward' && (dr.reference.type === 'local' || (dr.policy ?? g).type === 'local'))
  );
}

/**
 * Builds the configured backends. With `opts.pool` they run in that pool (a loop's, shared by its rounds and
 * evaluations) and close() leaves it open for its owner; without, they make their own when one is needed and close it.
 * @example const b = createBackends(config, { pool }); try { … } finally { await b.close(); }
 */
export function createBackends(config: Config, opts: { pool?: WorkerPool | null } = {}): Backends {
  const g = config.generate.backend;
  const l = config.label.backend;
  const pool = needsPool(config) ? (opts.pool ?? new WorkerPool(config.workers)) : null;
  const own = pool !== null && pool !== opts.pool;
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
        // Served backends hold keep-alive connections to their endpoints; local ones hold a lease on their model in
        // the pool, which a shared pool's workers need ended to drop the model.
        await Promise.all([generator, labeler, divider].map((b) => b.close()));
        if (own) await pool?.close();
      },
    };
  } catch (e) {
    if (own) void pool?.close();
    throw e;
  }
}

/**
 * Runs `fn` in `given`, or in a worker pool of its own when `config` needs one, closed after (also on failure): a
 * command that runs several rounds (an evaluation's sampled and greedy rounds, a comparison's two policies, the turns
 * of a correction or ablation run) opens one pool for all of them.
 * @example await withPool(config, null, (pool) => runRound(config, { choice: 'next', stages: STAGES, pool }))
 */
export async function withPool<T>(config: Config, given: WorkerPool | null | undefined, fn: (pool: WorkerPool | null) => Promise<T>): Promise<T> {
  if (given || !needsPool(config)) return fn(given ?? null);
  const pool = new WorkerPool(config.workers);
  try {
    return await fn(pool);
  } finally {
    await pool.close();
  }
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

/** The labeler id whose labels the round reads: its verdict set's with label.tools, else the labeler's. */
export function verdictLabeler(backends: Backends): string {
  return backends.toolVerdicts?.verdictSet ?? backends.labeler.id;
}
