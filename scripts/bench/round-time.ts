// Figure 4: a whole demo round (default config, 200 dev prompts × 10 samples): time per stage, the share of the time
// spent outside model calls (target ≤ 15%), and the wall time with 1 worker vs 2.
//
// "Outside model calls" = 1 − busy ÷ the stages' wall time, where busy is the wall time during which at least one model
// call (any role) is in flight, measured by wrapping the backends (demo-round.ts); for stages run one after another
// the stages' wall time is Σ stage_runs.seconds. The same ratio from stage_runs as stored (1 − Σ model_seconds ÷
// Σ seconds) is printed too: it is a share only if model_seconds is the union of a stage's calls, not their sum.
import { checked, info, round, type BenchOptions, type BenchResult, type Row } from './common.js';
import { demoRound, type DemoRun } from './demo-round.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function stageRows(r: DemoRun): Row[] {
  return r.stages.map((s) =>
    info(`${r.workers} worker${r.workers > 1 ? 's' : ''}: ${s.stage}`, round(s.seconds, 2), 's',
      `${s.items} items; model calls in flight ${round(s.busySeconds, 2)} s (${s.calls} calls); stage_runs.model_seconds ${round(s.modelSeconds, 2)} s`),
  );
}

/** Runs figure 4. */
export async function benchRoundTime(opts: BenchOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const limit = opts.quick ? 20 : undefined;
  const n = limit ?? 200;
  log(`round-time: demo round, ${n} dev prompts × 10 samples, 2 workers`);
  const two = await demoRound(2, limit);
  log(`round-time: demo round, ${n} dev prompts × 10 samples, 1 worker`);
  const one = await demoRound(1, limit);

  const secs = sum(two.stages.map((s) => s.seconds));
  const stored = sum(two.stages.map((s) => s.modelSeconds));
  const outside = 1 - two.busySeconds / two.stagesWallSeconds;
  const outsideWall = 1 - two.busySeconds / two.wallSeconds;
  const overlap = secs > two.stagesWallSeconds * 1.05 ? ' (stages overlap: Σ stage seconds > their wall time)' : '';
  return {
    rows: [
      ...stageRows(two),
      info('2 workers: ingest (input)', round(two.ingestSeconds, 2), 's', `${n} prompts`),
      checked('share of stage time outside model calls (2 workers)', round(100 * outside, 1), '%', '<=', 15,
        `1 − ${round(two.busySeconds, 2)} s with a model call in flight ÷ ${round(two.stagesWallSeconds, 2)} s of stages (wall); Σ stage_runs.seconds ${round(secs, 2)} s${overlap}`),
      info('share of the whole round outside model calls (2 workers)', round(100 * outsideWall, 1), '%',
        `also counts ingest, pool start, model loading and closing: wall ${round(two.wallSeconds, 2)} s`),
      info('as stored: 1 − Σ stage_runs.model_seconds ÷ Σ seconds', round(100 * (1 - stored / secs), 1), '%',
        `Σ model_seconds ${round(stored, 1)} s vs Σ seconds ${round(secs, 1)} s${stored > secs ? ': model_seconds adds up concurrent calls, so this is not a share' : ''}`),
      ...stageRows(one),
      info('wall time, 1 worker ÷ 2 workers', round(one.wallSeconds / two.wallSeconds, 2), '×',
        `${round(one.wallSeconds, 1)} s vs ${round(two.wallSeconds, 1)} s (whole round in-process: ingest, stages, pool start/stop)`),
    ],
  };
}
