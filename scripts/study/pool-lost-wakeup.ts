// The worker-pool stall (issue 30), reproduced without rlaifv: a worker.terminate() that V8 loses for a thread parked
// in Atomics.wait, the way piscina's default `atomics: 'sync'` parks an idle worker.
//
//   npx tsx scripts/study/pool-lost-wakeup.ts [--tries N] [--size N]
//
// V8 (11.3, Node 20) wakes a thread blocked in Atomics.wait for a termination through StackGuard::RequestInterrupt,
// which calls the futex node's NotifyWake. While a PostponeInterruptsScope is open (RegExp compilation, optimizing
// compiles, script compiles) RequestInterrupt only records the flag and returns without NotifyWake; the scope's end puts
// TERMINATE back but never notifies the futex, and FutexEmulation::WaitSync checks only the node's own interrupted flag
// before it sleeps. A terminate that lands in such a scope just before Atomics.wait is lost: the thread sleeps on,
// TERMINATE pending, until something notifies the futex. (Found by reading deps/v8/src/execution/stack-guard.cc and
// futex-emulation.cc of Node 20; see docs/testing.md, "The pool stall: found".)
//
// Each try starts a worker that compiles a large RegExp and then waits for its next task, and terminates it 0-15 ms
// into the compile. Two arms, alternating:
//   atomics: then parks in Atomics.wait (piscina `atomics: 'sync'`, its default);
//   message: then returns to its event loop and waits for a message (piscina `atomics: 'disabled'`, rlaifv's pool).
// A worker whose 'exit' has not come 3 s after terminate() counts as stuck; it is then woken by Atomics.notify, and the
// time its 'exit' took after that is printed (a parked worker exits within milliseconds: the TERMINATE was pending).
import { Worker } from 'node:worker_threads';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TRIES = arg('tries', 20);
const SIZE = arg('size', 100_000);

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const i32 = new Int32Array(workerData.sab);
parentPort.once('message', (pattern) => {
  parentPort.postMessage('compiling');
  const r = new RegExp(pattern);
  if (workerData.arm === 'atomics') Atomics.wait(i32, 0, 0);
  else parentPort.once('message', () => {});
  return r;
});
parentPort.postMessage('ready');
`;

type Arm = 'atomics' | 'message';

async function attempt(arm: Arm, i: number): Promise<{ stuck: boolean; afterNotifyMs: number | null }> {
  const sab = new SharedArrayBuffer(4);
  const w = new Worker(CODE, { eval: true, workerData: { sab, arm } });
  const next = () => new Promise((r) => w.once('message', r));
  await next();
  w.postMessage(`(?:x${i}${Math.random().toString(36).slice(2)}|${'ab|'.repeat(SIZE)}c)`);
  await next();
  const delay = Math.random() * 15;
  const until = performance.now() + delay;
  while (performance.now() < until);
  const exited = new Promise<void>((r) => w.once('exit', () => r()));
  void w.terminate();
  let timer: NodeJS.Timeout | undefined;
  const ok = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 3000)))]);
  clearTimeout(timer);
  if (ok) return { stuck: false, afterNotifyMs: null };
  const t0 = performance.now();
  Atomics.notify(new Int32Array(sab), 0);
  await exited;
  return { stuck: true, afterNotifyMs: performance.now() - t0 };
}

const result: Record<Arm, { stuck: number; notifyMs: number[] }> = { atomics: { stuck: 0, notifyMs: [] }, message: { stuck: 0, notifyMs: [] } };
for (let i = 0; i < TRIES; i++) {
  for (const arm of (i % 2 ? ['message', 'atomics'] : ['atomics', 'message']) as Arm[]) {
    const r = await attempt(arm, i);
    if (r.stuck) {
      result[arm].stuck++;
      result[arm].notifyMs.push(r.afterNotifyMs!);
    }
  }
}
console.log(`node ${process.version}, V8 ${process.versions.v8}: ${TRIES} terminates per arm, 0-15 ms into a RegExp compile`);
for (const arm of ['atomics', 'message'] as Arm[]) {
  const r = result[arm];
  const ms = r.notifyMs.length ? `; each exited ${Math.round(Math.min(...r.notifyMs))}-${Math.round(Math.max(...r.notifyMs))} ms after Atomics.notify` : '';
  console.log(`${arm.padEnd(8)} then wait: ${r.stuck} of ${TRIES} workers did not exit within 3 s${ms}`);
}
