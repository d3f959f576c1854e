// Shared helpers of the benchmarks: result rows, temp folders, the built CLI as a child process, machine facts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built CLI every child-process bench runs. */
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
/** The demo prompts. */
export const DEV_PROMPTS = path.join(ROOT, 'data', 'shapes', 'dev', 'prompts.jsonl');

/** One printed figure. `target` is shown as written ("≥ 95%"); `met` is null when there is no target. */
export interface Row {
  name: string;
  value: number | string;
  unit: string;
  target?: string;
  met?: boolean | null;
  note?: string;
}

/** What every bench returns. */
export interface BenchResult {
  rows: Row[];
}

/** Options every bench takes. */
export interface BenchOptions {
  /** Smaller sizes, to check the harness. */
  quick?: boolean;
  /** The studies' sizes, where a bench has them (online-point: the full budget point of docs/studies/online.md). */
  full?: boolean;
  /** Progress lines (stderr). */
  log?: (msg: string) => void;
}

/**
 * Runs `node <nodeArgs> <script> <args>` from the repository root and resolves with the JSON its stdout printed; a
 * non-zero exit rejects with the end of its stderr, named by `name`. For a bench whose measurement needs a fresh
 * process.
 */
export function jsonChild<T>(name: string, nodeArgs: string[], script: string, args: string[]): Promise<T> {
  const proc = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${name} child exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** A row with a target checked: `cmp` '>=' or '<='. */
export function checked(name: string, value: number, unit: string, cmp: '>=' | '<=', bound: number, note?: string): Row {
  const shown = unit === '%' || unit === '×' ? `${bound}${unit}` : `${bound}${unit ? ' ' + unit : ''}`;
  const met = Number.isFinite(value) ? (cmp === '>=' ? value >= bound : value <= bound) : false;
  return { name, value, unit, target: `${cmp === '>=' ? '≥' : '≤'} ${shown}`, met, ...(note ? { note } : {}) };
}

/** An informational row (no target). */
export function info(name: string, value: number | string, unit: string, note?: string): Row {
  return { name, value, unit, met: null, ...(note ? { note } : {}) };
}

/** Rounds for display. */
export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A fresh temp folder, removed by `cleanup()`. */
export function tempDir(tag: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `rlaifv-bench-${tag}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a config JSON file and returns its path. */
export function writeConfig(dir: string, name: string, config: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** What a child run of the CLI did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the child, seconds. */
  seconds: number;
  /** Peak resident set size of the child, bytes (when measured). */
  maxRssBytes: number | null;
  /** How the peak was measured. */
  rssSource: string | null;
}

const TIME_BIN = '/usr/bin/time';

/**
 * Runs `node dist/cli/main.js ...args` and waits for it. With `measureRss`, the child's peak RSS comes from
 * `/usr/bin/time -v` (the kernel's maxrss of the process, worker threads included) or, without it, from polling
 * /proc/PID/status VmHWM every 50 ms.
 */
export async function runCli(args: string[], opts: { measureRss?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const useTime = !!opts.measureRss && existsSync(TIME_BIN);
  const cmd = useTime ? TIME_BIN : process.execPath;
  const argv = useTime ? ['-v', process.execPath, CLI, ...args] : [CLI, ...args];
  const t0 = performance.now();
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let hwm = 0;
  let poll: NodeJS.Timeout | null = null;
  if (opts.measureRss && !useTime) {
    poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Number(m[1]) * 1024);
      } catch {
        /* exited */
      }
    }, 50);
  }
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  if (poll) clearInterval(poll);
  const seconds = (performance.now() - t0) / 1000;
  let maxRssBytes: number | null = null;
  let rssSource: string | null = null;
  if (useTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    if (m) {
      maxRssBytes = Number(m[1]) * 1024;
      rssSource = '/usr/bin/time -v';
    }
    stderr = stderr.replace(/\tCommand being timed:[\s\S]*$/, '');
  } else if (opts.measureRss) {
    maxRssBytes = hwm || null;
    rssSource = 'VmHWM polled every 50 ms';
  }
  return { code, stdout, stderr, seconds, maxRssBytes, rssSource };
}

/** Runs the CLI and throws with its stderr unless it exits 0. */
export async function runCliOk(args: string[], opts: { measureRss?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const r = await runCli(args, opts);
  if (r.code !== 0) {
    throw new Error(`rlaifv ${args.join(' ')} exited ${r.code}:\n${(r.stderr || r.stdout).trim().slice(-2000)}`);
  }
  return r;
}

/** The machine the figures were taken on. */
export function machine(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    ram_gb: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    load_avg_1m: round(os.loadavg()[0] ?? 0, 2),
    date: new Date().toISOString(),
  };
}

/** Reads a JSONL file. */
export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** A prompts file repeating the dev prompts `n` times over with fresh ids and absolute image paths. */
export function repeatedPrompts(dir: string, n: number): string {
  const base = readJsonl<{ id: string; image: string; question: string; meta?: unknown }>(DEV_PROMPTS);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = base[i % base.length]!;
    lines.push(
      JSON.stringify({
        id: `bench-${String(i).padStart(6, '0')}`,
        image: path.resolve(path.dirname(DEV_PROMPTS), p.image),
        question: p.question,
        ...(p.meta === undefined ? {} : { meta: p.meta }),
      }),
    );
  }
  const file = path.join(dir, `prompts-${n}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
