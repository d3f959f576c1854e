// One RLAIF-V round end to end: ingest prompts, then generate → divide → label → score → pair. The backend factory
// (backends.ts) and the executor (executor.ts) have their own files; this module stays the public entry for them.
import type { Config } from '../config/schema.js';
import { configHash, storedConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import {
  addRoundPrompt,
  createRound,
  getImage,
  getRound,
  latestRound,
  putFailures,
  putImage,
  putPrompt,
  claimShard,
  shardOf,
  type Shard,
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
import { type StageResult } from '../stages/context.js';
import { silentProgress, type Progress } from '../progress.js';
import { createBackends, verdictLabeler } from './backends.js';
import type { WorkerPool } from '../backends/local/pool.js';
import { runStages } from './executor.js';

export { createBackends, createDivider, flushUsage, needsPool, stageConcurrency, withPool, type Backends } from './backends.js';
export { runStages } from './executor.js';

import type { StageName } from '../domain.js';

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
    db.transaction(() => batch.splice(0).forEach((f) => f())).immediate();
  };
  const input = readInput(config.prompts, config.input_format, config.limits, {
    imagesDir: imageStoreDir(config.db),
    columns: config.input_columns,
    known: (id) => getImage(db, id),
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
    // At the limit, stop before the reader reads (and checks the image of) one line more.
    const full = opts.limit !== undefined && n >= opts.limit;
    if (opts.shard && shardOf(p.id, opts.shard.count) !== opts.shard.index) {
      if (full) break;
      continue;
    }
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
    if (full) break;
  }
  flush();
  return { prompts: mine, problems };
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
    /** A worker pool to run in, left open for its owner (a loop's); absent: the round makes its own and closes it. */
    pool?: WorkerPool | null;
  },
): Promise<RoundRun> {
  const progress = opts.progress ?? silentProgress;
  const backends = createBackends(config, { pool: opts.pool ?? null });
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
