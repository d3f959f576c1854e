// The loop study's chart for the README: false-claim rate and true claims per answer of each arm, round by round,
// drawn by Chart.js in headless Chromium (Debian's chromium through playwright-core) from the study's JSON.
//
//   npx tsx scripts/study/loop-chart.ts OUT.png STUDY.json [MORE.json ...] [--arms a,b,c]
// Several study files are merged by arm (the first file that has an arm wins), so arms run apart chart together.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chartJsSource } from '../../src/report/index.js';

interface Figures {
  false_claim_rate: number | null;
  true_claims_per_answer: number | null;
}
interface ArmResult {
  arm: string;
  baseline: { sampled: Figures; greedy: Figures | null };
  rounds: { loop_round: number; eval: (Figures & { greedy: Figures | null }) | null }[];
}

const COLORS: Record<string, string> = {
  rejc: '#e15759', rejp: '#f28e2b', oracle: '#59a14f', random: '#9c9c9c', oneshot: '#4e79a7',
  holistic: '#b07aa1', 'dpo-reward': '#76b7b2', gate: '#edc948', 'holistic-judge': '#ff9da7',
  drop: '#8cd17d', overwrite: '#1f3a93', 'rejc-overwrite': '#a0522d',
};

const argv = process.argv.slice(2);
const armsAt = argv.indexOf('--arms');
const only = armsAt >= 0 ? argv.splice(armsAt, 2)[1]!.split(',') : null;
const [output, ...inputs] = argv;
if (!output || inputs.length === 0) throw new Error('usage: study-loop-chart.ts OUT.png STUDY.json [MORE.json ...] [--arms a,b]');
const byArm = new Map<string, ArmResult>();
for (const f of inputs) for (const r of (JSON.parse(readFileSync(f, 'utf8')) as { results: ArmResult[] }).results) if (!byArm.has(r.arm)) byArm.set(r.arm, r);
const results = only ? only.map((a) => byArm.get(a)).filter((r): r is ArmResult => !!r) : [...byArm.values()];
const rounds = Math.max(...results.map((r) => r.rounds.length));
const labels = Array.from({ length: rounds + 1 }, (_, i) => (i === 0 ? 'start' : `round ${i}`));
const series = (pick: (f: Figures) => number | null, scale: number) =>
  results.map((r) => ({
    label: r.arm === 'oneshot' ? 'one-shot (same pairs, once)' : r.arm,
    borderColor: COLORS[r.arm] ?? '#333',
    backgroundColor: COLORS[r.arm] ?? '#333',
    // One-shot trains once on all its pairs: its point sits at the last round (same pair count and steps as 4 rounds).
    data: r.arm === 'oneshot'
      ? [pick(r.baseline.sampled), ...Array(rounds - 1).fill(null), r.rounds[0]?.eval ? pick(r.rounds[0].eval) : null].map((v) => (v === null ? null : v * scale))
      : [pick(r.baseline.sampled), ...r.rounds.map((x) => (x.eval ? pick(x.eval) : null))].map((v) => (v === null ? null : v * scale)),
    spanGaps: true,
  }));
const greedy = results.find((r) => r.arm === 'rejc')?.baseline.greedy?.false_claim_rate ?? null;
const charts = [
  {
    type: 'line',
    data: {
      labels,
      datasets: [
        ...series((f) => f.false_claim_rate, 100),
        ...(greedy === null ? [] : [{ label: 'shipped policy, greedy', data: labels.map(() => greedy * 100), borderColor: '#000', borderDash: [6, 4], pointRadius: 0, backgroundColor: '#000' }]),
      ],
    },
    options: { animation: false, plugins: { title: { display: true, text: 'False claims of sampled answers on the test split (%)' } }, scales: { y: { beginAtZero: true } } },
  },
  {
    type: 'line',
    data: { labels, datasets: series((f) => f.true_claims_per_answer, 1) },
    options: { animation: false, plugins: { title: { display: true, text: 'True claims per answer' } }, scales: { y: { beginAtZero: true } } },
  },
];
const html = `<!doctype html><html><body style="margin:0;background:#fff;font-family:sans-serif">
<div style="display:flex;width:1200px"><div style="width:600px;height:380px"><canvas id="a"></canvas></div><div style="width:600px;height:380px"><canvas id="b"></canvas></div></div>
<script>${chartJsSource()}</script>
<script>const c = ${JSON.stringify(charts)}; new Chart(document.getElementById('a'), c[0]); new Chart(document.getElementById('b'), c[1]);</script>
</body></html>`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'rlaifv-chart-'));
const page = path.join(dir, 'chart.html');
writeFileSync(page, html);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const p = await browser.newPage({ viewport: { width: 1200, height: 380 }, deviceScaleFactor: 1 });
  await p.goto(`file://${page}`);
  await p.screenshot({ path: output, fullPage: true });
} finally {
  await browser.close();
}
process.stderr.write(`wrote ${output}\n`);
