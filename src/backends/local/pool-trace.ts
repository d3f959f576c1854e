// What each worker thread of a pool is doing, kept in memory the main thread can read even while a worker is stuck
// (a worker that does not exit cannot be asked). Each thread claims a slot and writes its state there: "started" (piscina
// loaded the entry), "import" while it imports the worker module at its first task, "idle", or the kind of the task it
// runs; a thread with no slot never reached the entry. WorkerPool.close reports it for every worker that did not exit
// in time, and for every worker with RLAIFV_DEBUG_POOL set (reportClose).
//
// Layout (worker-entry.cts writes it): an Int32 slot counter, an Int32 "closing" flag (set by the pool, read by each
// worker before a task), then SLOTS slots of SLOT_BYTES each: Int32 thread id,
// Int32 milliseconds since the pool's start when the state was written, Int32 length of the state's text, then its text.
import { appendFileSync } from 'node:fs';

/** Slots per pool: more threads than a pool ever starts (piscina replaces a worker that died, so a few spare). */
const SLOTS = 64;
const SLOT_BYTES = 64;
const HEADER_BYTES = 8;

/** What the workers get (piscina's workerData): the shared memory and the pool's start time. */
export interface TraceData {
  buffer: SharedArrayBuffer;
  slotBytes: number;
  headerBytes: number;
  slots: number;
  start: number;
}

/** A worker's last state as it wrote it. */
export interface WorkerState {
  state: string;
  /** When the state was written, in milliseconds since the pool's start. */
  at: number;
}

/** Fresh shared memory for a pool's workers. */
export function traceData(): TraceData {
  return {
    buffer: new SharedArrayBuffer(HEADER_BYTES + SLOTS * SLOT_BYTES),
    slotBytes: SLOT_BYTES,
    headerBytes: HEADER_BYTES,
    slots: SLOTS,
    start: Date.now(),
  };
}

/** Tells the workers their pool is closing: a task that has not started yet is refused at once instead of run. */
export function markClosing(t: TraceData): void {
  Atomics.store(new Int32Array(t.buffer, 0, 2), 1, 1);
}

/** Every worker's last state, by thread id. */
export function readTrace(t: TraceData): Map<number, WorkerState> {
  const out = new Map<number, WorkerState>();
  const used = Math.min(Atomics.load(new Int32Array(t.buffer, 0, 1), 0), t.slots);
  for (let i = 0; i < used; i++) {
    const at = t.headerBytes + i * t.slotBytes;
    const [id, ms, len] = new Int32Array(t.buffer, at, 3);
    const text = Buffer.from(new Uint8Array(t.buffer, at + 12, len!)).toString('latin1');
    out.set(id!, { state: text, at: ms! });
  }
  return out;
}

/**
 * Writes a close's lines: on a stall always to stderr; with RLAIFV_DEBUG_POOL=1 every close's to stderr, with
 * RLAIFV_DEBUG_POOL=FILE appended to FILE (with the process id), so the pools of child processes that inherit it (a
 * test's CLI runs, whose stderr the test keeps) are counted in one place.
 */
export function reportClose(lines: string[], stalled: boolean): void {
  const dest = process.env.RLAIFV_DEBUG_POOL;
  if (dest && dest !== '1') appendFileSync(dest, lines.map((l) => `${process.pid} ${l}`).join(''));
  if (stalled || dest === '1') for (const l of lines) process.stderr.write(l);
}

/** One worker at a pool's close: its thread id, when its 'exit' came (ms after it was told to stop; null: not yet), the
 * share of the wait its event loop was busy, and whether its thread had left JavaScript for its teardown (both null
 * when not measured: a worker that exited). */
export interface WorkerExit {
  id: number;
  exitMs: number | null;
  busy: number | null;
  teardown: boolean | null;
}

/**
 * One stderr line per worker: how long its exit took after the close began and what it was doing, e.g.
 * `rlaifv pool: worker 12 exited after 35 ms; last state "idle", 1204 ms before the close`.
 */
export function exitLines(t: TraceData, closeAt: number, exits: WorkerExit[]): string[] {
  const states = readTrace(t);
  return exits.map(({ id, exitMs, busy, teardown }) => {
    const s = states.get(id);
    const age = s ? closeAt - s.at : 0;
    const when = age >= 0 ? `${age} ms before the close` : `${-age} ms after the close began`;
    const what = s ? `last state "${s.state}", ${when}` : 'never reached the worker entry';
    const loop = teardown ? '; its thread had left JavaScript and was tearing down'
      : busy === null ? '' : `; its event loop busy ${Math.round(busy * 100)}% of the wait`;
    const exit = exitMs === null ? 'did not exit' : `exited after ${Math.round(exitMs)} ms`;
    return `rlaifv pool: worker ${id} ${exit}; ${what}${loop}\n`;
  });
}
