// Best-of-N with the DPO model as the reward, measured against the shapes truth (RLAIF-V supplement, Tables 6–7): on
// the first K held-out prompts of the test split, a trained checkpoint samples N answers per prompt (the seeds a round
// with --seed gives them), every answer is scored under the checkpoint and its reference, and the false-claim rate
// (rules divider + truth checker, as `rlaifv eval --policy` judges a policy) is reported for: all N samples, the
// answer best-of-N picks by the summed reward, by the per-token (mean) reward, the sample the policy finds likeliest
// (no reference), the greedy answer, and the truth's own pick (fewest false claims: the ceiling of any reranker). Also how often each reward orders two answers of a prompt
// as their false-claim counts do.
// Usage: npx tsx scripts/study/bon.ts --policy DIR [--ref models/shapes-policy] [--k 200] [--n 16] [--beta 0.1]
//        [--temperature 0.7] [--seed 0] [--workers N] [--json FILE]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalGenerator, LocalSequenceScorer } from '../../src/backends/local/index.js';
import { BON_DEFAULTS, bestOfOne, type BonAnswer, type BonBackends } from '../../src/pipeline/bon.js';
import { divideRules } from '../../src/divide/rules.js';
import { pct, table } from '../../src/eval/render.js';
import { policyFigures, type PolicyFigures } from '../../src/eval/policy.js';
import { judgeAnswer } from '../../src/eval/truth.js';
import type { EvalAnswer, EvalPrompt } from '../../src/eval/types.js';
import { wordCount } from '../../src/feedback/words.js';
import { readInput } from '../../src/input/formats.js';
import type { InputPrompt } from '../../src/input/prompts.js';
import { configSchema } from '../../src/config/schema.js';
import { bestIndex, dpoReward, type RewardVariant } from '../../src/methods/dpo-reward.js';
import { parseTruth, type Truth } from '../../src/shapes/truth.js';
import { mapLimit } from '../../src/progress.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const num = (name: string, dflt: number) => {
  const v = opt(name);
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${v}"`);
  return n;
};
const policyDir = opt('--policy');
if (!policyDir) throw new Error('--policy DIR is required (a trained checkpoint; --ref is the model it started from)');
const refDir = opt('--ref') ?? path.join(ROOT, 'models', 'shapes-policy');
const K = num('--k', 200);
const settings = { ...BON_DEFAULTS, n: num('--n', 16), beta: num('--beta', 0.1), temperature: num('--temperature', 0.7), seed: num('--seed', 0), reward: 'sum' as const };
const workers = opt('--workers') ? num('--workers', 1) : null;
const PROMPTS = path.join(ROOT, 'data', 'shapes', 'test', 'prompts.jsonl');

/** An answer divided by the rules divider, as the evaluation stores it. */
function evalAnswer(id: string, index: number, question: string, text: string): EvalAnswer {
  const d = divideRules(text, { question });
  return {
    id,
    sampleIndex: index,
    text,
    words: wordCount(text),
    division: { skipped: d.skipped },
    claims: d.claims.map((c, idx) => ({ idx, sentence: c.sentence, claim: c.claim, questionId: '', question: c.question, pYes: null, pNo: null })),
    score: null,
  };
}

interface Scored {
  prompt: InputPrompt;
  truth: Truth;
  kind: string | null;
  answers: (BonAnswer & { eval: EvalAnswer; falses: number; mean: number })[];
  greedy: EvalAnswer;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const prompts: InputPrompt[] = [];
  for await (const r of readInput(PROMPTS, 'auto', configSchema.parse({}).limits, { imagesDir: path.join(ROOT, 'tmp', 'study-bon.images') })) {
    if (prompts.length >= K) break;
    if ('problem' in r) throw new Error(`${r.problem.source}: ${r.problem.reason}`);
    prompts.push(r.prompt);
  }
  const pool = new WorkerPool(workers);
  const b: BonBackends = {
    generator: new LocalGenerator(pool, policyDir!),
    policy: new LocalSequenceScorer(pool, policyDir!),
    reference: new LocalSequenceScorer(pool, refDir),
  };
  let done = 0;
  let scored: Scored[];
  try {
    scored = await mapLimit(prompts, pool.size.workers, async (p): Promise<Scored> => {
      const row = await bestOfOne({ id: p.id, imagePath: p.image.path, question: p.question, history: p.history }, b, settings);
      const [g] = await b.generator.generate({
        imagePath: p.image.path,
        question: p.question,
        history: p.history,
        samples: [{ index: 0, seed: 0 }],
        decoding: { temperature: 0, top_p: 1, max_new_tokens: settings.max_new_tokens },
      });
      if (!g || 'error' in g) throw new Error(`${p.id}: greedy answer failed: ${g && 'error' in g ? g.error : 'none'}`);
      const meta = p.meta as { truth: unknown; kind?: string };
      const truth = parseTruth(meta.truth);
      const answers = row.answers.map((a) => {
        if (a.reward === null) throw new Error(`${p.id} answer ${a.index}: ${a.error}`);
        const e = evalAnswer(`${p.id}#${a.index}`, a.index, p.question, a.text!);
        const mean = dpoReward({ sum: a.policy_logprob!, tokens: a.policy_tokens! }, { sum: a.reference_logprob!, tokens: a.reference_tokens! }, settings.beta, 'mean');
        return { ...a, eval: e, falses: judgeAnswer(truth, e).nFalse, mean };
      });
      if (++done % 20 === 0) process.stderr.write(`${done}/${prompts.length} prompts\n`);
      return { prompt: p, truth, kind: meta.kind ?? null, answers, greedy: evalAnswer(`${p.id}#greedy`, 0, p.question, g.text) };
    });
  } finally {
    await pool.close();
  }

  const set = (pick: (s: Scored) => EvalAnswer[]): PolicyFigures =>
    policyFigures(scored.map((s): EvalPrompt => ({ id: s.prompt.id, question: s.prompt.question, kind: s.kind, truth: s.truth, paired: false, answers: pick(s) })));
  const by = (v: RewardVariant) => (s: Scored) => [s.answers[bestIndex(s.answers.map((a) => (v === 'sum' ? a.reward : a.mean)))]!.eval];
  const rows: [string, PolicyFigures][] = [
    [`sampling (all ${settings.n} samples, T ${settings.temperature})`, set((s) => s.answers.map((a) => a.eval))],
    [`best-of-${settings.n}, reward sum`, set(by('sum'))],
    [`best-of-${settings.n}, reward mean`, set(by('mean'))],
    // A baseline without the reference: the sample the policy itself finds likeliest.
    [`best-of-${settings.n}, likeliest (max log π)`, set((s) => [s.answers[bestIndex(s.answers.map((a) => a.policy_logprob))]!.eval])],
    ['greedy', set((s) => [s.greedy])],
    [`best-of-${settings.n}, truth's pick (fewest false claims)`, set((s) => [s.answers.reduce((x, y) => (y.falses < x.falses ? y : x)).eval])],
  ];

  // How often a reward orders two answers of one prompt as their false-claim counts do (ties in either left out).
  const agreement = (v: RewardVariant) => {
    let agree = 0;
    let pairs = 0;
    for (const s of scored) {
      const as = s.answers;
      for (let i = 0; i < as.length; i++) {
        for (let j = i + 1; j < as.length; j++) {
          const ri = v === 'sum' ? as[i]!.reward! : as[i]!.mean;
          const rj = v === 'sum' ? as[j]!.reward! : as[j]!.mean;
          if (as[i]!.falses === as[j]!.falses || ri === rj) continue;
          pairs++;
          if (as[i]!.falses < as[j]!.falses === ri > rj) agree++;
        }
      }
    }
    return { agree, pairs, rate: pairs ? agree / pairs : null };
  };
  const agree = { sum: agreement('sum'), mean: agreement('mean') };

  const head = ['', 'false claims', 'answers w/ false', 'true claims/answer', 'words', 'answers', 'judged claims'];
  const cells = rows.map(([name, f]) => [
    name,
    pct(f.false_claim_rate),
    pct(f.response_hallucination_rate),
    f.true_claims_per_answer?.toFixed(2) ?? '–',
    f.mean_words?.toFixed(1) ?? '–',
    String(f.answers),
    String(f.judged_claims),
  ]);
  const out =
    `best-of-${settings.n} with the DPO reward (β ${settings.beta}): policy ${policyDir}, reference ${refDir}, ` +
    `first ${prompts.length} prompts of data/shapes/test, seed ${settings.seed}\n\n` +
    table([head, ...cells]) +
    `\n\n  reward orders two answers as their false-claim counts do: sum ${pct(agree.sum.rate)} of ${agree.sum.pairs} pairs, ` +
    `mean ${pct(agree.mean.rate)} of ${agree.mean.pairs}\n  ${((performance.now() - t0) / 1000).toFixed(1)} s\n`;
  process.stdout.write(out);
  const json = opt('--json');
  if (json) {
    writeFileSync(json, JSON.stringify({ policy: policyDir, reference: refDir, prompts: prompts.length, settings, rows: Object.fromEntries(rows), agreement: agree }, null, 2) + '\n');
  }
}

await main();
