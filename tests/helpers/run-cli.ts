// Runs the rlaifv command as a real child process without blocking the test process (a test server living in the
// test process must keep answering while the command runs, which spawnSync would prevent).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.js';

/** The built command. */
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

/** What a finished command printed and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <args>` and resolves when it exits. `entry` is a script (default: the built CLI); a .ts entry runs
 * through tsx. The environment is the test's, plus `env`.
 */
export function runNode(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; entry?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const entry = opts.entry ?? CLI;
  const pre = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...pre, entry, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${[entry, ...args].join(' ')} did not finish in ${opts.timeoutMs ?? 45_000} ms; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 45_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
