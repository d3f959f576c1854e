// Measures the tiny models for their model cards, through rlaifv's own loading code:
//   labeler: accuracy of argmax(p_yes, p_no) on data/shapes/test/questions.jsonl, by form, and calibration;
//   policy: share of false claims at temperature 0.7 vs greedy on the test split, judged by the truth checker;
//   policy-fire: the same, and its correction rate after feedback through the real CLI (`rlaifv eval --policy
//   models/shapes-policy-fire --feedback …`, both levels and providers, and the truth's feedback with noise).
// Usage: npx tsx scripts/measure-models.ts [--only labeler|policy|policy-fire] [--prompts N] [--samples N] [--json FILE]
// With --only, --json FILE keeps FILE's other models' entries as they are.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LlavaModel, readImage } from '../src/backends/local/llava.js';
import { yesNoFromLogits, yesNoTokenIds } from '../src/feedback/yes-no.js';
import { divideRules } from '../src/divide/rules.js';
import { checkStatement, parseTruth } from '../src/shapes/index.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST = path.join(ROOT, 'data', 'shapes', 'test');
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;

async function labeler() {
  const m = await LlavaModel.load(path.join(ROOT, 'models', 'shapes-labeler'), { threads: 2 });
  const ids = yesNoTokenIds(m.vocabulary());
  const qs = readFileSync(path.join(TEST, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const byForm: Record<string, { n: number; right: number }> = {};
  const bins = Array.from({ length: 10 }, () => ({ n: 0, p: 0, yes: 0 }));
  let right = 0;
  let pRight = 0;
  let mass = 0;
  for (const q of qs) {
    const img = await readImage(path.join(TEST, q.image));
    const r = yesNoFromLogits(await m.firstTokenLogits(img, `${q.question} Please answer yes or no.`), ids);
    const isYes = q.answer === 'yes';
    const ok = r.pYes > r.pNo === isYes;
    right += ok ? 1 : 0;
    const py = r.pYes / (r.pYes + r.pNo);
    pRight += isYes ? py : 1 - py;
    mass += r.pYes + r.pNo;
    (byForm[q.form] ??= { n: 0, right: 0 }).n++;
    byForm[q.form]!.right += ok ? 1 : 0;
    const b = bins[Math.min(9, Math.floor(py * 10))]!;
    b.n++;
    b.p += py;
    b.yes += isYes ? 1 : 0;
  }
  await m.dispose();
  return {
    questions: qs.length,
    accuracy: right / qs.length,
    mean_p_right: pRight / qs.length,
    mean_yes_no_mass: mass / qs.length,
    by_form: Object.fromEntries(Object.entries(byForm).map(([f, v]) => [f, { n: v.n, accuracy: v.right / v.n }])),
    reliability: bins.map((b, i) => ({ bin: `${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}`, n: b.n, mean_p_yes: b.n ? b.p / b.n : null, share_yes: b.n ? b.yes / b.n : null })),
  };
}

async function policy(nPrompts: number, samples: number, folder = 'shapes-policy') {
  const m = await LlavaModel.load(path.join(ROOT, 'models', folder), { threads: 2 });
  const prompts = readFileSync(path.join(TEST, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).slice(0, nPrompts);
  const tally = (t: { claims: number; false: number; unknown: number; skipped: number }, truth: ReturnType<typeof parseTruth>, text: string, question: string) => {
    const d = divideRules(text, { question });
    t.skipped += d.skipped.length;
    let f = 0;
    for (const c of d.claims) {
      const v = checkStatement(truth, c.claim);
      t.claims++;
      if (v === 'false') f++;
      if (v === 'unknown') t.unknown++;
    }
    t.false += f;
    return f;
  };
  const sampled = { claims: 0, false: 0, unknown: 0, skipped: 0 };
  const greedy = { claims: 0, false: 0, unknown: 0, skipped: 0 };
  let varied = 0;
  let finishedStop = 0;
  let total = 0;
  for (const p of prompts) {
    const truth = parseTruth(p.meta.truth);
    const img = await readImage(path.join(TEST, p.image));
    const perSample: number[] = [];
    for (let s = 0; s < samples; s++) {
      const r = await m.sample(img, p.question, { seed: 1000 + s, temperature: 0.7, topP: 1, maxNewTokens: 120 });
      perSample.push(tally(sampled, truth, r.text, p.question));
      finishedStop += r.finishReason === 'stop' ? 1 : 0;
      total++;
    }
    if (new Set(perSample).size > 1) varied++;
    const g = await m.sample(img, p.question, { seed: 0, temperature: 0, topP: 1, maxNewTokens: 120 });
    tally(greedy, truth, g.text, p.question);
  }
  await m.dispose();
  return {
    prompts: prompts.length,
    samples_per_prompt: samples,
    sampled_t07: { ...sampled, false_share: sampled.false / sampled.claims, claims_per_answer: sampled.claims / total },
    greedy: { ...greedy, false_share: greedy.false / greedy.claims },
    prompts_whose_samples_differ_in_false_claims: varied / prompts.length,
    finished_with_eos: finishedStop / total,
  };
}

/** `rlaifv eval --policy models/shapes-policy-fire --feedback …` on the test split, one store for every run. */
function feedback() {
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'rlaifv-fire-')), 'fire.sqlite');
  const run = (level: string, provider: string, noise: number) => {
    const args = ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts'), 'eval', '--policy', 'models/shapes-policy-fire', '--feedback', level,
      '--provider', provider, '--feedback-noise', String(noise), '--max-turns', '3', '--db', db, '--json', '--quiet'];
    const f = JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })).feedback;
    delete f.by_kind;
    process.stderr.write(`feedback ${level} ${provider} noise ${noise}: correction ${f.correction_rate}, after 3 turns ${f.correct_after_turn[2]}, harm ${f.harm_rate}\n`);
    return f;
  };
  const runs = [];
  for (const provider of ['truth', 'labeler']) for (const level of ['detailed', 'simple']) runs.push(run(level, provider, 0));
  for (const noise of [0.1, 0.2, 0.3]) for (const level of ['detailed', 'simple']) runs.push(run(level, 'truth', noise));
  return runs;
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const nPrompts = arg('--prompts', 500);
const nSamples = arg('--samples', 10);
const out: Record<string, unknown> = only && jsonOut && existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
if (!only || only === 'labeler') out.labeler = await labeler();
if (!only || only === 'policy') out.policy = await policy(nPrompts, nSamples);
if (!only || only === 'policy-fire') out['policy-fire'] = { ...(await policy(nPrompts, nSamples, 'shapes-policy-fire')), feedback: feedback() };
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(out, null, 2) + '\n');
