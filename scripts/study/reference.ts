// Reference log-probs measured (issue 21, OPA-DPO's on-policy point): a round of the shapes policy with
// pair.reference_logprobs, then
//  1. how far the pairing-time log-probs (TypeScript, onnxruntime, double-precision log-softmax) are from PyTorch's
//     (the shapes trainer's own functions on the same weights): max and 99th percentile of |ONNX − torch| per token,
//     per answer sum and per mean; the sums against the trainer's own reference pass exactly as it trains on them;
//     and how often rounding to d decimals would still tell the two apart (why rounding cannot promise equal bytes);
//  2. the trainer's wall time with and without stored reference log-probs, on the same pairs file in one run, and
//     whether the checkpoints are the same bytes (stored values = the trainer's own pass, via --write-reference), and
//     what the pairing-time (ONNX) values give.
// Usage: npx tsx scripts/study/reference.ts [--limit 200] [--samples 10] [--epochs 2] [--batch-size 32] [--repeats 3]
//        [--out tmp/study-reference]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb } from '../../src/store/index.js';
import { pull } from '../../src/export/pull.js';
import { hashCheckpoint } from '../../src/util/checkpoint.js';
import { roundOnPolicy } from '../../src/eval/on-policy.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const num = (name: string, dflt: number) => Number(opt(name) ?? dflt);
const limit = num('--limit', 200);
const samples = num('--samples', 10);
const epochs = num('--epochs', 2);
const batch = num('--batch-size', 32);
const repeats = num('--repeats', 3);
const out = path.resolve(opt('--out') ?? path.join(ROOT, 'tmp', 'study-reference'));
const POLICY = path.join(ROOT, 'models', 'shapes-policy');
const DPO = path.join(ROOT, 'scripts', 'shapes', 'dpo.py');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const dbFile = path.join(out, 'r.sqlite');
const { config } = loadConfig(undefined, { db: dbFile, seed: 0, workers: 2, samples });
config.pair.reference_logprobs = true;
let t0 = performance.now();
await runRound(config, { choice: 'latest', stages: STAGES, limit });
const roundSeconds = (performance.now() - t0) / 1000;
const db = openDb(dbFile);
const onnxPairs = path.join(out, 'pairs-onnx.jsonl');
await pull(db, { consumer: 'study', rounds: 'all', format: 'trl', out: onnxPairs, referenceLogprobs: true }, dbFile);
const stageSeconds = db.prepare("SELECT stage, SUM(seconds) AS s, SUM(model_seconds) AS m FROM stage_runs GROUP BY stage").all();
const answers = db
  .prepare(
    `SELECT c.id, c.prompt_id, c.text, p.question, p.history_json, i.path AS image, a.sum, a.tokens, a.per_token_json
     FROM answer_logprobs a JOIN candidates c ON c.id = a.candidate_id JOIN prompts p ON p.id = c.prompt_id JOIN images i ON i.id = p.image_id
     ORDER BY c.prompt_id, c.id`,
  )
  .all() as { id: string; prompt_id: string; text: string; question: string; history_json: string | null; image: string; sum: number; tokens: number; per_token_json: string }[];
const onPolicy = roundOnPolicy(db, 1);
db.close();

// 1. ONNX vs torch, every stored answer (pairs' sides and their siblings), each prompt's answers in one batch.
const byPrompt = new Map<string, typeof answers>();
for (const a of answers) (byPrompt.get(a.prompt_id) ?? byPrompt.set(a.prompt_id, []).get(a.prompt_id)!).push(a);
const groups = [...byPrompt.values()];
const py = spawnSync('/usr/bin/python3', [path.join(ROOT, 'tests', 'helpers', 'dpo-logps.py')], {
  input: JSON.stringify({
    model: POLICY,
    items: groups.map((g) => ({ image: g[0]!.image, question: g[0]!.question, history: g[0]!.history_json ? JSON.parse(g[0]!.history_json) : [], answers: g.map((a) => a.text) })),
  }),
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
if (py.status !== 0) throw new Error(`dpo-logps.py failed: ${py.stderr}`);
const torch = JSON.parse(py.stdout) as { sum: number; tokens: number; per_token: number[] }[][];
const dTok: number[] = [];
const dSum: number[] = [];
const dMean: number[] = [];
let tokenMismatch = 0;
groups.forEach((g, i) =>
  g.forEach((a, j) => {
    const t = torch[i]![j]!;
    const mine = JSON.parse(a.per_token_json) as number[];
    if (t.tokens !== a.tokens) return void tokenMismatch++;
    mine.forEach((v, k) => dTok.push(Math.abs(v - t.per_token[k]!)));
    dSum.push(Math.abs(a.sum - t.sum));
    dMean.push(Math.abs(a.sum / a.tokens - t.sum / t.tokens));
  }),
);
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, max: s.at(-1) ?? 0, p99: s[Math.floor(0.99 * (s.length - 1))] ?? 0, median: s[Math.floor(0.5 * (s.length - 1))] ?? 0 };
};

// 2. The trainer: its own pass written out, then the same file with and without using the stored values.
function train(pairs: string, name: string, extra: string[]): { seconds: number; reference: string; reference_seconds: number; loss: number[]; dir: string } {
  const dir = path.join(out, name);
  const t = performance.now();
  const r = spawnSync('/usr/bin/python3', [DPO, '--pairs', pairs, '--policy', POLICY, '--out', dir, '--seed', '1', '--epochs', String(epochs), '--batch-size', String(batch), '--json', ...extra], { encoding: 'utf8' });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`dpo.py ${name} failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { reference: string; reference_seconds: number; epochs: { loss: number }[] };
  return { seconds, reference: j.reference, reference_seconds: j.reference_seconds, loss: j.epochs.map((e) => e.loss), dir };
}
const torchPairs = path.join(out, 'pairs-torch.jsonl');
const own = train(onnxPairs, 'own', ['--reference', 'compute', '--write-reference', torchPairs]);
const rows = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ref_chosen_logps: number; ref_rejected_logps: number });
const trainerSums = rows(torchPairs).flatMap((r, i) => {
  const o = rows(onnxPairs)[i]!;
  return [Math.abs(r.ref_chosen_logps - o.ref_chosen_logps), Math.abs(r.ref_rejected_logps - o.ref_rejected_logps)];
});
// Rounding both sides to d decimals: the share of sums that still differ (each such pair changes the loss's bits).
const rounding = Object.fromEntries(
  [2, 3, 4, 5].map((d) => {
    const f = 10 ** d;
    const o = rows(onnxPairs);
    const differ = rows(torchPairs).filter((r, i) => Math.round(r.ref_chosen_logps * f) !== Math.round(o[i]!.ref_chosen_logps * f) || Math.round(r.ref_rejected_logps * f) !== Math.round(o[i]!.ref_rejected_logps * f)).length;
    return [`${d} decimals`, { pairs_that_differ: differ, of: o.length }];
  }),
);
const timings: { compute: number[]; stored: number[]; computeRef: number[] } = { compute: [], stored: [], computeRef: [] };
let same: boolean | null = null;
for (let k = 0; k < repeats; k++) {
  // Alternating, so neither side always runs on a warmer cache.
  const order = k % 2 ? (['stored', 'compute'] as const) : (['compute', 'stored'] as const);
  const got: Record<string, ReturnType<typeof train>> = {};
  for (const which of order) {
    got[which] = train(torchPairs, `${which}-${k}`, which === 'compute' ? ['--reference', 'compute'] : ['--reference', 'stored']);
    timings[which].push(got[which]!.seconds);
    if (which === 'compute') timings.computeRef.push(got[which]!.reference_seconds);
  }
  const eq = hashCheckpoint(got.compute!.dir) === hashCheckpoint(got.stored!.dir);
  same = same === null ? eq : same && eq;
}
const onnxStored = train(onnxPairs, 'onnx-stored', ['--reference', 'stored']);
const weights = (d: string) => readFileSync(path.join(d, 'onnx', 'decoder_model_merged.onnx'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const result = {
  round: { limit, samples, seconds: roundSeconds, stages: stageSeconds, answers_with_logprobs: answers.length, pairs: rows(onnxPairs).length },
  onnx_vs_torch: {
    per_token: stat(dTok),
    per_sum: stat(dSum),
    per_mean: stat(dMean),
    answers_whose_token_counts_differ: tokenMismatch,
    pair_sums_vs_trainer_pass: stat(trainerSums),
    rounding,
  },
  trainer: {
    epochs,
    batch_size: batch,
    repeats,
    seconds_compute: timings.compute,
    seconds_stored: timings.stored,
    reference_pass_seconds: timings.computeRef,
    // Each repeat's stored run over its compute run (run back to back), and the compute run's share in its own pass:
    // the second is measured inside one process, so other load on the machine moves it less.
    ratio_stored_over_compute: timings.stored.map((x, i) => x / timings.compute[i]!),
    median_ratio: median(timings.stored.map((x, i) => x / timings.compute[i]!)),
    reference_pass_share: timings.computeRef.map((x, i) => x / timings.compute[i]!),
    byte_identical_checkpoints: same,
    onnx_stored: {
      same_weights_as_own_pass: weights(onnxStored.dir).equals(weights(own.dir)),
      loss: onnxStored.loss,
      loss_own_pass: own.loss,
      max_loss_difference: Math.max(...onnxStored.loss.map((l, i) => Math.abs(l - own.loss[i]!))),
    },
  },
  on_policy: onPolicy && { pairs: onPolicy.pairs, median_percentile: onPolicy.median_percentile, off_policy: onPolicy.off_policy, rule: onPolicy.rule },
};
writeFileSync(path.join(out, 'results.json'), JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result, null, 2));
