// The report's on-policy check on a real round with pair.reference_logprobs (tiny models, real SQLite file), in
// headless Chromium from a file:// URL: the summary and the rule, the percentile chart, the flagged pairs, and each
// browsed pair's own rank; a round without reference log-probs has no such section.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';
import { launchChromium, loadFile } from '../helpers/browser.js';
import type { Db, RoundRow } from '../../src/store/index.js';
import { buildReport } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { gatherReport } from '../../src/report/data.js';
import { roundOnPolicy } from '../../src/eval/on-policy.js';

// One worker pool for both rounds (each made its own, its workers loading the models again).
const pool = filePool();
let db: Db;
let round: RoundRow;
let plain: Db;
let browser: Browser;
let file: string;
beforeAll(async () => {
  ({ db, round } = await runDemoRound({ limit: 24, pool: pool(), edit: (c) => (c.pair.reference_logprobs = true) }));
  plain = (await runDemoRound({ limit: 4, pool: pool() })).db;
  file = path.join(tempDir(), 'report.html');
  writeFileAtomic(file, buildReport(db, round.id));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  db?.close();
  plain?.close();
});

describe('the report\'s on-policy check', () => {
  test('the data: every kept pair in one percentile bin, the flagged ones those under 10', () => {
    const d = gatherReport(db, round.id).on_policy!;
    const c = roundOnPolicy(db, round.id)!;
    expect(d.pairs).toBe(c.pairs);
    expect(d.counts.reduce((a, b) => a + b, 0)).toBe(d.pairs);
    expect(d.counts[0]).toBe(c.checks.filter((x) => x.percentile < 10).length);
    expect(d.off_policy).toBe(d.counts[0]);
    expect(d.flagged.every((f) => f.percentile < 10 && f.prompt_id !== '')).toBe(true);
    expect(gatherReport(plain, 1).on_policy).toBeNull();
    expect(buildReport(plain, 1, { pairs: 0 })).not.toContain('id="on-policy"');
  });

  test('in the page: the summary states the rule, the chart is drawn, browsed pairs carry their rank', async () => {
    const d = gatherReport(db, round.id).on_policy!;
    const p = await loadFile(browser, file);
    try {
      const summary = await p.page.textContent('#on-policy-summary');
      expect(summary).toContain(`${d.pairs} kept pairs checked`);
      expect(summary).toContain(`${d.off_policy} off-policy`);
      expect(await p.page.textContent('h2#on-policy + p + p')).toContain('under the 10th percentile');
      expect(await p.page.$('canvas#chart-on-policy')).not.toBeNull();
      const ranks = await p.page.$$eval('article.pair', (as) => as.map((a) => a.getAttribute('data-off-policy')));
      expect(ranks.length).toBeGreaterThan(0);
      expect(ranks.every((r) => r === 'true' || r === 'false')).toBe(true);
      const offText = await p.page.$$eval('article.pair[data-off-policy="true"] .on-policy', (s) => s.map((x) => x.textContent ?? ''));
      expect(offText.every((t) => t.startsWith('off-policy: chosen at percentile'))).toBe(true);
      expect(p.errors).toEqual([]);
      expect(p.requests).toEqual([p.url]);
    } finally {
      await p.page.close();
    }
  });
});
