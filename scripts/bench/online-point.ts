// Issue 33's speed target in one run: the online loop's budget point (scripts/shapes/grpo.py trained against `rlaifv
// serve` on the loop's store) against a DPO loop round (generate, divide, label, score, pair, scripts/shapes/dpo.py),
// on the same train prompts and the same number of policy samples, each followed by the same held-out evaluation.
// Both run in-process through runLoop, as `rlaifv loop` runs them, each in its own store after its own (untimed)
// baseline evaluation. Debian's python3-torch is needed.
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { runLoop } from '../../src/loop/index.js';
import { openDb } from '../../src/store/index.js';
import { checked, info, round, tempDir, type BenchOptions, type BenchResult } from './common.js';

interface Timed {
  wall: number;
  trainer: number;
}

/** One loop round (DPO) or budget point (online) after the store's baseline evaluation: its wall and trainer seconds. */
async function timedRound(config: Config, limit: number, evalLimit: number): Promise<Timed> {
  await runLoop(config, { rounds: 0, limit, evalLimit, echo: null });
  const t0 = performance.now();
  await runLoop(config, { rounds: 1, limit, evalLimit, echo: null });
  const wall = (performance.now() - t0) / 1000;
  const db = openDb(config.db, { readonly: true });
  const r = db.prepare('SELECT trainer_seconds FROM loop_rounds WHERE idx = 1').get() as { trainer_seconds: number };
  db.close();
  return { wall, trainer: r.trainer_seconds };
}

/** A DPO round and an online budget point on 200 train prompts × 10 samples (50 quick), 100 held-out prompts (25). */
export async function benchOnlinePoint(opts: BenchOptions = {}): Promise<BenchResult> {
  const t = tempDir('online');
  try {
    const limit = opts.quick ? 50 : 200;
    const evalLimit = opts.quick ? 25 : 100;
    const dpo = loadConfig(undefined, { db: path.join(t.dir, 'dpo.sqlite') }).config;
    const online = loadConfig(undefined, { db: path.join(t.dir, 'online.sqlite') }).config;
    online.loop.mode = 'online';
    opts.log?.(`online-point: a DPO round on ${limit} prompts`);
    const d = await timedRound(dpo, limit, evalLimit);
    opts.log?.(`online-point: an online budget point on ${limit} prompts`);
    const o = await timedRound(online, limit, evalLimit);
    const samples = limit * dpo.generate.samples;
    return {
      rows: [
        info(`DPO loop round, ${limit} train prompts × ${dpo.generate.samples} (${samples} policy samples) and ${evalLimit} held-out prompts: wall`, round(d.wall), 's', `trainer ${round(d.trainer)} s`),
        info(`online budget point, ${samples} policy samples (grpo.py against rlaifv serve) and the same evaluation: wall`, round(o.wall), 's', `trainer ${round(o.trainer)} s`),
        checked('online budget point ÷ DPO round (wall)', round(o.wall / d.wall, 2), '×', '<=', 1.5),
      ],
    };
  } finally {
    t.cleanup();
  }
}
