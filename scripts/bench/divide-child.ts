// Child of the divide bench's "unseen" figure: one divider in a fresh process, warmed on other answers, then timed
// on one pass over one half of a set, which this process has never read: wink-nlp caches the words it has read and V8
// the patterns it has compiled, so a divider timed on answers it has already divided reads high for a server, which
// sees each answer once. The warm-up reads the other half and every other answer file given (other sets, the shapes
// world): with the other half alone, V8 has not yet seen the rules' rarer code paths, and the timed pass pays for
// re-optimising them (43 deoptimisations in one pass over 252 unseen biographies, 3 when they are repeated), a cost a
// long-running server pays once. Prints {answers, unseen, again} as JSON: answers per CPU second of the first pass over
// the timed half, and of a second pass over it (the same answers seen again), for comparison.
//
//   node --import tsx scripts/bench/divide-child.ts RULES_MODULE SET_FILE HALF WARM_CPU_SECONDS [WARM_FILE...]
//
// A WARM_FILE is JSONL ({"answer", "question"?} per line) or the shapes world fixture (JSON with items of
// {"answer", "instruction"}).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readAnswerFile } from './answer-file.js';

type Divide = (answer: string, opts?: { question?: string }) => unknown;

const [modulePath, setFile, halfArg, warmArg, ...warmFiles] = process.argv.slice(2);
if (!modulePath || !setFile || (halfArg !== '0' && halfArg !== '1') || !warmArg) {
  throw new Error('usage: divide-child.ts RULES_MODULE SET_FILE 0|1 WARM_CPU_SECONDS [WARM_FILE...]');
}


const items = readAnswerFile(setFile);
const mid = Math.ceil(items.length / 2);
const timed = halfArg === '0' ? items.slice(0, mid) : items.slice(mid);
const warm = [...(halfArg === '0' ? items.slice(mid) : items.slice(0, mid)), ...warmFiles.flatMap(readAnswerFile)];
const mod = (await import(pathToFileURL(path.resolve(modulePath)).href)) as { divideRules: Divide };
const divide = mod.divideRules;

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

// Warm the JIT and load wink's model on the warm answers only (whole passes, at least the given CPU time).
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
