// What every stage of a round gets: the store, the round, its config, its backends, and somewhere to report progress.
import type { Config } from '../config/schema.js';
import type { Db, OrdinalRange, RoundRow } from '../store/index.js';
import type { Divider, Generator, Labeler } from '../backends/types.js';
import type { Progress } from '../progress.js';

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
