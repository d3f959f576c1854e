// Runs the real Python (Debian's torch) as a child process without blocking the test process.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.js';

/** The shapes DPO/SFT trainer that the loop runs. */
export const DPO = path.join(ROOT, 'scripts', 'shapes', 'dpo.py');

/** The shapes GRPO trainer that the online loop runs. */
export const GRPO = path.join(ROOT, 'scripts', 'shapes', 'grpo.py');

/** What a finished Python script printed and its exit code. */
export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `python3 <script> <args>` and resolves when it exits; `env` is added to this process's environment.
 * Example: `await python(DPO, ['--pairs', file, ...])`. */
export function python(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<PythonResult> {
  return new Promise((resolve, reject) => {
    const p = spawn('python3', [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs Debian's `/usr/bin/python3 <args>` and waits for it, blocking this process (only where no server in this
 * process must answer meanwhile); throws with its stderr unless it exits 0, else returns its stdout. `input` is
 * written to its stdin. Debian's is the one with torch: a `python3` found first on PATH may be a version manager's
 * without it, and dpo.py's switch to Debian's (debian_python.py) cannot re-run a `-c` program.
 * Example: `pythonSync(['-c', 'print(1)'], { cwd: SHAPES })`.
 */
export function pythonSync(args: string[], opts: { cwd?: string; input?: string } = {}): string {
  const r = spawnSync('/usr/bin/python3', args, { cwd: opts.cwd, input: opts.input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`/usr/bin/python3 ${args.join(' ').slice(0, 200)} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout;
}
