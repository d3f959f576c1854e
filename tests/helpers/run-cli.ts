// Runs the rlaifv command as a real child process without blocking the test process (a test server living in the
// test process must keep answering while the command runs, which spawnSync would prevent).
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';
import { ROOT } from './paths.js';

/** The built command. */
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

/** What a finished command printed and its exit code. */
export interface CliResult {
  code: number | null;
  /** The signal that ended the command, when one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// A child has no time limit of its own: the project's limits in vitest.config.ts bound it. It is killed when the test
// that started it ends (passed, failed or timed out), or, for one started in a hook or a concurrent test (where the
// current test is not known for sure), when its file's tests are done.
const live = new Set<ChildProcess>();
afterAll(() => {
  for (const c of live) c.kill('SIGKILL');
});
function killWithTest(child: ChildProcess): void {
  const current = TestRunner.getCurrentTest();
  if (current && !current.concurrent) onTestFinished(() => void child.kill('SIGKILL'));
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
    child.on('close', (code, signal) => {
      live.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Runs the built command and waits for it, blocking this process (only where no test server in this process must
 * answer meanwhile). Example: `expect(runCliSync(['run', '--limit', 'abc']).status).toBe(2)`.
 */
export function runCliSync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
}
