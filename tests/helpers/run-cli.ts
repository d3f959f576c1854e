// Runs the rlaifv command as a real child process without blocking the test process (a test server living in the
// test process must keep answering while the command runs, which spawnSync would prevent).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { ROOT } from './paths.js';

/** The built command. */
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

/** What a finished command printed and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Children still running when their test ends (passed, failed or timed out by the project's limit in
// vitest.config.ts) or when the test file's process exits are killed: a child has no time limit of its own.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
function killWithTest(child: ChildProcess): void {
  try {
    onTestFinished(() => void child.kill('SIGKILL'));
  } catch {
    // Called from a hook (beforeAll), not a test: the process 'exit' handler above covers it.
  }
}

/**
 * Runs `node <args>` and resolves when it exits. `entry` is a script (default: the built CLI); a .ts entry runs
 * through tsx. The environment is the test's, plus `env`.
 */
export function runNode(args: string[], opts: { cwd?: string; env?: Record<string, string>; entry?: string } = {}): Promise<CliResult> {
  const entry = opts.entry ?? CLI;
  const pre = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...pre, entry, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    killWithTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => {
      live.delete(child);
      reject(e);
    });
    child.on('close', (code) => {
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}
