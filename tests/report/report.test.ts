// The HTML report of a real round (tiny models, real SQLite file), loaded in headless Chromium from a file:// URL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Command } from 'commander';
import { runDemoRound } from '../helpers/round.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { launchChromium, loadFile, type LoadedPage } from '../helpers/browser.js';
import { openDb, putFailures, type Db, type RoundRow } from '../../src/store/index.js';
import { buildReport, chartJsSource, escapeHtml, gatherReport, renderReportHtml, reportCharts } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { FAILURE_STAGES } from '../../src/report/data.js';
import { registerReport } from '../../src/cli/report.js';

const HOSTILE = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><!-- & "quotes" 'too'`;

let db: Db;
let round: RoundRow;
let dbFile: string;
let browser: Browser;
let reportFile: string;

beforeAll(async () => {
  ({ db, round, file: dbFile } = await runDemoRound({ limit: 8 }));
  reportFile = path.join(tempDir(), 'report.html');
  writeFileAtomic(reportFile, buildReport(db, round.id));
});

afterAll(() => db?.close());

/** Per canvas: size, painted pixels, and how many bars Chart.js drew vs how many non-zero values it was given. */
async function canvases(p: LoadedPage) {
  return p.page.evaluate(() => {
    type Bar = { getProps(k: string[], final: boolean): { x: number; y: number; base: number; horizontal: boolean } };
    type ChartLike = { data: { labels: string[]; datasets: { label: string; data: number[] }[] }; getDatasetMeta(i: number): { data: Bar[] } };
    const Chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): ChartLike | undefined } }).Chart;
    return [...document.querySelectorAll('canvas')].map((c) => {
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) ink++;
      const chart = Chart.getChart(c);
      let nonZero = 0;
      let drawn = 0;
      chart?.data.datasets.forEach((ds, i) => {
        nonZero += ds.data.filter((v) => v > 0).length;
        for (const b of chart.getDatasetMeta(i).data) {
          const p = b.getProps(['x', 'y', 'base', 'horizontal'], true);
          if (Math.abs((p.horizontal ? p.x : p.y) - p.base) >= 0.5) drawn++;
        }
      });
      return { id: c.id.replace(/^chart-/, ''), width: c.width, height: c.height, ink, hasChart: !!chart, nonZero, drawn, data: chart?.data };
    });
  });
}

describe('rlaifv report in Chromium', () => {
  // A missing Chromium fails these tests with a message saying how to get one (CI installs Debian's chromium).
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('the page loads with no errors and no requests, and every chart draws its data', async () => {
    const p = await loadFile(browser, reportFile);
    try {
      expect(p.errors).toEqual([]);
      expect(p.requests).toEqual([p.url]);
      const expected = reportCharts(gatherReport(db, round.id)).map((c) => c.id);
      expect(expected.length).toBeGreaterThanOrEqual(10);
      expect(await p.page.getAttribute('html', 'data-charts')).toBe(String(expected.length));
      const got = await canvases(p);
      expect(got.map((c) => c.id)).toEqual(expected);
      for (const c of got) {
        expect(c.hasChart, c.id).toBe(true);
        expect(c.width * c.height, c.id).toBeGreaterThan(100 * 100);
        // Axes, ticks and labels alone paint a few percent of the canvas; an empty canvas paints nothing.
        expect(c.ink / (c.width * c.height), c.id).toBeGreaterThan(0.01);
        expect(c.drawn, c.id).toBe(c.nonZero);
      }
      // A real round has data in every chart but the failures one.
      for (const c of got.filter((c) => c.id !== 'failures')) expect(c.nonZero, c.id).toBeGreaterThan(0);
    } finally {
      await p.page.close();
    }
  });

  test("the page's figures are the store's", async () => {
    const one = (sql: string, ...a: unknown[]) => (db.prepare(sql).get(...a) as { n: number }).n;
    const r = round.id;
    const labeler = round.labeler_model;
    // Independent SQL for every figure; the round uses the scripts rule: rejected unless p_yes > p_no.
    const claimsJoin = `FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
      JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE c.round_id = ? AND l.p_yes IS NOT NULL`;
    expect(round.accept_rule).toBe('scripts');
    const store = {
      prompts: one('SELECT COUNT(*) n FROM round_prompts WHERE round_id = ?', r),
      answers: one('SELECT COUNT(*) n FROM candidates WHERE round_id = ?', r),
      claims: one('SELECT COUNT(*) n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ?', r),
      judged_claims: one(`SELECT COUNT(*) n ${claimsJoin}`, labeler, r),
      rejected_claims: one(`SELECT COUNT(*) n ${claimsJoin} AND l.p_yes <= l.p_no`, labeler, r),
      pairs: one('SELECT COUNT(*) n FROM pairs WHERE round_id = ?', r),
      pairs_after_balance: one('SELECT COUNT(*) n FROM pairs WHERE round_id = ? AND balance_kept = 1', r),
      failures: one('SELECT COUNT(*) n FROM failures WHERE round_id = ?', r),
    };
    expect(store.prompts).toBe(8);
    expect(store.rejected_claims).toBeGreaterThan(0);
    expect(store.pairs).toBeGreaterThan(0);

    const p = await loadFile(browser, reportFile);
    try {
      const table = await p.page.$$eval('#counts tr', (rows) =>
        Object.fromEntries(rows.map((tr) => [tr.getAttribute('data-key'), Number(tr.querySelector('td')!.textContent)])),
      );
      for (const [k, v] of Object.entries(store)) expect(table[k], k).toBe(v);
      expect(await p.page.textContent('#round')).toContain(round.config_hash);

      const charts = Object.fromEntries((await canvases(p)).map((c) => [c.id, c.data!]));
      const series = (id: string, i = 0) => charts[id]!.datasets[i]!.data;
      const byValue = (rows: { k: number; n: number }[]) => {
        const out = new Array<number>(Math.max(...rows.map((x) => x.k)) + 1).fill(0);
        for (const x of rows) out[x.k] = x.n;
        return out;
      };
      // REJ-C: answers with claims by rejected count.
      const rejc = db
        .prepare('SELECT n_rejected k, COUNT(*) n FROM scores WHERE round_id = ? AND rej_c IS NOT NULL GROUP BY 1')
        .all(r) as { k: number; n: number }[];
      expect(series('rejc')).toEqual(byValue(rejc));
      expect(series('rejp').reduce((a, b) => a + b, 0)).toBe(rejc.reduce((a, x) => a + x.n, 0));
      // Claims per answer.
      const claims = db
        .prepare('SELECT d.n_claims k, COUNT(*) n FROM divisions d JOIN candidates c ON c.id = d.candidate_id WHERE c.round_id = ? GROUP BY 1')
        .all(r) as { k: number; n: number }[];
      expect(series('claims')).toEqual(byValue(claims));
      // p(yes): one per distinct labeled question, split by verdict.
      const qs = `SELECT COUNT(*) n FROM labels l WHERE l.labeler = ? AND l.p_yes IS NOT NULL AND l.question_id IN
        (SELECT cl.question_id FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ?)`;
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      expect(sum(series('pyes', 1))).toBe(one(`${qs} AND l.p_yes <= l.p_no`, labeler, r));
      expect(sum(series('pyes', 0)) + sum(series('pyes', 1))).toBe(one(qs, labeler, r));
      // Rejection rate by the prompt's meta.kind, in percent to one decimal.
      const kinds = db
        .prepare(
          `SELECT COALESCE(json_extract(p.meta_json, '$.kind'), 'other') kind, SUM(l.p_yes <= l.p_no) rej, COUNT(*) n
           FROM claims cl JOIN candidates c ON c.id = cl.candidate_id JOIN prompts p ON p.id = c.prompt_id
           JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE c.round_id = ? AND l.p_yes IS NOT NULL
           GROUP BY 1 ORDER BY 1`,
        )
        .all(labeler, r) as { kind: string; rej: number; n: number }[];
      expect(charts.kinds!.labels).toEqual(kinds.map((k) => `${k.kind} (${k.n})`));
      expect(series('kinds')).toEqual(kinds.map((k) => Math.round((1000 * k.rej) / k.n) / 10));
      // Mean lengths before and after balance.
      const means = db
        .prepare(
          `SELECT AVG(chosen_words) ch, AVG(rejected_words) rj FROM pairs WHERE round_id = ?
           UNION ALL SELECT AVG(chosen_words), AVG(rejected_words) FROM pairs WHERE round_id = ? AND balance_kept = 1`,
        )
        .all(r, r) as { ch: number; rj: number }[];
      const r1 = (x: number) => Math.round(x * 10) / 10;
      expect(series('length-means', 0)).toEqual(means.map((m) => r1(m.ch)));
      expect(series('length-means', 1)).toEqual(means.map((m) => r1(m.rj)));
      expect(sum(series('lengths-before', 0))).toBe(store.pairs);
      expect(sum(series('lengths-after', 1))).toBe(store.pairs_after_balance);
      // The most rejected claim text and its count.
      const top = db
        .prepare(
          `SELECT cl.claim, COUNT(*) n ${claimsJoin} AND l.p_yes <= l.p_no GROUP BY cl.claim ORDER BY n DESC LIMIT 1`,
        )
        .get(labeler, r) as { claim: string; n: number };
      expect(series('top-rejected')[0]).toBe(top.n);
      const firstRow = await p.page.$$eval('table.top-rejected tbody tr:first-child td', (tds) => tds.map((t) => t.textContent));
      expect(Number(firstRow[1])).toBe(top.n);
    } finally {
      await p.page.close();
    }
  });

  test('hostile text in claims, failures and prompt meta stays text', async () => {
    // A copy of the round's database with rows no model would write.
    const copy = path.join(tempDir(), 'hostile.sqlite');
    db.exec(`VACUUM INTO '${copy}'`);
    const h = openDb(copy);
    try {
      const rejectedQ = h
        .prepare(
          `SELECT cl.question_id q FROM claims cl JOIN labels l ON l.question_id = cl.question_id
           WHERE l.p_yes <= l.p_no LIMIT 1`,
        )
        .get() as { q: string };
      const cands = h.prepare('SELECT id FROM candidates WHERE round_id = ? ORDER BY id LIMIT 40').all(round.id) as { id: string }[];
      const ins = h.prepare('INSERT INTO claims (id, candidate_id, idx, sentence, claim, question_id) VALUES (?, ?, 999, ?, ?, ?)');
      for (const c of cands) ins.run(`hostile-${c.id}`, c.id, HOSTILE, HOSTILE, rejectedQ.q);
      putFailures(h, [{ round_id: round.id, stage: 'label', item: HOSTILE, reason: HOSTILE, raw: HOSTILE }]);
      h.prepare('UPDATE prompts SET meta_json = ? WHERE id = (SELECT prompt_id FROM round_prompts WHERE round_id = ? ORDER BY ordinal LIMIT 1)').run(
        JSON.stringify({ kind: HOSTILE }),
        round.id,
      );
      const file = path.join(tempDir(), 'hostile.html');
      writeFileAtomic(file, buildReport(h, round.id));
      const html = readFileSync(file, 'utf8');
      expect(html).not.toContain('</script><script>window.__pwned');
      expect(html).not.toContain('<img src=x');

      const p = await loadFile(browser, file);
      try {
        expect(p.errors).toEqual([]);
        expect(p.requests).toEqual([p.url]);
        expect(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
        // The only images are the pair browser's, one per pair card (none from the hostile text).
        expect(await p.page.locator('img').count()).toBe(await p.page.locator('article.pair .pair-top img').count());
        expect(await p.page.locator('img[src="x"]').count()).toBe(0);
        // The browser lists the added claims as text too (their sentence is in no answer, so it is named, not marked).
        expect(await p.page.locator('ol.claims .claim', { hasText: 'window.__pwned=1' }).first().textContent()).toBe(HOSTILE);
        expect(await p.page.locator('ol.claims .notfound', { hasText: 'window.__pwned=1' }).first().textContent()).toBe(
          ` (sentence not found in the answer: ${HOSTILE})`,
        );
        // The text reads back exactly: in the most rejected claims, the failures (reason, item, raw) and the kinds.
        expect(await p.page.textContent('table.top-rejected tbody tr:first-child td')).toBe(HOSTILE);
        expect(await p.page.$$eval('#failures td', (tds) => tds.map((t) => t.textContent))).toContain(HOSTILE);
        expect(await p.page.$$eval('pre', (ps) => ps.map((t) => t.textContent))).toContain(HOSTILE);
        expect(await p.page.$$eval('table.kinds td', (tds) => tds.map((t) => t.textContent))).toContain(HOSTILE);
        // And every chart still drew from the data island, which parsed with the text in it.
        const charts = await canvases(p);
        expect(charts.every((c) => c.hasChart)).toBe(true);
        expect(charts.find((c) => c.id === 'kinds')!.data!.labels.some((l) => l.startsWith(HOSTILE))).toBe(true);
        const failures = h.prepare('SELECT stage, COUNT(*) n FROM failures WHERE round_id = ? GROUP BY stage').all(round.id) as { stage: string; n: number }[];
        expect(failures.find((f) => f.stage === 'label')!.n).toBeGreaterThanOrEqual(1);
        expect(charts.find((c) => c.id === 'failures')!.data!.datasets[0]!.data).toEqual(
          FAILURE_STAGES.map((s) => failures.find((f) => f.stage === s)?.n ?? 0),
        );
      } finally {
        await p.page.close();
      }
    } finally {
      h.close();
    }
  });
});

describe('rlaifv report of a round with failures', () => {
  test('failures a real round recorded are listed by stage with their reasons', async () => {
    // Three good prompts and two bad lines, run with --on-error skip: the bad lines become input failures.
    const dir = tempDir();
    const lines = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').slice(0, 3).map((l) => {
      const p = JSON.parse(l) as { image: string };
      return JSON.stringify({ ...p, image: path.join(DEV, p.image) });
    });
    lines.push('{"id": "broken", "image": "missing.png", "question": "Where?"}', '{not json');
    const prompts = path.join(dir, 'prompts.jsonl');
    writeFileSync(prompts, lines.join('\n') + '\n');
    const r = await runDemoRound({ limit: 10, dbFile: path.join(dir, 'f.sqlite'), overrides: { prompts, samples: 3 } });
    try {
      const stored = r.db.prepare('SELECT reason FROM failures WHERE round_id = ? AND stage = ?').all(r.round.id, 'input') as { reason: string }[];
      expect(stored.length).toBe(2);
      const d = gatherReport(r.db, r.round.id);
      expect(d.counts.failures).toBe(2);
      expect(d.failures[0]!.stage).toBe('input');
      expect(d.failures[0]!.count).toBe(2);
      expect(d.failures[0]!.reasons.map((x) => x.reason).sort()).toEqual(stored.map((x) => x.reason).sort());
      expect(d.failures[0]!.reasons.map((x) => x.example_item).sort()).toEqual([`${prompts}:4`, `${prompts}:5`]);
      const html = renderReportHtml(d, reportCharts(d), chartJsSource());
      for (const x of stored) expect(html).toContain(escapeHtml(x.reason));
      expect(html).toContain('<h3>input: 2</h3>');
    } finally {
      r.db.close();
    }
  });
});

describe('rlaifv report (the command)', () => {
  const report = async (...args: string[]) => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    registerReport(program);
    await program.parseAsync(['report', '--quiet', ...args], { from: 'user' });
  };

  test('writes the latest round to --out by a rename, leaving no temp file', async () => {
    const dir = path.join(tempDir(), 'new', 'folder');
    const out = path.join(dir, 'r.html');
    await report('--db', dbFile, '--out', out);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`rlaifv round ${round.id} report`);
    expect(readdirSync(dir)).toEqual(['r.html']);
    await report('--db', dbFile, '--out', out, '--round', String(round.id));
    expect(readdirSync(dir)).toEqual(['r.html']);
  });

  test('no such round and no database are input errors (exit 2) that say what is wrong', async () => {
    const out = path.join(tempDir(), 'r.html');
    await expect(report('--db', dbFile, '--out', out, '--round', '99')).rejects.toMatchObject({
      name: 'InputError',
      message: expect.stringMatching(/^No round 99 in .*round\.sqlite \(the latest is round 1\)\.$/),
    });
    const missing = path.join(tempDir(), 'none.sqlite');
    await expect(report('--db', missing, '--out', out)).rejects.toMatchObject({
      name: 'InputError',
      message: `No database at ${missing}; run \`rlaifv run\` first or pass --db.`,
    });
    expect(readdirSync(path.dirname(missing))).toEqual([]);
    expect(readdirSync(path.dirname(out))).toEqual([]);
  });

  test('--round next is refused: a report reads an existing round', async () => {
    await expect(report('--db', dbFile, '--round', 'next')).rejects.toMatchObject({
      code: 'commander.invalidArgument',
      message: expect.stringMatching(/a report reads an existing round/),
    });
  });
});
