// The worker-thread pool shared by the local generator, labeler and divider of a run.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { WorkerTask } from './local.worker.js';
import { folderStamp } from '../../util/checkpoint.js';
import { exitLines, markClosing, reportClose, traceData, type WorkerExit } from './pool-trace.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// Workers always run the compiled JavaScript, also when the caller runs from TypeScript sources (tests). Their entry is
// a CommonJS file that imports the ES-module worker (worker-entry.cts says why).
const WORKER = path.resolve(here, '..', '..', '..', 'dist', 'backends', 'local', 'worker-entry.cjs');

/** Sizing of the pool: workers × onnxruntime threads per worker stays within the cores. */
export interface PoolSize {
  workers: number;
  threadsPerWorker: number;
}

/** Chooses the pool size: `workers` defaults to the core count, threads per worker = cores / workers (at least 1). */
export function poolSize(workers: number | null | undefined): PoolSize {
  const cores = os.availableParallelism();
  const w = Math.max(1, workers ?? cores);
  return { workers: w, threadsPerWorker: Math.max(1, Math.floor(cores / w)) };
}

/** How long closing the pool waits for its workers to exit before leaving them (see WorkerPool.close). */
const CLOSE_TIMEOUT_MS = 2_000;
/** After CLOSE_TIMEOUT_MS, how long the exits that came in time may take to be seen (see WorkerPool.close). */
const LATE_EXITS_MS = 100;
/** How long closing the pool waits for running tasks to end before terminating their workers anyway. */
const TASK_WAIT_MS = 60_000;
const noop = (): void => {};

/** Whether `ms` pass before `p` settles (true) or not (false: `p`'s own value, which is false). */
async function deadline(p: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A pool of worker threads, each loading its models once. One pool may serve many rounds (`rlaifv loop` keeps one for
 * all its rounds and evaluations): a backend leases its model folder while it lives (retain), and every task carries
 * the leased folders, so a worker drops a model it loaded under a lease once no lease names it any more (a loop's old
 * checkpoints), and reloads one whose folder was written again. A model used without a lease stays for the thread's
 * life, as before leases existed.
 */
export class WorkerPool {
  /** Made at the first task: a command that finds nothing to do (a rerun, a refused input) starts no thread. */
  private piscina: Piscina | null = null;
  /** Set by the first close(): later calls share it, and no task is taken after it. */
  private closing: Promise<void> | null = null;
  private readonly atomics: 'sync' | 'disabled';
  readonly size: PoolSize;
  /** Leased model folders: how many leases each has, and the folder's stamp when it was last leased. */
  private readonly leases = new Map<string, { count: number; stamp: string }>();
  /** Tasks sent and not yet settled (queued or running), so that close can let the running ones end first. */
  private readonly tasks = new Set<Promise<void>>();
  /** Each worker's last state, readable while a worker is stuck (pool-trace.ts). */
  private readonly trace = traceData();

  /**
   * `atomics` is how an idle worker waits for its next task (scripts/bench/pool-atomics.ts compares the two): in its
   * event loop for a message (`disabled`, the default), or parked in Atomics.wait (`sync`, piscina's default).
   */
  constructor(workers: number | null | undefined, opts: { atomics?: 'sync' | 'disabled' } = {}) {
    if (!existsSync(WORKER)) {
      throw new Error(`Worker script ${WORKER} is missing: run \`npm run build\` first.`);
    }
    this.size = poolSize(workers);
    this.atomics = opts.atomics ?? 'disabled';
  }

  /** The piscina pool, made (with all its threads) on first use. */
  private get pool(): Piscina {
    this.piscina ??= new Piscina({
      filename: WORKER,
      minThreads: this.size.workers,
      maxThreads: this.size.workers,
      // Queue depth: enough to keep every worker busy without holding the whole round in memory.
      maxQueue: this.size.workers * 64,
      idleTimeout: 60_000,
      atomics: this.atomics,
      workerData: { trace: this.trace },
    });
    return this.piscina;
  }

  /** Whether the pool's threads were started (by its first task). */
  get started(): boolean {
    return this.piscina !== null;
  }

  /** Runs one task on a worker. */
  run<T>(task: WorkerTask): Promise<T> {
    // As piscina refuses a task once its pool is closing (and a closed pool is never made again).
    if (this.closing) return Promise.reject(new Error('the worker pool is closing'));
    // Sent also when empty: a worker then drops what it loaded under leases that have all ended.
    const live = Object.fromEntries([...this.leases].map(([dir, l]) => [dir, l.stamp]));
    const p = this.pool.run({ ...task, live }) as Promise<T>;
    const settled = p.then(noop, noop);
    this.tasks.add(settled);
    void settled.then(() => this.tasks.delete(settled));
    return p;
  }

  /**
   * Leases a model folder for as long as a backend uses it; the returned function ends the lease (once).
   * @example const release = pool.retain('models/shapes-policy'); … ; release()
   */
  retain(dir: string): () => void {
    const stamp = folderStamp(dir);
    const l = this.leases.get(dir);
    this.leases.set(dir, { count: (l?.count ?? 0) + 1, stamp });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const now = this.leases.get(dir);
      if (!now) return;
      if (now.count <= 1) this.leases.delete(dir);
      else now.count--;
    };
  }

  /** Model folders leased now (tests and memory checks). */
  leased(): string[] {
    return [...this.leases.keys()];
  }

  /**
   * Stops every worker, never in the middle of a task: tasks not started yet are refused (each worker reads the
   * pool's closing flag before a task), running ones end, then every worker is terminated while it waits for work.
   * Terminating a worker mid-task could abort the whole process: on a cold disk cache, workers stopped while they
   * imported the onnxruntime binding or ran the labeler ended it with "terminate called after throwing an instance
   * of 'Napi::Error'" (docs/testing.md, "The pool stall"). The workers' exits are bounded: after CLOSE_TIMEOUT_MS the
   * threads are unref'd and left to end with the process, with a line on stderr and one per worker saying what it was
   * doing, so a run goes on instead of hanging at the end of a round. A task still running after TASK_WAIT_MS is
   * stopped with its worker (and a line says so).
   */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    const piscina = this.piscina;
    // Never used: no thread was started, so there is nothing to stop.
    if (!piscina) return;
    const closeAt = Date.now() - this.trace.start;
    // Listened to before destroy() (which listens too), so every worker's exit time is known.
    const exits = piscina.threads.map((w) => {
      const e: WorkerExit & { worker: typeof w; elu: ReturnType<typeof w.performance.eventLoopUtilization> } = {
        id: w.threadId, exitMs: null, busy: null, teardown: null, worker: w, elu: w.performance.eventLoopUtilization(),
      };
      w.once('exit', () => (e.exitMs = performance.now()));
      return e;
    });
    await this.endTasks();
    // Exit times count from here, when the workers are told to stop.
    const t0 = performance.now();
    const destroyed = piscina.destroy().then(() => false);
    let timedOut = await deadline(destroyed, CLOSE_TIMEOUT_MS);
    // The deadline and the workers' exits both reach this thread through its event loop, and libuv runs due timers
    // before it polls: a thread blocked past the deadline (a long synchronous step, a long GC) meets the deadline first,
    // though every exit came in time. One more turn of the loop lets those exits in, so only a real stall is reported.
    if (timedOut) timedOut = await deadline(destroyed, LATE_EXITS_MS);
    for (const e of exits) {
      if (e.exitMs !== null) e.exitMs = Math.max(0, e.exitMs - t0);
      if (e.exitMs === null) {
        // A stuck worker's event loop: busy (in JavaScript, or blocked outside its loop) or idle (its loop waiting). A
        // negative idle time means its thread left JavaScript and is tearing down (Node's Worker::LoopIdleTime is -1 then).
        const u = e.worker.performance.eventLoopUtilization(e.elu);
        e.busy = u.utilization;
        e.teardown = u.idle < 0;
      }
    }
    const lines = exitLines(this.trace, closeAt, exits);
    if (timedOut) {
      for (const t of piscina.threads) {
        t.unref();
        void t.terminate().catch(() => {});
      }
      lines.unshift(`rlaifv: the worker pool did not stop within ${CLOSE_TIMEOUT_MS / 1000} s; its threads were left to end with the process.\n`);
    }
    reportClose(lines, timedOut);
  }

  /**
   * Lets the running tasks end and refuses the others. Not piscina's close({ force: true }): it can count a worker done
   * twice and terminate another mid-task (seen: a label task ended with "Terminating worker thread").
   */
  private async endTasks(): Promise<void> {
    markClosing(this.trace);
    const running = this.tasks.size;
    let wait: NodeJS.Timeout | undefined;
    const stuck = await Promise.race([
      Promise.allSettled([...this.tasks]).then(() => false),
      new Promise<boolean>((resolve) => (wait = setTimeout(() => resolve(true), TASK_WAIT_MS))),
    ]);
    clearTimeout(wait);
    // A task that runs on and on is stopped with its worker after all (a run ends rather than hangs).
    if (stuck) process.stderr.write(`rlaifv: ${this.tasks.size} of ${running} tasks were still running ${TASK_WAIT_MS / 1000} s after the worker pool began to close; their workers are terminated.\n`);
  }
}
