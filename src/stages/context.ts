// What every stage of a round gets: the store, the round, its config, its backends, and somewhere to report progress.
import type { Config } from '../config/schema.js';
import type { Db, OrdinalRange, RoundRow } from '../store/index.js';
import type { Divider, Generator, Labeler } from '../backends/types.js';

/** Progress of one stage: the CLI renders it as a bar on a TTY and as log lines otherwise. */
export interface Progress {
  start(stage: string, total: number): void;
  tick(n?: number): void;
  done(): void;
  log(msg: string): void;
  /**
   * The progress of one stage while several stages run at once (a streaming round of `roundPrompts` prompts);
   * absent: this one is used.
   */
  lane?(stage: string, roundPrompts?: number): Progress;
  /** A streaming lane: `prompts` more of the round's prompts are through this stage. */
  through?(prompts: number): void;
  /** A streaming lane has done its last slice. */
  finish?(): void;
}

/** A progress sink that says nothing (library use, tests). */
export const silentProgress: Progress = { start() {}, tick() {}, done() {}, log() {} };

/** The round being worked on. */
export interface StageContext {
  db: Db;
  round: RoundRow;
  config: Config;
  progress: Progress;
  backends: { generator?: Generator; divider?: Divider; labeler?: Labeler };
  /** Only the prompts in this slice (by input ordinal); all of them when absent. */
  scope?: OrdinalRange;
}

/** What a stage did. */
export interface StageResult {
  stage: string;
  items: number;
  failures: number;
  seconds: number;
  /** Time spent waiting on model/backend calls (the rest is rlaifv's own work). */
  modelSeconds: number;
}

/** Time spent in model calls: the wall time during which at least one call was in flight. */
export interface ModelTime {
  modelSeconds: number;
  inFlight?: number;
  since?: number;
}

/**
 * Runs `fn` (a model call), adding to `acc.modelSeconds` the time during which at least one call was in flight:
 * concurrent calls count once, so a stage's model time never exceeds its own time.
 */
export async function timed<T>(acc: ModelTime, fn: () => Promise<T>): Promise<T> {
  if (!acc.inFlight) acc.since = performance.now();
  acc.inFlight = (acc.inFlight ?? 0) + 1;
  try {
    return await fn();
  } finally {
    acc.inFlight -= 1;
    if (acc.inFlight === 0) acc.modelSeconds += (performance.now() - acc.since!) / 1000;
  }
}

/**
 * Collects a stage's results and writes them in few, large transactions: when `maxRows` are waiting or `maxMs` have
 * passed since the last write, and at the end (`flush`). Each commit rewrites the index pages it touched, so small
 * transactions cost several times the rows' own work; a crash loses at most the last `maxMs` of results, which the
 * next run redoes.
 */
export class WriteBatcher<T> {
  private rows: T[] = [];
  private last = performance.now();
  constructor(
    private readonly write: (rows: T[]) => void,
    private readonly maxRows = 4096,
    private readonly maxMs = 1000,
  ) {}

  add(rows: readonly T[]): void {
    for (const r of rows) this.rows.push(r);
    if (this.rows.length >= this.maxRows || performance.now() - this.last >= this.maxMs) this.flush();
  }

  flush(): void {
    this.last = performance.now();
    if (this.rows.length) this.write(this.rows.splice(0));
  }
}

/** Runs tasks with at most `limit` in flight, in order of submission; results keep the input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (e) {
        next = items.length; // a failing task stops the others from starting new work
        throw e;
      }
    }
  });
  await Promise.all(lanes);
  return out;
}
