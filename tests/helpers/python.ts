// Runs the real Python (Debian's torch) as a child process without blocking the test process.
import { spawn } from 'node:child_process';
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
