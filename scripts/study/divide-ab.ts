// Two copies of the rules divider against each other on unseen answers, in one process (issue 29's speed work).
//
//   npx tsx scripts/study/divide-ab.ts A_RULES B_RULES [SET] [RUNS] [WARM_CPU_SECONDS]
//
// A_RULES and B_RULES are two rules.ts (or built rules.js) files at different paths, e.g. a copy of src/ from before a
// change (`git archive HEAD src | tar -x -C /tmp/before`, with node_modules linked beside it) and src/divide/rules.ts.
// SET is a file name in ../shared/real-claims without .jsonl (default text-bios-dev), RUNS the fresh processes
// (default 6, the halves of the set in turn), WARM the CPU seconds of warm-up (default 3).
//
// Why: the divide bench's "unseen" figure (scripts/bench/divide.ts) runs each divider in fresh processes, and on the 2
// shared cores here a pair of them reads the same code 0.96x (sd 0.16) apart: a few percent is lost in the noise.
// Here each process loads both copies (each its own module instance: own memos, own wink instance), warms both alike
// on the other half of the set and every other answer file, then divides each unseen answer of one half with both,
// the order alternating answer by answer, and sums each copy's CPU time. Load then falls on both alike: an unchanged
// copy against itself read 1.006x (sd 0.018) over 6 runs on the biographies. One caveat: wink's lexicon cache lives in
// its model, which both instances share, so whichever copy reads an answer first pays for its new words; the
// alternation splits that cost evenly. A 45-answer half of the VLM answers is too short for this (sd about 0.12).
// Prints each run's answers per CPU second of A and B and B/A, then the mean and sd of B/A.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readAnswerFile, type AnswerItem } from '../bench/answer-file.js';

type Divide = (answer: string, opts?: { question?: string }) => unknown;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = path.resolve(ROOT, '..', 'shared', 'real-claims');


// The other dev set, data/real-claims/*.jsonl and the shapes world's answers: what the bench's children warm on.
function warmFiles(file: string): string[] {
  const extra = path.join(ROOT, 'data', 'real-claims');
  return [
    ...['vlm-answers-dev', 'text-bios-dev'].map((n) => path.join(SHARED, `${n}.jsonl`)),
    ...(existsSync(extra) ? readdirSync(extra).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(extra, f)) : []),
    path.join(ROOT, 'tests', 'divide', 'fixtures', 'world-answers.json'),
  ].filter((f) => f !== file && existsSync(f));
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

// One fresh process: both copies warmed alike, then one half's answers divided by both in alternation.
async function child(aPath: string, bPath: string, set: string, half: 0 | 1, warmCpu: number): Promise<void> {
  const file = path.join(SHARED, `${set}.jsonl`);
  const items = readAnswerFile(file);
  const mid = Math.ceil(items.length / 2);
  const timed = half === 0 ? items.slice(0, mid) : items.slice(mid);
  const warm = [...(half === 0 ? items.slice(mid) : items.slice(0, mid)), ...warmFiles(file).flatMap(readAnswerFile)];
  const load = async (p: string): Promise<Divide> => ((await import(pathToFileURL(path.resolve(p)).href)) as { divideRules: Divide }).divideRules;
  const a = await load(aPath);
  const b = await load(bPath);
  const run = (d: Divide, it: AnswerItem): unknown => d(it.answer, it.question === undefined ? undefined : { question: it.question });
  const w0 = cpuMicros();
  let k = 0;
  do {
    for (const it of warm) {
      const [first, second] = k++ % 2 === 0 ? [a, b] : [b, a];
      run(first, it);
      run(second, it);
    }
  } while (cpuMicros() - w0 < warmCpu * 1e6);
  let ta = 0;
  let tb = 0;
  timed.forEach((it, j) => {
    for (const d of j % 2 === 0 ? [a, b] : [b, a]) {
      const t0 = cpuMicros();
      run(d, it);
      if (d === a) ta += cpuMicros() - t0;
      else tb += cpuMicros() - t0;
    }
  });
  process.stdout.write(`${JSON.stringify({ a: timed.length / (ta / 1e6), b: timed.length / (tb / 1e6) })}\n`);
}

function main(): void {
  const [aPath, bPath, set = 'text-bios-dev', runsArg = '6', warmArg = '3'] = process.argv.slice(2);
  if (!aPath || !bPath || path.resolve(aPath) === path.resolve(bPath)) {
    throw new Error('usage: divide-ab.ts A_RULES B_RULES [SET] [RUNS] [WARM_CPU_SECONDS] (two files at different paths)');
  }
  const script = fileURLToPath(import.meta.url);
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < Number(runsArg); r++) {
    const half = r % 2;
    const out = execFileSync(process.execPath, ['--single-threaded', '--import', 'tsx', script, 'child', aPath, bPath, set, String(half), warmArg],
      { cwd: ROOT, encoding: 'utf8' });
    const res = JSON.parse(out.trim().split('\n').pop()!) as { a: number; b: number };
    ratios.push(res.b / res.a);
    as.push(res.a);
    bs.push(res.b);
    console.log(`run ${r + 1} (half ${half}): A ${res.a.toFixed(0)}/s, B ${res.b.toFixed(0)}/s, B/A ${(res.b / res.a).toFixed(3)}`);
  }
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const m = mean(ratios);
  const sd = ratios.length < 2 ? 0 : Math.sqrt(ratios.reduce((s, x) => s + (x - m) ** 2, 0) / (ratios.length - 1));
  console.log(`${set}: A ${mean(as).toFixed(0)}/s, B ${mean(bs).toFixed(0)}/s, B/A ${m.toFixed(3)} (sd ${sd.toFixed(3)}), ${ratios.length} runs`);
}

if (process.argv[2] === 'child') {
  const [aPath, bPath, set, half, warm] = process.argv.slice(3);
  await child(aPath!, bPath!, set!, half === '1' ? 1 : 0, Number(warm));
} else {
  main();
}
