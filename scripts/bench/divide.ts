// `npm run bench -- --only divide`: the rules divider on real English, new against the frozen baseline
// (scripts/study/divide-baseline/, src/divide at 474dcd8), answers per second on one thread, in the same run.
// Two figures per set:
// - repeated: one process divides the same answers again and again; rounds alternate old and new so that load from
//   other jobs falls on both alike; the best round of each counts. This reads high: wink-nlp caches the words it has
//   read and V8 the patterns it has compiled, and here every answer has been read before.
// - unseen (issue 29's target is read on this one): what a server sees, each answer divided once. Each divider runs in
//   fresh child processes (divide-child.ts, V8 with --single-threaded so the CPU time is one core's), warmed on the
//   other half of the set and on every other answer file (the other set, data/real-claims, the shapes world), and
//   timed on one pass over one half; both halves in turn, old and new alternating, in several rounds. A round's rate is the whole set's answers over the CPU time of its two timed halves; the mean and
//   the standard deviation over rounds are shown, and the new/old ratio is the mean of the rounds' ratios.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { divideRules as divideNew } from '../../src/divide/rules.js';
import { divideRules as divideOld } from '../study/divide-baseline/rules.js';
import { checked, info, jsonChild, ROOT, round, type BenchOptions, type BenchResult, type Row } from './common.js';

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

const NEW_RULES = path.join(ROOT, 'src', 'divide', 'rules.ts');
const OLD_RULES = path.join(ROOT, 'scripts', 'study', 'divide-baseline', 'rules.ts');

interface ChildRun { answers: number; unseen: number; again: number }

// Every answer file but `file`: the other dev set, data/real-claims/*.jsonl and the shapes world's answers.
function warmFiles(file: string): string[] {
  const shared = path.resolve(ROOT, '..', 'shared', 'real-claims');
  const extra = path.join(ROOT, 'data', 'real-claims');
  const all = [
    ...['vlm-answers-dev', 'text-bios-dev'].map((n) => path.join(shared, `${n}.jsonl`)),
    ...(existsSync(extra) ? readdirSync(extra).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(extra, f)) : []),
    path.join(ROOT, 'tests', 'divide', 'fixtures', 'world-answers.json'),
  ];
  return all.filter((f) => f !== file && existsSync(f));
}

// One fresh process: `rules` warmed on the other half of `file` and the other answer files, timed once on `half`.
function child(rules: string, file: string, half: 0 | 1, warmCpu: number): Promise<ChildRun> {
  const script = path.join(ROOT, 'scripts', 'bench', 'divide-child.ts');
  return jsonChild<ChildRun>('divide', ['--single-threaded', '--import', 'tsx'], script, [rules, file, String(half), String(warmCpu), ...warmFiles(file)]);
}

function meanSd(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  return [mean, sd];
}

/** Unseen answers/s of the new and the old divider over `rounds` rounds (each half of the set timed once per round). */
async function unseen(file: string, rounds: number, warmCpu: number, log?: (msg: string) => void): Promise<{ old: number[]; new: number[] }> {
  const rates = { old: [] as number[], new: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const secs = { old: 0, new: 0 };
    let answers = 0;
    for (const half of [0, 1] as const) {
      // Alternate which goes first, so a change of load falls on both alike.
      const order = (r + half) % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
      for (const which of order) {
        const run = await child(which === 'old' ? OLD_RULES : NEW_RULES, file, half, warmCpu);
        secs[which] += run.answers / run.unseen;
        if (which === 'new') answers += run.answers;
      }
    }
    rates.old.push(answers / secs.old);
    rates.new.push(answers / secs.new);
    log?.(`divide unseen ${path.basename(file)} round ${r + 1}: old ${Math.round(answers / secs.old)}/s, new ${Math.round(answers / secs.new)}/s`);
  }
  return rates;
}

/** New vs baseline divider, answers/s on the real VLM answers and the biographies. */
export async function benchDivide(opts: BenchOptions = {}): Promise<BenchResult> {
  const rounds = opts.quick ? 2 : 5;
  const minCpu = opts.quick ? 0.2 : 1;
  const unseenRounds = opts.quick ? 1 : 4;
  // Warm-up CPU seconds before the timed unseen pass. 2 s is not yet V8's steady state: one run of the new divider's
  // child on the VLM answers (2 rounds, both halves) read 739/778 unseen answers/s after 2 s, 1,743/1,794 after 4 s,
  // 1,589/1,164 after 6 s and 1,546/1,593 after 10 s (docs/divide.md, the eighteenth pass's speed). A server divides
  // for far longer than that, so the full bench warms for 6 s; --quick stays a smoke run.
  const warmCpu = opts.quick ? 0.5 : 6;
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
      ? checked(`divide new, repeated: ${label}`, Math.round(bestNew), 'answers/s', '>=', 1000, note)
      : info(`divide new, repeated: ${label}`, Math.round(bestNew), 'answers/s', note));
    rows.push(info(`divide baseline, repeated: ${label}`, Math.round(bestOld), 'answers/s', 'src/divide at 474dcd8'));
    rows.push(info(`divide new / baseline, repeated: ${label}`, round(bestNew / bestOld, 2), '×'));
    const file = path.resolve(ROOT, '..', 'shared', 'real-claims', `${name}.jsonl`);
    const u = await unseen(file, unseenRounds, warmCpu, opts.log);
    const [newMean, newSd] = meanSd(u.new);
    const [oldMean, oldSd] = meanSd(u.old);
    const [ratioMean, ratioSd] = meanSd(u.new.map((x, k) => x / u.old[k]!));
    const unote = `each answer divided once: ${unseenRounds} rounds of fresh processes, each warmed on the other half and the other answer files (${warmCpu} CPU s), timed on one half; mean, sd ${Math.round(newSd)}`;
    rows.push(checked(`divide new, unseen: ${label}`, Math.round(newMean), 'answers/s', '>=', 1000, unote));
    rows.push(info(`divide baseline, unseen: ${label}`, Math.round(oldMean), 'answers/s', `mean, sd ${Math.round(oldSd)}`));
    rows.push(info(`divide new / baseline, unseen: ${label}`, round(ratioMean, 2), '×', `mean of the rounds' ratios, sd ${round(ratioSd, 2)}`));
  }
  return { rows };
}
