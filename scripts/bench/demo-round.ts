// A demo round (default config, dev prompts) run in-process through rlaifv's library, the way `rlaifv run` runs it
// (createBackends → selectRound → ingestPrompts → runStages with every stage, however the product schedules them),
// with each model role wrapped to measure the time during which at least one model call is in flight. A stage keeps
// several calls in flight at once, so the sum of the calls' wall times (what stage_runs.model_seconds held when this
// was written) can exceed the stage's own seconds; the wrapped "busy" time is the union of the calls' intervals.
//
// Rounds are memoized per (workers, limit) for the life of the process, so the label-cache and round-time benches
// share the 2-worker round when both run. Their temp folders are removed when the process exits.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { createBackends, ingestPrompts, runStages, selectRound, type Backends, type RoundChoice } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb } from '../../src/store/index.js';
import { DEV_PROMPTS, tempDir } from './common.js';

/** Measures the union of in-flight intervals of wrapped calls, and how many calls/items went through. */
export class BusyClock {
  private inFlight = 0;
  private since = 0;
  busyMs = 0;
  calls = 0;
  items = 0;
  async track<T>(items: number, fn: () => Promise<T>): Promise<T> {
    if (this.inFlight++ === 0) this.since = performance.now();
    this.calls++;
    this.items += items;
    try {
      return await fn();
    } finally {
      if (--this.inFlight === 0) this.busyMs += performance.now() - this.since;
    }
  }
  reset(): void {
    this.busyMs = 0;
    this.calls = 0;
    this.items = 0;
  }
}

/** The role object with its one model method timed by `clock` (everything else, e.g. a remote `pool`, passes through). */
function wrap<T extends object>(role: T, counts: Record<string, (args: unknown[]) => number>, clock: BusyClock): T {
  return new Proxy(role, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      const count = typeof prop === 'string' ? counts[prop] : undefined;
      if (!count || typeof v !== 'function') return v;
      return (...args: unknown[]) => clock.track(count(args), () => (v as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

/** One stage of a measured round, as stage_runs recorded it, with the time its model role had a call in flight. */
export interface StageFigures {
  stage: string;
  items: number;
  /** stage_runs.seconds */
  seconds: number;
  /** stage_runs.model_seconds (as rlaifv stores it) */
  modelSeconds: number;
  /** Wall time with at least one call of this stage's model role in flight (0 for score and pair). */
  busySeconds: number;
  /** Model calls made, and the items they carried (answers asked for, answers divided, questions labeled). */
  calls: number;
  callItems: number;
}

/** A measured round. */
export interface DemoRun {
  db: string;
  roundId: number;
  workers: number;
  /** From opening backends to closing them (ingest, stages, pool start and stop, model loading). */
  wallSeconds: number;
  ingestSeconds: number;
  /** Wall time of runStages (every stage, however the product schedules them). */
  stagesWallSeconds: number;
  /** Wall time with at least one model call (any role) in flight. */
  busySeconds: number;
  stages: StageFigures[];
  claims: number;
  questions: number;
}

const ROLE_OF: Record<string, 'generator' | 'divider' | 'labeler' | null> = { generate: 'generator', divide: 'divider', label: 'labeler', score: null, pair: null };

/** Runs one whole round in-process on `db` and measures it. */
export async function measuredRound(opts: {
  db: string;
  workers: number;
  limit?: number;
  seed?: number;
  choice?: RoundChoice;
  samples?: number;
}): Promise<DemoRun> {
  const { config } = loadConfig(undefined, {
    db: opts.db,
    prompts: DEV_PROMPTS,
    workers: opts.workers,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.samples !== undefined ? { samples: opts.samples } : {}),
  });
  const t0 = performance.now();
  const raw = createBackends(config);
  const all = new BusyClock();
  const clocks = { generator: new BusyClock(), divider: new BusyClock(), labeler: new BusyClock() };
  // Each role's calls are timed by its own clock and, nested, by the clock of all roles.
  const both = (role: keyof typeof clocks): BusyClock => {
    const c = new BusyClock();
    c.track = <T>(items: number, fn: () => Promise<T>) => clocks[role].track(items, () => all.track(items, fn));
    return c;
  };
  const backends: Backends = {
    ...raw,
    generator: wrap(raw.generator, { generate: (a) => (a[0] as { samples: unknown[] }).samples.length }, both('generator')),
    divider: wrap(raw.divider, { divide: (a) => (a[0] as unknown[]).length }, both('divider')),
    // A local labeler is called with several images at once (labelImages), a remote one image at a time (label).
    labeler: wrap(raw.labeler, {
      label: (a) => (a[1] as unknown[]).length,
      labelImages: (a) => (a[0] as { questions: unknown[] }[]).reduce((n, x) => n + x.questions.length, 0),
    }, both('labeler')),
  };
  const db = openDb(config.db);
  try {
    const round = selectRound(db, config, opts.choice ?? 'latest', { policy: raw.generator.id, labeler: raw.labeler.id, divider: raw.divider.id });
    const ti = performance.now();
    await ingestPrompts(db, round, config, opts.limit ? { limit: opts.limit } : {});
    const ingestSeconds = (performance.now() - ti) / 1000;
    const ts = performance.now();
    await runStages(db, round, config, backends, STAGES);
    const stagesWallSeconds = (performance.now() - ts) / 1000;
    // What stage_runs holds for this round (summed per stage, in case a stage was recorded in several parts).
    const recorded = db
      .prepare(
        `SELECT stage, sum(items) AS items, sum(seconds) AS seconds, sum(model_seconds) AS model_seconds
         FROM stage_runs WHERE round_id = ? GROUP BY stage`,
      )
      .all(round.id) as { stage: string; items: number; seconds: number; model_seconds: number }[];
    const stages: StageFigures[] = STAGES.map((s) => {
      const r = recorded.find((x) => x.stage === s);
      const role = ROLE_OF[s];
      const c = role ? clocks[role] : null;
      return {
        stage: s,
        items: r?.items ?? 0,
        seconds: r?.seconds ?? 0,
        modelSeconds: r?.model_seconds ?? 0,
        busySeconds: c ? c.busyMs / 1000 : 0,
        calls: c?.calls ?? 0,
        callItems: c?.items ?? 0,
      };
    });
    const count = (sql: string) => (db.prepare(sql).get(round.id) as { n: number }).n;
    const claims = count(`SELECT count(*) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ?`);
    const questions = count(`SELECT count(DISTINCT cl.question_id) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ?`);
    db.close();
    await raw.close();
    return {
      db: opts.db,
      roundId: round.id,
      workers: opts.workers,
      wallSeconds: (performance.now() - t0) / 1000,
      ingestSeconds,
      stagesWallSeconds,
      busySeconds: all.busyMs / 1000,
      stages,
      claims,
      questions,
    };
  } catch (e) {
    if (db.open) db.close();
    await raw.close();
    throw e;
  }
}

const memo = new Map<string, Promise<DemoRun>>();
const dirs: (() => void)[] = [];
process.once('exit', () => dirs.forEach((f) => f()));

/** A fresh round 1 in its own temp store, shared by every bench of this process asking for the same sizes. */
export function demoRound(workers: number, limit?: number): Promise<DemoRun> {
  const key = `${workers}/${limit ?? 'all'}`;
  let p = memo.get(key);
  if (!p) {
    const t = tempDir(`demo-w${workers}`);
    dirs.push(t.cleanup);
    p = measuredRound({ db: path.join(t.dir, 'round.sqlite'), workers, ...(limit ? { limit } : {}) });
    memo.set(key, p);
  }
  return p;
}

/** Copies a closed store (and any WAL beside it) to `to`. */
export function copyStore(from: string, to: string): void {
  copyFileSync(from, to);
  for (const ext of ['-wal', '-shm']) if (existsSync(from + ext)) copyFileSync(from + ext, to + ext);
  else rmSync(to + ext, { force: true });
}
