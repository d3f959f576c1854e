// `npm run bench`: every benchmark of issue 6 in one run, one table of figures with their targets, and the machine.
//
//   tsx scripts/bench/index.ts [--quick | --full] [--only name,name] [--json FILE] [--no-build] [--list]
//
// Each figure is a ratio of two things measured in the same run on the same machine. Benches run one after another
// (never in parallel: they would measure each other). Child-process benches run the built CLI (dist/), so the
// sources are compiled first unless --no-build.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, machine, type BenchOptions, type BenchResult, type Row } from './common.js';

interface Bench {
  name: string;
  figure: string;
  run: (opts: BenchOptions) => Promise<BenchResult>;
}

/** The local-labeling bench lives in its own file (written separately); a missing file is reported, not fatal. */
async function localLabel(opts: BenchOptions): Promise<BenchResult> {
  const file = path.join(ROOT, 'scripts', 'bench', 'local-label.ts');
  if (!existsSync(file)) {
    return { rows: [{ name: 'local labeling', value: 'n/a', unit: '', met: null, note: 'scripts/bench/local-label.ts is not there yet' }] };
  }
  const mod = (await import(pathToFileURL(file).href)) as { benchLocalLabel?: (o?: BenchOptions) => Promise<BenchResult> };
  if (typeof mod.benchLocalLabel !== 'function') {
    return { rows: [{ name: 'local labeling', value: 'n/a', unit: '', met: null, note: 'local-label.ts exports no benchLocalLabel' }] };
  }
  return mod.benchLocalLabel(opts);
}

const BENCHES: Bench[] = [
  { name: 'local-label', figure: '1. local labeling', run: localLabel },
  { name: 'remote-label', figure: '2. remote labeling vs server capacity', run: async (o) => (await import('./remote-label.js')).benchRemoteLabel(o) },
  { name: 'label-cache', figure: '3. labeler calls per claim (cache)', run: async (o) => (await import('./label-cache.js')).benchLabelCache(o) },
  { name: 'round-time', figure: '4. demo round: time outside model calls, 1 vs 2 workers', run: async (o) => (await import('./round-time.js')).benchRoundTime(o) },
  { name: 'store', figure: '5. SQLite: claims/s through the store vs bare inserts', run: async (o) => (await import('./store.js')).benchStore(o) },
  { name: 'memory', figure: '6. peak RSS, 10k vs 1k prompts', run: async (o) => (await import('./memory.js')).benchMemory(o) },
  { name: 'parquet-read', figure: '7. peak RSS reading Parquet prompts, 100k vs 10k rows', run: async (o) => (await import('./parquet-read.js')).benchParquetRead(o) },
  { name: 'loop-round', figure: '8. a loop round: rlaifv\'s share vs the trainer\'s', run: async (o) => (await import('./loop-round.js')).benchLoopRound(o) },
  { name: 'divide', figure: '10. rules divider on real English: answers/s, new vs baseline', run: async (o) => (await import('./divide.js')).benchDivide(o) },
  { name: 'remote-fleet', figure: '9. one client against K served endpoints (C slots, L ms each)', run: async (o) => (await import('./remote-fleet.js')).benchRemoteFleet(o) },
  { name: 'online-point', figure: '11. an online budget point (GRPO against serve) vs a DPO loop round', run: async (o) => (await import('./online-point.js')).benchOnlinePoint(o) },
  { name: 'serve', figure: '10. rlaifv serve: concurrent OpenRLHF requests and batches vs the offline stages', run: async (o) => (await import('./serve.js')).benchServe(o) },
];

interface Args {
  quick: boolean;
  full: boolean;
  only: string[] | null;
  json: string | null;
  build: boolean;
  list: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { quick: false, full: false, only: null, json: null, build: true, list: false };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${x} needs a value`);
      return v;
    };
    if (x === '--quick') a.quick = true;
    else if (x === '--full') a.full = true;
    else if (x === '--only') a.only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (x.startsWith('--only=')) a.only = x.slice(7).split(',').map((s) => s.trim()).filter(Boolean);
    else if (x === '--json') a.json = value();
    else if (x.startsWith('--json=')) a.json = x.slice(7);
    else if (x === '--no-build') a.build = false;
    else if (x === '--list') a.list = true;
    else if (x === '--') continue;
    else throw new Error(`unknown argument ${x} (allowed: --quick, --full, --only a,b, --json FILE, --no-build, --list)`);
  }
  if (a.quick && a.full) throw new Error('--quick and --full exclude each other');
  const names = BENCHES.map((b) => b.name);
  for (const n of a.only ?? []) if (!names.includes(n)) throw new Error(`--only: unknown bench "${n}" (benches: ${names.join(', ')})`);
  return a;
}

function fmtValue(r: Row): string {
  if (typeof r.value === 'string') return r.value;
  const v = Math.abs(r.value) >= 1000 ? Math.round(r.value).toLocaleString('en-US') : String(r.value);
  return r.unit === '%' || r.unit === '×' || r.unit === 'x' ? `${v}${r.unit}` : r.unit ? `${v} ${r.unit}` : v;
}

function table(results: { bench: Bench; rows: Row[]; seconds: number; error?: string }[]): string {
  const lines: string[][] = [['figure', 'value', 'target', 'met?']];
  const notes: string[] = [];
  for (const res of results) {
    lines.push([`[${res.bench.figure}] (${res.seconds.toFixed(0)} s)`, '', '', '']);
    if (res.error) lines.push([`  ${res.bench.name}`, 'ERROR', '', '']);
    for (const r of res.rows) {
      const met = r.met === true ? 'yes' : r.met === false ? 'NO' : '';
      lines.push([`  ${r.name}`, fmtValue(r), r.target ?? '', met]);
      if (r.note) notes.push(`  ${r.name}: ${r.note}`);
    }
    if (res.error) notes.push(`  ${res.bench.name} failed: ${res.error}`);
  }
  const w = [0, 1, 2, 3].map((i) => Math.max(...lines.filter((l) => l[1] !== '' || i === 0).map((l) => l[i]!.length)));
  const out = lines.map((l) => (l[1] === '' && l[0] !== 'figure' ? l[0]! : l.map((c, i) => (i === 1 ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join('  ').trimEnd()));
  return out.join('\n') + (notes.length ? `\n\nnotes\n${notes.join('\n')}` : '');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.list) {
    for (const b of BENCHES) console.log(`${b.name.padEnd(14)}${b.figure}`);
    return;
  }
  const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);
  if (args.build) {
    log('building dist/ (tsc -p tsconfig.json)');
    const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
    const r = spawnSync(tsc, ['-p', path.join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('tsc failed; fix the build or pass --no-build');
  }
  const chosen = BENCHES.filter((b) => !args.only || args.only.includes(b.name));
  const started = new Date();
  const m0 = machine();
  const t0 = performance.now();
  const results: { bench: Bench; rows: Row[]; seconds: number; error?: string }[] = [];
  for (const b of chosen) {
    log(`${b.name}: ${b.figure}${args.quick ? ' (quick)' : ''}`);
    const t = performance.now();
    try {
      const r = await b.run({ quick: args.quick, full: args.full, log });
      results.push({ bench: b, rows: r.rows, seconds: (performance.now() - t) / 1000 });
    } catch (e) {
      const msg = (e as Error).stack ?? String(e);
      log(`${b.name} failed: ${msg}`);
      results.push({ bench: b, rows: [], seconds: (performance.now() - t) / 1000, error: (e as Error).message.split('\n')[0]! });
    }
  }
  const total = (performance.now() - t0) / 1000;
  const m1 = machine();
  const machineLine = `machine: ${m0.cpu}, ${m0.cores} cores, ${m0.ram_gb} GB RAM, node ${m0.node}, ${m0.platform}; load average ${m0.load_avg_1m} at start, ${m1.load_avg_1m} at end`;
  process.stdout.write(
    `\nrlaifv benchmarks${args.quick ? ' (quick sizes: not the figures of record)' : ''}, ${started.toISOString()}\n${machineLine}\n\n` +
      table(results) +
      `\n\ntotal ${total.toFixed(0)} s\n`,
  );
  if (args.json) {
    const out = {
      date: started.toISOString(),
      quick: args.quick,
      machine: { ...m0, load_avg_1m_end: m1.load_avg_1m },
      total_seconds: Math.round(total * 10) / 10,
      benches: results.map((r) => ({ name: r.bench.name, figure: r.bench.figure, seconds: Math.round(r.seconds * 10) / 10, rows: r.rows, ...(r.error ? { error: r.error } : {}) })),
    };
    writeFileSync(args.json, JSON.stringify(out, null, 2) + '\n');
    log(`wrote ${args.json}`);
  }
  if (results.some((r) => r.error)) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exit(2);
});
