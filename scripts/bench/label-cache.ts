// Figure 3: labeler calls per claim with the label cache, on the shapes dev round (200 prompts × 10 samples, default
// config, 2 workers): questions sent to the labeler ÷ claims of the round (target ≤ 0.7). Claims that ask the same
// question about the same image share one label. Then a second round (another seed, same labeler) on the same store:
// its questions already labeled by round 1 are not asked again.
import path from 'node:path';
import Database from 'better-sqlite3';
import { checked, info, round, tempDir, type BenchOptions, type BenchResult } from './common.js';
import { copyStore, demoRound, measuredRound } from './demo-round.js';

function labelsIn(db: string): number {
  const h = new Database(db, { readonly: true });
  try {
    return (h.prepare(`SELECT count(*) AS n FROM labels`).get() as { n: number }).n;
  } finally {
    h.close();
  }
}

/** Runs figure 3. */
export async function benchLabelCache(opts: BenchOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const limit = opts.quick ? 20 : undefined;
  log(`label-cache: round 1, ${limit ?? 200} dev prompts × 10 samples, 2 workers`);
  const r1 = await demoRound(2, limit);
  const label1 = r1.stages.find((s) => s.stage === 'label')!;
  const labels1 = labelsIn(r1.db);

  const tmp = tempDir('cache');
  try {
    const db = path.join(tmp.dir, 'round.sqlite');
    copyStore(r1.db, db);
    log('label-cache: round 2 (seed 1) on the same store');
    const r2 = await measuredRound({ db, workers: 2, seed: 1, choice: 'next', ...(limit ? { limit } : {}) });
    const label2 = r2.stages.find((s) => s.stage === 'label')!;
    const labels2 = labelsIn(db) - labels1;
    const asked1 = label1.callItems;
    const asked2 = label2.callItems;
    return {
      rows: [
        checked('labeler calls per claim, round 1', round(asked1 / r1.claims, 3), '', '<=', 0.7,
          `${asked1} questions sent to the labeler (${labels1} label rows; ${label1.calls} batched calls) for ${r1.claims} claims; ${r1.questions} distinct questions`),
        checked('labeler calls per claim, round 2 (cache across rounds)', round(asked2 / r2.claims, 3), '', '<=', 0.7,
          `${asked2} questions sent (${labels2} new label rows; ${label2.calls} batched calls) for ${r2.claims} claims; ${r2.questions} distinct questions, ` +
            `${r2.questions - asked2} answered from round 1's labels`),
        info('round 2: share of its distinct questions already labeled', round((100 * (r2.questions - asked2)) / Math.max(1, r2.questions), 1), '%'),
      ],
    };
  } finally {
    tmp.cleanup();
  }
}
