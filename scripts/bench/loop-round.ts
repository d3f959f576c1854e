// A loop round timed step by step (issue "The loop, closed"): rlaifv's own share of a round — the train round, the
// pull, the held-out evaluation, and the loop's bookkeeping — against the trainer's. The real shapes DPO trainer runs
// (Debian's python3-torch); the loop runs in-process through runLoop, as `rlaifv loop` runs it.
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runLoop } from '../../src/loop/index.js';
import { openDb } from '../../src/store/index.js';
import { info, round, tempDir, type BenchOptions, type BenchResult } from './common.js';

/** Seconds between the loop's step messages, by step. */
function stepClock() {
  const marks: { step: string; t: number }[] = [];
  const step = (m: string) =>
    /answers /.test(m) ? 'round' : /pairs in /.test(m) ? 'pull' : /training:/.test(m) ? 'train' : /^evaluating/.test(m) ? 'evaluate' : null;
  return {
    log(m: string) {
      const s = step(m);
      if (s && marks.at(-1)?.step !== s) marks.push({ step: s, t: performance.now() });
    },
    seconds(end: number): Record<string, number> {
      const out: Record<string, number> = {};
      marks.forEach((m, i) => (out[m.step] = (out[m.step] ?? 0) + ((marks[i + 1]?.t ?? end) - m.t) / 1000));
      return out;
    },
  };
}

/** One loop round on 200 dev prompts (50 quick), evaluated on 100 test prompts (25 quick), after its baseline evaluation. */
export async function benchLoopRound(opts: BenchOptions = {}): Promise<BenchResult> {
  const t = tempDir('loop');
  try {
    const limit = opts.quick ? 50 : 200;
    const evalLimit = opts.quick ? 25 : 100;
    const { config } = loadConfig(undefined, { db: path.join(t.dir, 'loop.sqlite') });
    // The baseline evaluation is not part of a round: it is done (and stored) before the timed call.
    await runLoop(config, { rounds: 0, limit, evalLimit, echo: null });
    const clock = stepClock();
    const t0 = performance.now();
    await runLoop(config, { rounds: 1, limit, evalLimit, echo: null, progress: { start() {}, tick() {}, done() {}, log: (m) => clock.log(m) } });
    const end = performance.now();
    const wall = (end - t0) / 1000;
    const db = openDb(config.db, { readonly: true });
    const r = db.prepare('SELECT trainer_seconds, pairs FROM loop_rounds WHERE idx = 1').get() as { trainer_seconds: number; pairs: number };
    db.close();
    const steps = clock.seconds(end);
    const own = wall - r.trainer_seconds;
    opts.log?.(`loop round: ${JSON.stringify(steps)}; trainer ${r.trainer_seconds.toFixed(1)} s`);
    return {
      rows: [
        info(`loop round on ${limit} train prompts × 10 samples, ${evalLimit} held-out prompts (${r.pairs} pairs): wall`, round(wall), 's'),
        info('rlaifv\'s own share (everything but the trainer process)', round((100 * own) / wall), '%', `${round(own)} s of ${round(wall)} s`),
        info('  train round (generate, divide, label, score, pair)', round(steps.round ?? 0), 's'),
        info('  pull', round(steps.pull ?? 0, 2), 's'),
        info('  trainer (scripts/shapes/dpo.py, its own process)', round(r.trainer_seconds), 's'),
        info('  held-out evaluation (sampled and greedy)', round(steps.evaluate ?? 0), 's'),
      ],
    };
  } finally {
    t.cleanup();
  }
}
