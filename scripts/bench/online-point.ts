// Issue 33's speed target in one run: the online loop's budget point (scripts/shapes/grpo.py trained against `rlaifv
// serve` on the loop's store) against a DPO loop round (generate, divide, label, score, pair, scripts/shapes/dpo.py),
// on the same train prompts and the same number of policy samples, each followed by the same held-out evaluation.
// Both run in-process through runLoop, as `rlaifv loop` runs them, each in its own store after its own (untimed)
// baseline evaluation. Debian's python3-torch is needed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { runLoop } from '../../src/loop/index.js';
import { openDb } from '../../src/store/index.js';
import { checked, info, round, tempDir, type BenchOptions, type BenchResult } from './common.js';

interface Timed {
  wall: number;
  trainer: number;
  /** CPU seconds (user + sys) of this process's threads (workers, serve) and of its waited-for children (the trainer). */
  cpu: number;
}

/** CPU seconds used so far by this process and by its children that were waited for (Linux: /proc/self/stat). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command's closing parenthesis: cutime and cstime are the 14th and 15th, in clock ticks (100 Hz).
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(f[13]) + Number(f[14])) / 100;
  return (own.user + own.system) / 1e6 + children;
}

/** One loop round (DPO) or budget point (online) after the store's baseline evaluation: its wall and trainer seconds. */
async function timedRound(config: Config, limit: number, evalLimit: number): Promise<Timed> {
  await runLoop(config, { rounds: 0, limit, evalLimit, echo: null });
  const c0 = cpuSeconds();
  const t0 = performance.now();
  await runLoop(config, { rounds: 1, limit, evalLimit, echo: null });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - c0;
  const db = openDb(config.db, { readonly: true });
  const r = db.prepare('SELECT trainer_seconds FROM loop_rounds WHERE idx = 1').get() as { trainer_seconds: number };
  db.close();
  return { wall, trainer: r.trainer_seconds, cpu };
}

/** The study's train split (docs/studies/online.md), built by `python3 scripts/shapes/build.py --only train`. */
const TRAIN = path.join(PACKAGE_ROOT, 'data', 'shapes', 'train', 'prompts.jsonl');

/**
 * A DPO round and an online budget point on 200 dev prompts × 10 samples (50 quick), 100 held-out prompts (25); with
 * `full`, the study's budget point: 2,000 train-split prompts × 10 and the 500 test prompts.
 */
export async function benchOnlinePoint(opts: BenchOptions = {}): Promise<BenchResult> {
  if (opts.full && !existsSync(TRAIN)) throw new Error(`--full needs ${TRAIN}: build it with python3 scripts/shapes/build.py --only train`);
  const t = tempDir('online');
  try {
    const limit = opts.full ? 2000 : opts.quick ? 50 : 200;
    const evalLimit = opts.full ? 500 : opts.quick ? 25 : 100;
    const dpo = loadConfig(undefined, { db: path.join(t.dir, 'dpo.sqlite') }).config;
    const online = loadConfig(undefined, { db: path.join(t.dir, 'online.sqlite') }).config;
    online.loop.mode = 'online';
    if (opts.full) for (const c of [dpo, online]) c.loop.train_prompts = TRAIN;
    opts.log?.(`online-point: a DPO round on ${limit} prompts`);
    const d = await timedRound(dpo, limit, evalLimit);
    opts.log?.(`online-point: an online budget point on ${limit} prompts`);
    const o = await timedRound(online, limit, evalLimit);
    const samples = limit * dpo.generate.samples;
    return {
      rows: [
        info(`DPO loop round, ${limit} train prompts × ${dpo.generate.samples} (${samples} policy samples) and ${evalLimit} held-out prompts: wall`, round(d.wall), 's', `trainer ${round(d.trainer)} s; CPU ${round(d.cpu)} s`),
        info(`online budget point, ${samples} policy samples (grpo.py against rlaifv serve) and the same evaluation: wall`, round(o.wall), 's', `trainer ${round(o.trainer)} s; CPU ${round(o.cpu)} s`),
        checked('online budget point ÷ DPO round (wall)', round(o.wall / d.wall, 2), '×', '<=', 1.5),
        info('online budget point ÷ DPO round (CPU, user + sys)', round(o.cpu / d.cpu, 2), '×'),
      ],
    };
  } finally {
    t.cleanup();
  }
}
