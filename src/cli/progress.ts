// Progress for the terminal: a bar per stage on a TTY (count, rate, ETA), sparse plain lines otherwise. In a
// streaming round several stages run at once: each gets its own lane (bar, or lines tagged with its name), whose
// item total grows as slices of prompts reach it, while its share of the round is counted in prompts.
import cliProgress from 'cli-progress';
import type { Progress } from '../progress.js';

/** How progress is shown: nothing, or (without a TTY) a line per stage every `everySeconds` (0: every item). */
export interface ProgressOptions {
  quiet?: boolean;
  everySeconds?: number;
}

/** The default spacing of progress lines in a log: a 2,000-prompt round writes a handful per stage, not hundreds. */
export const DEFAULT_PROGRESS_SECONDS = 30;

/** A progress reporter suited to where stderr goes. */
export function terminalProgress(o: ProgressOptions = {}): Progress {
  if (o.quiet) return { start() {}, tick() {}, done() {}, log() {} };
  if (process.stderr.isTTY) return barProgress();
  return lineProgress((o.everySeconds ?? DEFAULT_PROGRESS_SECONDS) * 1000, (msg) => void process.stderr.write(msg + '\n'));
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

/** What each stage counts its items in. */
const UNITS: Record<string, string> = { generate: 'answers', divide: 'answers', label: 'questions', score: 'answers', pair: 'prompts' };

/** A duration as 1h02m, 4m05s, 12s or 2.5s. */
export function formatDuration(secs: number): string {
  if (secs < 9.95) return `${Math.max(0, secs).toFixed(1)}s`;
  const s = Math.round(secs);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * Lines for a log file (Slurm, nohup, CI): per stage a start line, then at most one line every `everyMs` with what is
 * done of the whole round, the rate and the time left, and one final line. A streaming lane (given the round's prompt
 * count) measures the round in prompts, since a later stage's items (questions) are not known until earlier stages
 * make them; a stage run on its own measures in items, whose total is known when it starts.
 */
export function lineProgress(everyMs: number, write: (msg: string) => void, now: () => number = () => performance.now()): Progress {
  const lane = (stage: string, roundPrompts?: number): Progress => {
    const unit = UNITS[stage] ?? 'items';
    const streaming = roundPrompts !== undefined;
    let started = false;
    let total = 0;
    let value = 0;
    let prompts = 0;
    let t0 = 0;
    let last = 0;
    let shown = '';
    const elapsed = () => (now() - t0) / 1000;
    // A stage that counts prompts (pair) is through a prompt as soon as it ticks it.
    const through = () => (unit === 'prompts' ? Math.max(prompts, value) : prompts);
    const counted = () =>
      streaming ? `${through()}/${roundPrompts} prompts${unit === 'prompts' ? '' : `, ${value} ${unit}`}` : `${value}/${total} ${unit}`;
    const status = (): string => {
      const secs = elapsed();
      const rate = secs > 0 ? value / secs : 0;
      // The fraction of the whole round this stage has done, and so how long the rest takes at this pace.
      const [done, of] = streaming ? [through(), roundPrompts!] : [value, total];
      const left = done > 0 && done < of ? formatDuration(((of - done) * secs) / done) : done >= of ? formatDuration(0) : '?';
      return `${counted()}, ${rate.toFixed(1)} ${unit}/s, ${formatDuration(secs)} elapsed, ETA ${left}`;
    };
    const line = (force = false) => {
      const s = status();
      const key = `${value}|${prompts}`;
      if (!force && key === shown) return;
      shown = key;
      write(`[${stage}] ${s}`);
    };
    const finishLine = () => {
      const secs = elapsed();
      write(`[${stage}] done: ${counted()} in ${formatDuration(secs)} (${(secs > 0 ? value / secs : 0).toFixed(1)} ${unit}/s)`);
    };
    return {
      start(_s, t) {
        total += t;
        if (started) return;
        started = true;
        t0 = last = now();
        write(`[${stage}] start: ${streaming ? `${roundPrompts} prompts` : `${total} ${unit}`}`);
      },
      tick(n = 1) {
        value += n;
        if (now() - last >= everyMs) {
          last = now();
          line();
        }
      },
      // A slice of a streaming round ends: the lane goes on; a stage run on its own is finished.
      done() {
        if (!streaming && started) finishLine();
      },
      through(n: number) {
        prompts += n;
      },
      finish() {
        if (started) finishLine();
      },
      log: write,
    };
  };
  return withLanes(lane, () => {}, write);
}

/**
 * A progress made of one lane per stage: `lane(stage)` for a stage that runs beside others (a streaming round, each
 * lane kept), or start/tick/done for one stage at a time (a new lane each start; done ends it, then `end`).
 */
function withLanes(lane: (stage: string, roundPrompts?: number) => Progress, end: () => void, logLine: (msg: string) => void): Progress {
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
    lane(stage, roundPrompts) {
      let l = lanes.get(stage);
      if (!l) {
        const fresh = lane(stage, roundPrompts);
        // A lane's counts and clock belong to one round: once it finishes, the next round (a loop reuses this
        // progress) gets a fresh lane instead of carrying them over ("done: 4000/2000 prompts" in round 2).
        l = { ...fresh, finish: () => (fresh.finish?.(), void lanes.delete(stage)) };
        lanes.set(stage, l);
      }
      return l;
    },
  };
}
