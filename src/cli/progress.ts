// Progress for the terminal: a bar per stage on a TTY (count, rate, ETA), periodic plain lines otherwise.
import cliProgress from 'cli-progress';
import type { Progress } from '../stages/context.js';

/** A progress reporter suited to where stderr goes. */
export function terminalProgress(quiet = false): Progress {
  if (quiet) return { start() {}, tick() {}, done() {}, log() {} };
  if (process.stderr.isTTY) return barProgress();
  // Batch logs: a line every RLAIFV_PROGRESS_MS ms (default 10 s; 0 = every item).
  const every = Number(process.env.RLAIFV_PROGRESS_MS);
  return lineProgress(Number.isFinite(every) && every >= 0 && process.env.RLAIFV_PROGRESS_MS !== '' ? every : 10_000);
}

function barProgress(): Progress {
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(stage, total) {
      bar = new cliProgress.SingleBar(
        { format: `${stage.padEnd(8)} {bar} {value}/{total} {rate}/s ETA {eta_formatted}`, stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { rate: '0' });
      (bar as any).t0 = performance.now();
    },
    tick(n = 1) {
      if (!bar) return;
      const value = (bar as any).value + n;
      const secs = (performance.now() - (bar as any).t0) / 1000;
      bar.update(value, { rate: secs > 0 ? (value / secs).toFixed(1) : '0' });
    },
    done() {
      bar?.stop();
      bar = null;
    },
    log(msg) {
      process.stderr.write(msg + '\n');
    },
  };
}

function lineProgress(everyMs = 10_000): Progress {
  let stage = '';
  let total = 0;
  let value = 0;
  let t0 = 0;
  let last = 0;
  const line = () => {
    const secs = (performance.now() - t0) / 1000;
    process.stderr.write(`[${stage}] ${value}/${total} (${secs > 0 ? (value / secs).toFixed(1) : '0'}/s, ${secs.toFixed(0)}s)\n`);
  };
  return {
    start(s, t) {
      stage = s;
      total = t;
      value = 0;
      t0 = last = performance.now();
      process.stderr.write(`[${stage}] start: ${total} to do\n`);
    },
    tick(n = 1) {
      value += n;
      if (performance.now() - last >= everyMs) {
        last = performance.now();
        line();
      }
    },
    done() {
      line();
    },
    log(msg) {
      process.stderr.write(msg + '\n');
    },
  };
}
