// The loop's external commands (a trainer, a deploy hook): a template filled in with shell-quoted values, run in a
// shell, its output passed through and the tail of its stderr kept for the record.
import { spawn } from 'node:child_process';
import { ConfigError } from '../config/load.js';

/** Quotes a value for a POSIX shell: the command sees it as one word whatever it holds. */
export function shellQuote(v: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/**
 * Fills `{name}` placeholders with shell-quoted values; an unknown placeholder is a config error naming the allowed ones.
 * @example fillCommand('train --out {out}', { out: 'a b' }, 'loop.trainer') // "train --out 'a b'"
 */
export function fillCommand(template: string, values: Record<string, string>, field: string): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const v = values[name];
    if (v === undefined) {
      throw new ConfigError(`${field}: unknown placeholder ${whole} (allowed: ${Object.keys(values).map((k) => `{${k}}`).join(', ')})`);
    }
    return shellQuote(v);
  });
}

/** How a command ended. */
export interface CommandResult {
  /** The exit code, or null when a signal or the time limit ended it (see reason). */
  exitCode: number | null;
  reason: string | null;
  stderrTail: string;
  seconds: number;
}

const TAIL_BYTES = 4096;

/**
 * Runs a shell command; its stdout and stderr go to `echo` (the loop's stderr, or nowhere) as they come, and the
 * last 4 KiB of stderr are kept. A time limit ends it with SIGTERM, then SIGKILL 10 s later.
 */
export function runCommand(
  command: string,
  opts: { cwd: string; timeoutMs?: number | null; echo?: NodeJS.WritableStream | null; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = Buffer.alloc(0);
    let timedOut = false;
    child.stdout.on('data', (b: Buffer) => opts.echo?.write(b));
    child.stderr.on('data', (b: Buffer) => {
      opts.echo?.write(b);
      tail = Buffer.concat([tail, b]);
      if (tail.length > 2 * TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
    });
    const timer =
      opts.timeoutMs != null
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
          }, opts.timeoutMs)
        : null;
    const finish = (exitCode: number | null, reason: string | null) => {
      if (timer) clearTimeout(timer);
      const text = tail.subarray(Math.max(0, tail.length - TAIL_BYTES)).toString('utf8');
      resolve({ exitCode, reason, stderrTail: text, seconds: (performance.now() - t0) / 1000 });
    };
    child.on('error', (e) => finish(null, `could not start: ${e.message}`));
    child.on('close', (code, signal) => {
      if (timedOut) finish(null, `stopped after the time limit (${opts.timeoutMs} ms)`);
      else if (signal) finish(null, `ended by signal ${signal}`);
      else finish(code, null);
    });
  });
}
