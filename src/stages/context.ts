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
  /** The progress of one stage while several stages run at once (a streaming round); absent: this one is used. */
  lane?(stage: string): Progress;
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

/** Runs `fn`, adding its wall time to `acc.modelSeconds`. */
export async function timed<T>(acc: { modelSeconds: number }, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    acc.modelSeconds += (performance.now() - t) / 1000;
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
