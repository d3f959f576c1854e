// `npm run bench -- --only divide`: the rules divider on real English, new against the frozen baseline
// (scripts/study/divide-baseline/, src/divide at 474dcd8), answers per second on one thread, in the same run.
// Rounds alternate old and new so that load from other jobs falls on both alike; the best round of each counts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { divideRules as divideNew } from '../../src/divide/rules.js';
import { divideRules as divideOld } from '../study/divide-baseline/rules.js';
import { checked, info, ROOT, round, type BenchOptions, type BenchResult, type Row } from './common.js';

type Divide = (answer: string, opts?: { question?: string }) => unknown;
interface Item { answer: string; question?: string }

function load(name: string): Item[] | null {
  const file = path.resolve(ROOT, '..', 'shared', 'real-claims', `${name}.jsonl`);
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => {
    const o = JSON.parse(l) as { answer: string; question?: string };
    return { answer: o.answer, ...(typeof o.question === 'string' ? { question: o.question } : {}) };
  });
}

// Answers per CPU second over repeated passes of `items` (at least `minCpu` seconds, so that 90 short answers are
// not timed in one tenth of a second): the process's CPU time, not the wall clock, so that other jobs on a shared
// machine slow both dividers' clocks but not their counts (GC helper threads are included, a small overestimate of
// the one-core cost, alike for both).
function pass(items: readonly Item[], divide: Divide, minCpu: number): number {
  const t0 = process.cpuUsage();
  let done = 0;
  let secs = 0;
  while (secs < minCpu) {
    for (const it of items) divide(it.answer, it.question === undefined ? undefined : { question: it.question });
    done += items.length;
    const used = process.cpuUsage(t0);
    secs = (used.user + used.system) / 1e6;
  }
  return done / secs;
}

/** New vs baseline divider, answers/s on the real VLM answers and the biographies. */
export async function benchDivide(opts: BenchOptions = {}): Promise<BenchResult> {
  const rounds = opts.quick ? 2 : 5;
  const minCpu = opts.quick ? 0.2 : 1;
  const rows: Row[] = [];
  for (const [name, label, target] of [['vlm-answers-dev', 'real VLM answers', true], ['text-bios-dev', 'biographies', false]] as const) {
    const items = load(name);
    if (items === null) {
      rows.push(info(`divide: ${label}`, 'n/a', '', `../shared/real-claims/${name}.jsonl not found`));
      continue;
    }
    pass(items, divideOld, minCpu); // warm both (JIT, wink's model load) before timing
    pass(items, divideNew, minCpu);
    let bestOld = 0;
    let bestNew = 0;
    for (let r = 0; r < rounds; r++) {
      bestOld = Math.max(bestOld, pass(items, divideOld, minCpu));
      bestNew = Math.max(bestNew, pass(items, divideNew, minCpu));
      opts.log?.(`divide ${label} round ${r + 1}: old ${Math.round(bestOld)}/s, new ${Math.round(bestNew)}/s`);
    }
    const note = `${items.length} answers, best of ${rounds} alternating rounds of >= ${minCpu} CPU s, one thread, CPU time`;
    rows.push(target
      ? checked(`divide new: ${label}`, Math.round(bestNew), 'answers/s', '>=', 1000, note)
      : info(`divide new: ${label}`, Math.round(bestNew), 'answers/s', note));
    rows.push(info(`divide baseline: ${label}`, Math.round(bestOld), 'answers/s', 'src/divide at 474dcd8'));
    rows.push(info(`divide new / baseline: ${label}`, round(bestNew / bestOld, 2), '×'));
  }
  return { rows };
}
