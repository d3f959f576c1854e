// Cross-cutting helpers every layer may use: progress reporting, model-time accounting and a concurrency limit.
// A leaf: it imports nothing from src/.

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
