// Child of the divide bench's "unseen" figure: one divider in a fresh process, warmed on one half of a set, then timed
// on one pass over the other half, which this process has never read: wink-nlp caches the words it has read and V8
// the patterns it has compiled, so a divider timed on answers it has already divided reads high for a server, which
// sees each answer once. Prints {answers, unseen, again} as JSON: answers per CPU second of the first pass over the
// timed half, and of a second pass over it (the same answers seen again), for comparison.
//
//   node --import tsx scripts/bench/divide-child.ts RULES_MODULE SET_FILE HALF WARM_CPU_SECONDS
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Divide = (answer: string, opts?: { question?: string }) => unknown;
interface Item { answer: string; question?: string }

const [modulePath, setFile, halfArg, warmArg] = process.argv.slice(2);
if (!modulePath || !setFile || (halfArg !== '0' && halfArg !== '1') || !warmArg) {
  throw new Error('usage: divide-child.ts RULES_MODULE SET_FILE 0|1 WARM_CPU_SECONDS');
}
const items: Item[] = readFileSync(setFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => {
  const o = JSON.parse(l) as { answer: string; question?: string };
  return { answer: o.answer, ...(typeof o.question === 'string' ? { question: o.question } : {}) };
});
const mid = Math.ceil(items.length / 2);
const timed = halfArg === '0' ? items.slice(0, mid) : items.slice(mid);
const warm = halfArg === '0' ? items.slice(mid) : items.slice(0, mid);
const mod = (await import(pathToFileURL(path.resolve(modulePath)).href)) as { divideRules: Divide };
const divide = mod.divideRules;

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

// Warm the JIT and load wink's model on the other half only (repeated passes, at least the given CPU time).
const warmCpu = Number(warmArg);
const w0 = cpu();
do for (const it of warm) divide(it.answer, it.question === undefined ? undefined : { question: it.question });
while (cpu() - w0 < warmCpu);

function once(): number {
  const t0 = cpu();
  for (const it of timed) divide(it.answer, it.question === undefined ? undefined : { question: it.question });
  return timed.length / (cpu() - t0);
}
const unseen = once();
const again = once();
process.stdout.write(`${JSON.stringify({ answers: timed.length, unseen, again })}\n`);
