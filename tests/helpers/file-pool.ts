// One worker pool per test process for the files' in-process rounds and test servers, instead of one per round or per
// file: each new pool's workers import transformers.js, onnxruntime and the divider's language model and load the tiny
// models again, about 1.3 s of CPU per pool (three 6-prompt rounds: 7.8 s with a pool each, 4.0 s in one;
// docs/testing.md). Both vitest projects run with `isolate: false`, so the files one test process runs share this
// module and so its pools (docs/testing.md, "One pool per test process").
import { WorkerPool } from '../../src/backends/local/pool.js';

/** The process's shared pools, by worker count. */
const shared = new Map<number, WorkerPool>();

/** Closes the shared pools once the test process has nothing else to do (its last file has ended). */
async function closeShared(): Promise<void> {
  const pools = [...shared.values()];
  shared.clear();
  await Promise.all(pools.map((p) => p.close()));
}

/**
 * The test process's pool of `workers` workers, made on first use. Models stay loaded in it from file to file (a file's
 * backends lease their model folders while they live, so a worker drops a checkpoint whose leases have all ended and
 * reloads a folder written again: WorkerPool). Never close it: it is closed when the process runs out of work.
 */
export function sharedPool(workers = 2): WorkerPool {
  let pool = shared.get(workers);
  if (!pool) {
    if (shared.size === 0) process.once('beforeExit', () => void closeShared());
    pool = new WorkerPool(workers);
    shared.set(workers, pool);
  }
  return pool;
}

/**
 * Call at a test file's top level; the returned function gives the test process's shared pool (sharedPool). Two
 * workers, as the rounds' configs ask (`runDemoRound` sets `workers: 2`). Pass it as `runRound`'s, `runDemoRound`'s,
 * `runLoop`'s or `TestServer.start`'s `pool`. A file that must see a pool's whole life (its close, its workers'
 * exits) makes its own `new WorkerPool(n)` and closes it in `afterAll`.
 * @example const pool = filePool(); … await runRound(config, { choice: 'next', stages: STAGES, pool: pool() });
 */
export function filePool(workers = 2): () => WorkerPool {
  return () => sharedPool(workers);
}
