// One worker pool for a test file's in-process rounds and test servers, instead of one per round: each new pool's
// workers import transformers.js, onnxruntime and the divider's language model and load the tiny models again, about
// 1.3 s of CPU per pool (three 6-prompt rounds: 7.8 s with a pool each, 4.0 s in one; docs/testing.md).
import { afterAll } from 'vitest';
import { WorkerPool } from '../../src/backends/local/pool.js';

/**
 * Call at a test file's top level (it registers the `afterAll` that closes the pool); the returned function makes the
 * pool on first use and returns the same one after. Two workers, as the rounds' configs ask (`runDemoRound` sets
 * `workers: 2`). Pass it as `runRound`'s, `runDemoRound`'s, `runLoop`'s or `TestServer.start`'s `pool`.
 * @example const pool = filePool(); … await runRound(config, { choice: 'next', stages: STAGES, pool: pool() });
 */
export function filePool(workers = 2): () => WorkerPool {
  let pool: WorkerPool | undefined;
  afterAll(async () => {
    await pool?.close();
    pool = undefined;
  });
  return () => (pool ??= new WorkerPool(workers));
}
