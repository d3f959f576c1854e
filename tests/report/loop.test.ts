// The report of a loop's round shows the loop's policies on held-out prompts as charts and a table, drawn in
// Chromium from the store's evaluations; a round outside a loop has no loop section.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config/load.js';
import { runLoop, type LoopResult } from '../../src/loop/index.js';
import { buildReport } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { openDb, type Db } from '../../src/store/index.js';
import { launchChromium, loadFile } from '../helpers/browser.js';
import { tempDir } from '../helpers/paths.js';
import { sharedPool } from '../helpers/file-pool.js';

let browser: Browser;
let db: Db;
let loop: LoopResult;

beforeAll(async () => {
  const dir = tempDir('rlaifv-report-loop-');
  const { config } = loadConfig(undefined, { db: path.join(dir, 'loop.sqlite'), workers: 2 });
  config.generate.samples = 4;
  // The trainer copies its parent: this test is about what the report shows, not about training.
  config.loop = { ...config.loop, trainer: 'cp -r {policy} {out}', eval_samples: 4 };
  // In the test process's shared pool (tests/helpers/file-pool.ts), not a pool of the loop's own: the copied checkpoints
  // are leased while the loop uses them, as in a loop's own pool.
  loop = await runLoop(config, { rounds: 2, limit: 10, evalLimit: 12, pool: sharedPool(2) });
  db = openDb(config.db, { readonly: true });
  browser = await launchChromium();
});

afterAll(async () => {
  db?.close();
  await browser?.close();
});

describe('the loop in the round report', () => {
  test('charts and table draw every policy\'s held-out figures', async () => {
    const file = path.join(tempDir(), 'r.html');
    writeFileAtomic(file, buildReport(db, loop.rounds[1]!.round!));
    const p = await loadFile(browser, file);
    try {
      expect(p.errors).toEqual([]);
      expect(p.requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
      const charts = await p.page.evaluate(() => {
        const Chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): { data: { labels: string[]; datasets: { label: string; data: (number | null)[] }[] } } | undefined } }).Chart;
        return ['loop-hallucination', 'loop-informativeness', 'loop-win-rates'].map((id) => {
          const c = document.getElementById(`chart-${id}`) as HTMLCanvasElement;
          const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          let ink = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) ink++;
          return { ink, data: Chart.getChart(c)!.data };
        });
      });
      const evals = [loop.baseline.sampled, ...loop.rounds.map((r) => r.eval!)];
      expect(charts[0]!.data.labels).toEqual(['start', 'round 1', 'round 2']);
      const series = (i: number, label: string) => charts[i]!.data.datasets.find((d) => d.label === label)!.data;
      expect(series(0, 'false claims, sampled')).toEqual(evals.map((e) => Math.round(e.false_claim_rate! * 1000) / 10));
      expect(series(0, 'false claims, greedy')).toEqual([loop.baseline.greedy!, ...loop.rounds.map((r) => r.eval!.greedy!)].map((e) => Math.round(e.false_claim_rate! * 1000) / 10));
      expect(series(1, 'true claims per answer')).toEqual(evals.map((e) => Math.round(e.true_claims_per_answer! * 100) / 100));
      // Truth-free: the labeler's rejected share, and the win rates (none for the start).
      const free = [loop.baseline.truth_free, ...loop.rounds.map((r) => r.eval!.truth_free)];
      expect(series(0, 'rejected claims (labeler, truth-free)')).toEqual(free.map((f) => Math.round(f.rejected_claim_rate! * 1000) / 10));
      expect(series(2, 'win rate vs previous')).toEqual([null, ...loop.rounds.map((r) => Math.round(r.eval!.truth_free.win_rate_vs_previous!.win_rate! * 1000) / 10)]);
      expect(series(2, 'win rate vs start')).toEqual([null, ...loop.rounds.map((r) => Math.round(r.eval!.truth_free.win_rate_vs_start!.win_rate! * 1000) / 10)]);
      for (const c of charts) expect(c.ink).toBeGreaterThan(1000);
      const rows = await p.page.$$eval('table.loop tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows.map((r) => r[0])).toEqual(['start', 'round 1', 'round 2']);
      expect(rows[2]![1]).toBe(String(loop.rounds[1]!.pairs));
      expect(rows[1]![2]).toBe(`${(100 * loop.rounds[0]!.eval!.false_claim_rate!).toFixed(1)}%`);
      expect(rows[1]![3]).toBe(`${(100 * loop.rounds[0]!.eval!.truth_free.rejected_claim_rate!).toFixed(1)}%`);
      const w2 = loop.rounds[1]!.eval!.truth_free.win_rate_vs_start!;
      expect(rows[2]![11]).toBe(`${(100 * w2.win_rate!).toFixed(1)}% [${(100 * w2.ci95![0]).toFixed(1)}%, ${(100 * w2.ci95![1]).toFixed(1)}%]`);
      expect(rows[0]![10]).toBe('–');
      expect(await p.page.textContent('#loop + p')).toContain('round 2 of loop 1');
    } finally {
      await p.page.close();
    }
  });

  test('an evaluation round\'s report and a plain round\'s have no loop section', async () => {
    const file = path.join(tempDir(), 'plain.html');
    writeFileAtomic(file, buildReport(db, loop.baseline.sampled_round));
    const p = await loadFile(browser, file);
    try {
      expect(await p.page.$('#loop')).toBeNull();
      expect(p.errors).toEqual([]);
    } finally {
      await p.page.close();
    }
  });
});
