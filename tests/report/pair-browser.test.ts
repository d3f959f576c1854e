// The report's pair browser on a real round (tiny models, real SQLite file) in headless Chromium from a file:// URL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Command } from 'commander';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { launchChromium, loadFile, type LoadedPage } from '../helpers/browser.js';
import { openDb, type Db, type RoundRow } from '../../src/store/index.js';
import { buildReport, DEFAULT_REPORT_PAIRS, samplePairIds } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { registerReport } from '../../src/cli/report.js';
import { questionForm } from '../../src/eval/truth.js';

const HOSTILE = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><!-- & "quotes" 'too'`;
const SAMPLE = 20;

let db: Db;
let round: RoundRow;
let dbFile: string;
let browser: Browser;
let sampledFile: string;
let allFile: string;

beforeAll(async () => {
  // 100 prompts: the smallest demo round whose length balance drops pairs (2 of 172), so both flags are real.
  ({ db, round, file: dbFile } = await runDemoRound({ limit: 100 }));
  sampledFile = path.join(tempDir(), 'sampled.html');
  writeFileAtomic(sampledFile, buildReport(db, round.id, { pairs: SAMPLE }));
  allFile = path.join(tempDir(), 'all.html');
  writeFileAtomic(allFile, buildReport(db, round.id));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  db?.close();
});

const storePairs = () => (db.prepare('SELECT COUNT(*) n FROM pairs WHERE round_id = ?').get(round.id) as { n: number }).n;
const shownIds = (p: LoadedPage) => p.page.$$eval('article.pair:not([hidden])', (as) => as.map((a) => a.getAttribute('data-pair-id')!));

async function open(file: string, run: (p: LoadedPage) => Promise<void>) {
  const p = await loadFile(browser, file);
  try {
    await run(p);
    expect(p.errors).toEqual([]);
    expect(p.requests).toEqual([p.url]);
  } finally {
    await p.page.close();
  }
}

describe('the pair browser', () => {
  test('samples N pairs with the round seed, the same ones every time, and says how many of how many', async () => {
    const total = storePairs();
    expect(total).toBeGreaterThan(SAMPLE);
    expect(total).toBeLessThan(DEFAULT_REPORT_PAIRS);
    const a = samplePairIds(db, round, SAMPLE);
    expect(a.total).toBe(total);
    expect(new Set(a.ids).size).toBe(SAMPLE);
    expect(samplePairIds(db, round, SAMPLE).ids).toEqual(a.ids);
    expect(samplePairIds(db, { ...round, seed: round.seed + 1 }, SAMPLE).ids).not.toEqual(a.ids);
    expect(samplePairIds(db, round, total + 5).ids.length).toBe(total);

    await open(sampledFile, async (p) => {
      expect(await shownIds(p)).toEqual(a.ids);
      expect(await p.page.textContent('#pairs p')).toContain(`Shows ${SAMPLE} of the round's ${total} pairs, sampled with the round's seed (${round.seed})`);
      expect(await p.page.textContent('#pb-count')).toBe(`showing ${SAMPLE} of ${SAMPLE}`);
    });
    await open(allFile, async (p) => {
      expect((await shownIds(p)).length).toBe(total);
      expect(await p.page.textContent('#pairs p')).toContain(`Shows all ${total} of the round's pairs`);
    });
  });

  test("one pair's texts, claim verdicts, p(yes) and p(no) are the store's", async () => {
    await open(sampledFile, async (p) => {
      const id = (await shownIds(p))[3]!;
      const pair = db
        .prepare(
          `SELECT ch.text chosen, rj.text rejected, pr.chosen_id, pr.rejected_id, pr.margin, pr.balance_kept FROM pairs pr
           JOIN candidates ch ON ch.id = pr.chosen_id JOIN candidates rj ON rj.id = pr.rejected_id WHERE pr.id = ?`,
        )
        .get(id) as { chosen: string; rejected: string; chosen_id: string; rejected_id: string; margin: number; balance_kept: number };
      const card = p.page.locator(`article[data-pair-id="${id}"]`);
      expect(await card.locator('.answer.chosen .text').textContent()).toBe(pair.chosen);
      expect(await card.locator('.answer.rejected .text').textContent()).toBe(pair.rejected);
      expect(await card.locator('.margin').textContent()).toBe(`margin ${pair.margin.toFixed(3)}`);
      expect(await card.getAttribute('data-kept')).toBe(pair.balance_kept === 1 ? 'kept' : 'dropped');
      // Independent SQL; the round uses the scripts rule: rejected unless p_yes > p_no.
      expect(round.accept_rule).toBe('scripts');
      const claims = db.prepare(
        `SELECT cl.sentence, cl.claim, l.p_yes, l.p_no FROM claims cl
         JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE cl.candidate_id = ? ORDER BY cl.idx`,
      );
      for (const [side, cid] of [['chosen', pair.chosen_id], ['rejected', pair.rejected_id]] as const) {
        const rows = claims.all(round.labeler_model, cid) as { sentence: string; claim: string; p_yes: number; p_no: number }[];
        expect(rows.length).toBeGreaterThan(0);
        const li = card.locator(`.answer.${side} ol.claims li`);
        expect(await li.locator('.claim').allTextContents()).toEqual(rows.map((r) => r.claim));
        expect(await li.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-verdict')))).toEqual(
          rows.map((r) => (r.p_yes > r.p_no ? 'accepted' : 'rejected')),
        );
        expect(await li.locator('.p-yes').allTextContents()).toEqual(rows.map((r) => r.p_yes.toFixed(3)));
        expect(await li.locator('.p-no').allTextContents()).toEqual(rows.map((r) => r.p_no.toFixed(3)));
        // Each claim's sentence is marked in the answer, red when rejected.
        const marks = await card.locator(`.answer.${side} .text mark`).evaluateAll((ms) => ms.map((m) => [m.textContent, m.className]));
        for (const r of rows) expect(marks).toContainEqual([r.sentence, r.p_yes > r.p_no ? 'acc' : 'rej']);
      }
      // The difficulty lens, recomputed here from the store's texts and verdicts: the deciding claim is the rejected
      // side's first rejected claim the chosen side does not make.
      const sideRows = (cid: string) => (claims.all(round.labeler_model, cid) as { claim: string; p_yes: number; p_no: number }[]);
      const norm = (t: string) => t.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
      const chosenSaid = new Set(sideRows(pair.chosen_id).map((r) => norm(r.claim)));
      const rejectedClaims = sideRows(pair.rejected_id).filter((r) => !(r.p_yes > r.p_no));
      const deciding = (rejectedClaims.find((r) => !chosenSaid.has(norm(r.claim))) ?? rejectedClaims[0])!.claim;
      expect(await card.getAttribute('data-deciding')).toBe(questionForm(deciding));
      expect(await card.locator('.difficulty').textContent()).toMatch(new RegExp(`^decided by a ${questionForm(deciding)} claim; claim sets differ by \\d+, \\d+ words edited$`));
      // The rejected answer of a pair has the lower score, with at least one rejected claim under REJ-C.
      expect(await card.locator('.answer.rejected li[data-verdict="rejected"]').count()).toBeGreaterThan(0);
    });
  });

  test('filters by kind and by kept/dropped change what is shown', async () => {
    const rows = db
      .prepare(
        `SELECT pr.id, COALESCE(json_extract(p.meta_json, '$.kind'), 'other') kind, pr.balance_kept kept
         FROM pairs pr JOIN prompts p ON p.id = pr.prompt_id WHERE pr.round_id = ?`,
      )
      .all(round.id) as { id: string; kind: string; kept: number }[];
    const ids = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).map((r) => r.id).sort();
    expect(ids((r) => r.kept === 0).length).toBeGreaterThan(0);
    await open(allFile, async (p) => {
      const click = (bar: string, v: string) => p.page.click(`#${bar} button[data-value="${v}"]`);
      const visible = async () => (await shownIds(p)).sort();
      await click('pb-kind', 'counting');
      expect(await visible()).toEqual(ids((r) => r.kind === 'counting'));
      expect(await p.page.textContent('#pb-count')).toBe(`showing ${ids((r) => r.kind === 'counting').length} of ${rows.length}`);
      expect(await p.page.getAttribute('#pb-kind button[data-value="counting"]', 'aria-pressed')).toBe('true');
      await click('pb-kept', 'dropped');
      expect(await visible()).toEqual(ids((r) => r.kind === 'counting' && r.kept === 0));
      // An empty intersection says so rather than showing a blank list.
      expect(await p.page.isVisible('#pb-empty')).toBe(ids((r) => r.kind === 'counting' && r.kept === 0).length === 0);
      await click('pb-kind', 'all');
      const dropped = ids((r) => r.kept === 0);
      expect(await visible()).toEqual(dropped);
      expect(await p.page.locator('article.pair:not([hidden]) .badge.dropped').count()).toBe(dropped.length);
      await click('pb-kept', 'kept');
      expect(await visible()).toEqual(ids((r) => r.kept === 1));
      await click('pb-kept', 'all');
      expect((await visible()).length).toBe(rows.length);
      expect(await p.page.isVisible('#pb-empty')).toBe(false);
    });
  });

  test('images load from data: URIs, each embedded once, with no request; the truth is listed', async () => {
    const html = readFileSync(sampledFile, 'utf8');
    const images = db
      .prepare(
        `SELECT DISTINCT i.path FROM pairs pr JOIN prompts p ON p.id = pr.prompt_id JOIN images i ON i.id = p.image_id
         WHERE pr.id IN (SELECT value FROM json_each(?))`,
      )
      .pluck()
      .all(JSON.stringify(samplePairIds(db, round, SAMPLE).ids)) as string[];
    // Every sampled image's bytes once, and no image of an unsampled pair.
    for (const f of images) expect(html.split(readFileSync(f).toString('base64')).length - 1).toBe(1);
    expect(html.match(/data:image\/png;base64,/g)!.length).toBe(images.length);
    await open(sampledFile, async (p) => {
      const sizes = await p.page.$$eval('article.pair img', (is) => is.map((i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).complete]));
      expect(sizes.length).toBe(SAMPLE);
      for (const [w, complete] of sizes) {
        expect(complete).toBe(true);
        expect(w).toBe(64);
      }
      // The shapes world's prompts carry meta.truth: one line per object.
      const first = p.page.locator('article.pair').first();
      const id = await first.getAttribute('data-pair-id');
      const truth = JSON.parse(
        db.prepare(`SELECT json_extract(p.meta_json, '$.truth') t FROM pairs pr JOIN prompts p ON p.id = pr.prompt_id WHERE pr.id = ?`).pluck().get(id) as string,
      ) as { objects: { size: string; color: string; shape: string; position: string }[] };
      expect(await first.locator('ul.truth li').allTextContents()).toEqual(truth.objects.map((o) => `${o.size} ${o.color} ${o.shape}, ${o.position}`));
    });
  });

  test('an answer, history turn and kind with HTML special characters are shown as text', async () => {
    const copy = path.join(tempDir(), 'hostile.sqlite');
    db.exec(`VACUUM INTO '${copy}'`);
    const h = openDb(copy);
    const id = samplePairIds(db, round, SAMPLE).ids[0]!;
    try {
      const pair = h.prepare('SELECT prompt_id, chosen_id FROM pairs WHERE id = ?').get(id) as { prompt_id: string; chosen_id: string };
      const text = `${HOSTILE} ${(h.prepare('SELECT text FROM candidates WHERE id = ?').pluck().get(pair.chosen_id) as string)}`;
      h.prepare('UPDATE candidates SET text = ? WHERE id = ?').run(text, pair.chosen_id);
      const meta = JSON.parse(h.prepare('SELECT meta_json FROM prompts WHERE id = ?').pluck().get(pair.prompt_id) as string) as object;
      const history = [{ role: 'user', content: HOSTILE }, { role: 'assistant', content: 'Fine.' }];
      h.prepare('UPDATE prompts SET meta_json = ? WHERE id = ?').run(JSON.stringify({ ...meta, kind: HOSTILE, history }), pair.prompt_id);
      const file = path.join(tempDir(), 'hostile.html');
      writeFileAtomic(file, buildReport(h, round.id, { pairs: SAMPLE }));
      await open(file, async (p) => {
        expect(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
        expect(await p.page.locator('img').count()).toBe(SAMPLE);
        const card = p.page.locator(`article[data-pair-id="${id}"]`);
        expect(await card.locator('.answer.chosen .text').textContent()).toBe(text);
        // The claim's sentence is still found and marked after the text that was put before it.
        expect(await card.locator('.answer.chosen .text mark').count()).toBeGreaterThan(0);
        expect(await card.locator('.turn').allTextContents()).toEqual([`user${HOSTILE}`, 'assistantFine.']);
        expect(await card.getAttribute('data-kind')).toBe(HOSTILE);
        await p.page.click(`#pb-kind button[data-value="${HOSTILE.replace(/["\\]/g, '\\$&')}"]`);
        // The kind belongs to the prompt: every sampled pair of that prompt, and only those.
        const samePrompt = samplePairIds(db, round, SAMPLE).ids.filter(
          (x) => (h.prepare('SELECT prompt_id FROM pairs WHERE id = ?').pluck().get(x) as string) === pair.prompt_id,
        );
        expect((await shownIds(p)).sort()).toEqual(samePrompt.sort());
        expect(samePrompt).toContain(id);
      });
    } finally {
      h.close();
    }
  });
});

describe('rlaifv report --pairs', () => {
  const report = async (...args: string[]) => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    registerReport(program);
    await program.parseAsync(['report', '--quiet', '--db', dbFile, ...args], { from: 'user' });
  };

  test('--pairs 0 leaves the browser out; a bad --pairs is refused', async () => {
    const out = path.join(tempDir(), 'r.html');
    await report('--out', out, '--pairs', '0');
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('data:image/');
    expect(html).toContain('Pair browser off');
    await open(out, async (p) => {
      expect(await p.page.locator('article.pair').count()).toBe(0);
    });
    await report('--out', out, '--pairs', '3');
    await open(out, async (p) => {
      expect(await p.page.locator('article.pair').count()).toBe(3);
    });
    for (const bad of ['-1', 'many', '2.5']) {
      await expect(report('--out', out, '--pairs', bad)).rejects.toMatchObject({
        code: 'commander.invalidArgument',
        message: expect.stringMatching(/--pairs must be a whole number of pairs/),
      });
    }
  });
});
