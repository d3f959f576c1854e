// Runs Python scripts as forks of one Python that imported torch once (python-forks.py), for a test file that runs the
// shapes trainer many times: each run is still the script's own __main__ in a process of its own (its argv, output and
// exit code), but it skips the torch import, about half of a short trainer run's CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, tempDir } from './paths.js';
import type { PythonResult } from './python.js';

/** What the shapes trainers (scripts/shapes/dpo.py, grpo.py) import at their top, torch first. */
export const TRAINER_MODULES = ['numpy', 'torch', 'torch.nn.functional', 'torch.onnx', 'PIL.Image', 'dpo_input', 'tokenizer', 'model', 'onnx_weights', 'package_model', 'train'];

/**
 * A started forking Python; `run` is `python(script, args)` of python.ts (`env`: variables added for that run only),
 * `close` ends it once its runs are done.
 */
export interface PythonForks {
  run(script: string, args: string[], env?: Record<string, string>): Promise<PythonResult>;
  /**
   * Starts the forking Python listening on a Unix socket, and resolves to a shell command prefix that runs a script
   * in a fork of it: `${await forks.command()} ${DPO} --pairs ...` behaves as `python3 ${DPO} --pairs ...` (its output,
   * folder, environment and exit code), for a command another process runs, such as the loop's trainer. Killing that
   * command does not end the fork (python-fork-client.py).
   */
  command(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts Debian's Python with `dir` on its path and `modules` imported, then forks it once per `run`.
 * Example: `const py = pythonForks(); const r = await py.run(DPO, ['--pairs', f, ...]); await py.close();`
 */
export function pythonForks(dir = path.join(ROOT, 'scripts', 'shapes'), modules = TRAINER_MODULES): PythonForks {
  let proc: ChildProcess | undefined;
  let stderr = '';
  let next = 0;
  const waiting = new Map<string, (code: number | null) => void>();
  const out = tempDir('rlaifv-python-forks-');
  const socket = path.join(out, 's');
  let listening: Promise<string> | undefined;
  let onReady: (() => void) | undefined;
  const start = (listen: boolean) => {
    const helper = path.join(ROOT, 'tests', 'helpers', 'python-forks.py');
    const p = spawn('/usr/bin/python3', [helper, dir, listen ? socket : '', ...modules], { stdio: ['pipe', 'pipe', 'pipe'] });
    p.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    createInterface({ input: p.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { id: string; code: number } | { ready: string };
      if ('ready' in msg) return onReady?.();
      waiting.get(msg.id)?.(msg.code < 0 ? null : msg.code);
      waiting.delete(msg.id);
    });
    p.on('close', (code) => {
      // A job that never reported (the forking Python itself died): fail it with what that Python said.
      for (const [id, done] of waiting) {
        waiting.delete(id);
        done(null);
        stderr += `\npython-forks.py exited (${code}) before job ${id} ended`;
      }
    });
    return p;
  };
  return {
    command() {
      if (proc && !listening) throw new Error('pythonForks: call command() before the first run()');
      listening ??= new Promise<string>((resolve, reject) => {
        onReady = () => resolve(`python3 ${path.join(ROOT, 'tests', 'helpers', 'python-fork-client.py')} ${socket}`);
        proc = start(true);
        proc.on('close', (code) => reject(new Error(`python-forks.py exited (${code}) before it listened: ${stderr}`)));
      });
      return listening;
    },
    run(script, args, env) {
      proc ??= start(false);
      const id = String(next++);
      const files = { stdout: path.join(out, `${id}.out`), stderr: path.join(out, `${id}.err`) };
      return new Promise((resolve) => {
        waiting.set(id, (code) => {
          const read = (f: string) => {
            try {
              return readFileSync(f, 'utf8');
            } catch {
              return '';
            }
          };
          resolve({ code, stdout: read(files.stdout), stderr: read(files.stderr) + (code === null ? stderr : '') });
        });
        proc!.stdin!.write(JSON.stringify({ id, script, args, env, ...files }) + '\n');
      });
    },
    close() {
      if (!proc || proc.exitCode !== null) return Promise.resolve();
      const p = proc;
      return new Promise((resolve) => {
        p.on('close', () => resolve());
        p.stdin!.end();
      });
    },
  };
}
