// Progress lines in a log (no TTY): a streaming round of 2,000 prompts, simulated on a fake clock through the real
// streaming lanes' calls, writes a start line, a few periodic lines and one final line per stage, each line giving
// what is done of the whole round, a rate and an ETA.
import { describe, expect, test } from 'vitest';
import { formatDuration, lineProgress } from '../../src/cli/progress.js';
import type { Progress } from '../../src/progress.js';

/** Drives lanes as runStreaming does: per slice start(items), ticks, done(), through(prompts); finish() at the end. */
function simulate(everyMs: number, o: { prompts: number; slice: number; secondsPerSlice: number }) {
  const lines: string[] = [];
  const clock = { t: 0 };
  const p = lineProgress(everyMs, (m) => lines.push(m), () => clock.t);
  simulateRound(p, clock, o);
  return { lines, seconds: clock.t / 1000 };
}

/** One streaming round on `p`, advancing the fake clock (a loop runs several rounds on the same progress). */
function simulateRound(p: Progress, clock: { t: number }, o: { prompts: number; slice: number; secondsPerSlice: number }) {
  const stages = { generate: 10, divide: 10, label: 23, score: 10, pair: 1 } as const;
  const lanes = Object.keys(stages).map((s) => [s, p.lane!(s, o.prompts)] as const);
  for (let from = 0; from < o.prompts; from += o.slice) {
    const n = Math.min(o.slice, o.prompts - from);
    for (const [s, lane] of lanes) {
      const per = stages[s as keyof typeof stages];
      lane.start(s, n * per);
      for (let i = 0; i < n; i++) {
        clock.t += (o.secondsPerSlice * 1000) / n / lanes.length;
        lane.tick(per);
      }
      lane.done();
      lane.through!(n);
    }
  }
  for (const [, lane] of lanes) lane.finish!();
}

describe('progress lines without a terminal', () => {
  test('a 2,000-prompt round of 4 minutes writes about 10 lines per stage, each with the round done, rate and ETA', () => {
    const { lines, seconds } = simulate(30_000, { prompts: 2000, slice: 32, secondsPerSlice: 240 / 63 });
    expect(seconds).toBeCloseTo(240, 0);
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) {
      const mine = lines.filter((l) => l.startsWith(`[${stage}] `));
      // start + one per 30 s of a 240 s round + done
      expect(mine.length, mine.join('\n')).toBeLessThanOrEqual(10);
      expect(mine[0]).toBe(`[${stage}] start: 2000 prompts`);
      expect(mine.at(-1)).toMatch(new RegExp(`^\\[${stage}\\] done: 2000/2000 prompts`));
      const periodic = mine.slice(1, -1);
      expect(periodic.length).toBeGreaterThanOrEqual(5);
      // Every periodic line counts the whole round, never "n/n" of what has arrived so far.
      for (const l of periodic) expect(l).toMatch(/^\[\w+\] \d+\/2000 prompts.*\/s, .* elapsed, ETA (\d|\?)/);
    }
    const label = lines.filter((l) => l.startsWith('[label] ') && !/start|done/.test(l));
    // Halfway through (about 1,000 of 2,000 prompts after about 120 s), the ETA is about 2 minutes.
    const mid = label.find((l) => Number(/ (\d+)\/2000/.exec(l)![1]) >= 900)!;
    expect(mid).toMatch(/ETA (1m[3-5]\d|2m[0-3]\d)s/);
  });

  test('a loop\'s second round starts afresh: its counts, elapsed time and rate are its own, not carried over', () => {
    const lines: string[] = [];
    const clock = { t: 0 };
    const p = lineProgress(30_000, (m) => lines.push(m), () => clock.t);
    simulateRound(p, clock, { prompts: 200, slice: 32, secondsPerSlice: 60 });
    const round1End = lines.length;
    clock.t += 600_000; // training and evaluation between the rounds: ten minutes no stage is running
    simulateRound(p, clock, { prompts: 100, slice: 32, secondsPerSlice: 60 });
    const second = lines.slice(round1End);
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) {
      const mine = second.filter((l) => l.startsWith(`[${stage}] `));
      expect(mine[0]).toBe(`[${stage}] start: 100 prompts`);
      // 100 prompts in 4 slices of 60 s: at most 4m00s, not round 1's 7 minutes plus the pause plus this round.
      expect(mine.at(-1)).toMatch(new RegExp(`^\\[${stage}\\] done: 100/100 prompts.* in (3m\\d\\ds|4m00s) `));
    }
    expect(second.find((l) => l.startsWith('[generate] done'))).toMatch(/done: 100\/100 prompts, 1000 answers in 4m00s \(4\.2 answers\/s\)$/);
  });

  test('0 seconds: a line per tick; lines only when something moved', () => {
    const { lines } = simulate(0, { prompts: 4, slice: 2, secondsPerSlice: 1 });
    expect(lines.filter((l) => l.startsWith('[generate] ') && !/start|done/.test(l))).toHaveLength(4);
  });

  test('a stage run on its own counts its items, and ends with one line', () => {
    const lines: string[] = [];
    let t = 0;
    const p = lineProgress(30_000, (m) => lines.push(m), () => t);
    p.start('label', 100);
    for (let i = 0; i < 100; i++) {
      t += 1000;
      p.tick();
    }
    p.done();
    expect(lines[0]).toBe('[label] start: 100 questions');
    expect(lines).toContain('[label] 30/100 questions, 1.0 questions/s, 30s elapsed, ETA 1m10s');
    expect(lines.at(-1)).toBe('[label] done: 100/100 questions in 1m40s (1.0 questions/s)');
    expect(lines).toHaveLength(5);
  });

  test('durations', () => {
    expect(formatDuration(2.46)).toBe('2.5s');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(245)).toBe('4m05s');
    expect(formatDuration(3725)).toBe('1h02m');
  });
});
