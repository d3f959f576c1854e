// How an idle worker of the pool waits for its next task, and what it costs per task (issue 30, the pool stall).
//
//   npx tsx scripts/bench/pool-atomics.ts [--reps N] [--divides N] [--labels N]
//
// piscina's default (`atomics: 'sync'`) parks an idle worker in Atomics.wait; `atomics: 'disabled'` lets it wait in
// its event loop for the next message. The same real tasks through the built worker entry (dist/), both modes in one
// run, alternating A/B per repetition, two lanes (one task at a time per worker, the pool's two workers busy):
//   divide: the rules divider on one short answer (the smallest task a round sends: most of its time is the round trip);
//   label: the tiny labeler on one image and one question.
// Also the event-loop utilisation an idle worker reports in each mode over 300 ms (what WorkerPool.close's stall line
// prints for a worker that did not exit). Prints mean ± sd over the repetitions per mode.
import path from 'node:path';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalLabeler, RulesDivider } from '../../src/backends/local/index.js';
import { ROOT } from './common.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REPS = arg('reps', 5);
const DIVIDES = arg('divides', 1000);
const LABELS = arg('labels', 100);
const LABELER = path.join(ROOT, 'models', 'shapes-labeler');
const image = (i: number) => path.join(ROOT, 'data', 'shapes', 'test', 'images', `test-${String(i).padStart(4, '0')}.png`);
type Mode = 'sync' | 'disabled';

async function once(mode: Mode): Promise<{ divideMs: number; labelMs: number; idleBusy: number }> {
  const pool = new WorkerPool(2, { atomics: mode });
  try {
    const d = new RulesDivider(pool, null);
    const l = new LocalLabeler(pool, LABELER, ' Please answer yes or no.');
    // Warm: both workers import the worker module and load the labeler.
    await Promise.all([0, 1, 2, 3].map((i) => l.label(image(i), ['Is there a red square?'])));
    await Promise.all([0, 1].map(() => d.divide([{ question: 'q', answer: 'A red square.' }])));
    const lanes = (n: number, f: (i: number) => Promise<unknown>) =>
      Promise.all([0, 1].map(async (lane) => { for (let i = lane; i < n; i += 2) await f(i); }));
    let t0 = performance.now();
    await lanes(DIVIDES, (i) => d.divide([{ question: 'q', answer: `A red square number ${i}. A blue circle.` }]));
    const divideMs = (performance.now() - t0) / DIVIDES;
    t0 = performance.now();
    await lanes(LABELS, (i) => l.label(image(i % 40), ['Is there a red square?']));
    const labelMs = (performance.now() - t0) / LABELS;
    await new Promise((r) => setTimeout(r, 50));
    const w = pool['pool'].threads[0]!;
    const e0 = w.performance.eventLoopUtilization();
    await new Promise((r) => setTimeout(r, 300));
    const idleBusy = w.performance.eventLoopUtilization(e0).utilization;
    return { divideMs, labelMs, idleBusy };
  } finally {
    await pool.close();
  }
}

const stats = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
  return { m, sd };
};
const out: Record<Mode, { divideMs: number; labelMs: number; idleBusy: number }[]> = { sync: [], disabled: [] };
for (let r = 0; r < REPS; r++) {
  for (const mode of (r % 2 ? ['disabled', 'sync'] : ['sync', 'disabled']) as Mode[]) out[mode].push(await once(mode));
}
const f = (x: { m: number; sd: number }, d = 2) => `${x.m.toFixed(d)} ± ${x.sd.toFixed(d)}`;
console.log(`pool-atomics: ${REPS} repetitions per mode, ${DIVIDES} divide and ${LABELS} label tasks each, two lanes`);
console.log('mode      divide ms/task   label ms/task   idle worker busy');
for (const mode of ['sync', 'disabled'] as Mode[]) {
  const rs = out[mode];
  console.log(`${mode.padEnd(9)} ${f(stats(rs.map((x) => x.divideMs))).padEnd(16)} ${f(stats(rs.map((x) => x.labelMs))).padEnd(15)} ${f(stats(rs.map((x) => x.idleBusy)))}`);
}
process.exit(0);
