// Progress for the terminal: a bar per stage on a TTY (count, rate, ETA), periodic plain lines otherwise. In a
// streaming round several stages run at once: each gets its own lane (bar, or lines tagged with its name), whose
// total grows as slices of prompts reach it.
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

const log = (msg: string) => void process.stderr.write(msg + '\n');

function barProgress(): Progress {
  let multi: cliProgress.MultiBar | null = null;
  const multiBar = () =>
    (multi ??= new cliProgress.MultiBar(
      { format: '{stage} {bar} {value}/{total} {rate}/s ETA {eta_formatted}', stream: process.stderr, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    ));
  const lane = (stage: string): Progress => {
    let bar: cliProgress.SingleBar | null = null;
    let total = 0;
    let value = 0;
    let t0 = 0;
    const p: Progress = {
      start(_s, t) {
        total += t;
        if (!bar) {
          t0 = performance.now();
          bar = multiBar().create(total, 0, { stage: stage.padEnd(8), rate: '0' });
        } else bar.setTotal(total);
      },
      tick(n = 1) {
        value += n;
        const secs = (performance.now() - t0) / 1000;
        bar?.update(value, { stage: stage.padEnd(8), rate: secs > 0 ? (value / secs).toFixed(1) : '0' });
      },
      done() {},
      log: (msg) => (multi ? multi.log(msg + '\n') : log(msg)),
    };
    return p;
  };
  return withLanes(lane, () => {
    multi?.stop();
    multi = null;
  }, (msg) => (multi ? multi.log(msg + '\n') : log(msg)));
}

function lineProgress(everyMs = 10_000): Progress {
  const lane = (stage: string): Progress => {
    let started = false;
    let total = 0;
    let value = 0;
    let t0 = 0;
    let last = 0;
    let shown = -1;
    const line = () => {
      if (value === shown) return;
      shown = value;
      const secs = (performance.now() - t0) / 1000;
      log(`[${stage}] ${value}/${total} (${secs > 0 ? (value / secs).toFixed(1) : '0'}/s, ${secs.toFixed(0)}s)`);
    };
    return {
      start(_s, t) {
        total += t;
        if (started) return;
        started = true;
        t0 = last = performance.now();
        log(`[${stage}] start: ${total} to do`);
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
      log,
    };
  };
  return withLanes(lane, () => {}, log);
}

/**
 * A progress made of one lane per stage: `lane(stage)` for a stage that runs beside others (a streaming round, each
 * lane kept), or start/tick/done for one stage at a time (a new lane each start; done ends it, then `end`).
 */
function withLanes(lane: (stage: string) => Progress, end: () => void, logLine: (msg: string) => void): Progress {
  const lanes = new Map<string, Progress>();
  let current: Progress | null = null;
  return {
    start(stage, total) {
      current = lane(stage);
      current.start(stage, total);
    },
    tick(n) {
      current?.tick(n);
    },
    done() {
      current?.done();
      current = null;
      end();
    },
    log: logLine,
    lane(stage) {
      let l = lanes.get(stage);
      if (!l) lanes.set(stage, (l = lane(stage)));
      return l;
    },
  };
}
