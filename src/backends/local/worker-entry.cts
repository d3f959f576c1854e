// The file piscina loads in each worker thread. piscina loads its worker file with require() first and falls back to
// import(); on Node 20 with require(esm), a require() of the ES-module worker that meets a graph another import() is
// still loading aborts the whole process (V8: "IsGraphAsync must be used on an instantiated module"; seen as a test
// worker killed mid-run). This CommonJS entry is what require() loads, and it reaches the real worker (local.worker.js)
// only through import(), once per thread, so no require(esm) ever happens.
import { threadId, workerData } from 'node:worker_threads';

// The thread's state in the pool's shared memory (layout in pool-trace.ts), so the main thread can tell what a worker
// that does not exit was doing.
const trace = (workerData as { trace?: { buffer: SharedArrayBuffer; slotBytes: number; headerBytes: number; slots: number; start: number } } | undefined)?.trace;
const slot = trace ? Atomics.add(new Int32Array(trace.buffer, 0, 1), 0, 1) : -1;

function mark(state: string): void {
  if (!trace || slot < 0 || slot >= trace.slots) return;
  const at = trace.headerBytes + slot * trace.slotBytes;
  const text = Buffer.from(state, 'latin1').subarray(0, trace.slotBytes - 12);
  new Uint8Array(trace.buffer, at + 12, text.length).set(text);
  new Int32Array(trace.buffer, at, 3).set([threadId, Date.now() - trace.start, text.length]);
}

// Started: piscina required this entry; the worker module is imported at the first task.
mark('started');
const load = () =>
  (mark('import'), import('./local.worker.js')).then(
    (m) => (mark('idle'), m.default),
    (e: unknown) => (mark('import failed'), Promise.reject(e)),
  );
let worker: ReturnType<typeof load> | undefined;

function run(task: Parameters<Awaited<ReturnType<typeof load>>>[0]): Promise<unknown> {
  // The pool is closing (pool-trace.ts): a queued task ends here, so that close waits for running tasks only.
  if (trace && Atomics.load(new Int32Array(trace.buffer, 0, 2), 1) === 1) return Promise.reject(new Error('the worker pool is closing'));
  worker ??= load();
  return worker.then((f) => {
    mark(task.kind);
    return f(task).finally(() => mark('idle'));
  });
}

export = run;
