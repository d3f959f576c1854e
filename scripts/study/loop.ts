// The loop study (README "The loop study"): iterative rounds of generate → feedback → DPO → evaluate, in arms that
// differ only in where the pairs come from, each measured on the held-out test split against the truth.
//
//   npx tsx scripts/study/loop.ts [--rounds 4] [--train FILE] [--limit N] [--eval-limit N] [--arms a,b] [--out DIR]
//                                 [--trainer-args "--lr 5e-5 --epochs 2"] [--max-pairs 2|all] [--json FILE] [--counts FILE]
//                                 [--select last|best] [--seed S] [--spans] [--policy DIR] [--feedback simple|detailed]
//
// Arms: rejc (the default method), rejp, oracle (the truth checker instead of the labeler, REJ-C rules), random (as
// many pairs as rejc made that round, between random distinct answers of a prompt), oneshot (rejc's total pair count,
// all from round 0's policy, trained once: the same number of steps); the feedback methods of "Feedback methods side
// by side": holistic (feedback.method holistic, cut to rejc's pair count), dpo-reward (divide in round 1, then the
// round's own policy as reward against the shipped one, cut to rejc's count) and gate (divide with the quality gate,
// τ 0.9, top-up 4); holistic-judge is holistic gated by a judge model (feedback.gate.judge, τ 0.9; the test server's
// judge, started here), cut to rejc's count. --counts FILE takes rejc's pair counts from an earlier run's --json instead
// of running rejc again. refine and rejc-refine: the refine editor's correction pairs (the policy's own revisions
// after the labeler's feedback) alone and beside rejc's, cut to rejc's count; --policy starts every arm from another
// folder (models/shapes-policy-fire), --feedback adds each round's correction rate. Each arm has its own store in --out, so their consumers and held-out sets never meet; a
// finished arm is read back, not rerun. Needs the train split: python3 scripts/shapes/build.py --only train.
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../../src/config/load.js';
import { configSchema, type Config } from '../../src/config/schema.js';
import { runLoop, type LoopResult } from '../../src/loop/index.js';
import type { FeedbackReport } from '../../src/eval/runs/correction.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { judgeAnswer, judgeRound } from '../../src/eval/truth.js';
import { pairRound } from '../../src/eval/pairs.js';
import { roundSetting } from '../../src/eval/report.js';
import type { EvalRound } from '../../src/eval/types.js';
import { roundPrompts, type Db } from '../../src/store/index.js';
import { getFormat } from '../../src/export/formats.js';
import { answerSpans } from '../../src/export/spans.js';
import type { ExportPair } from '../../src/store/deliveries.js';
import { createRng, hashSeed } from '../../src/feedback/rng.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../mimic/openai-server.js';

const ARMS = ['rejc', 'rejp', 'oracle', 'random', 'oneshot', 'holistic', 'dpo-reward', 'gate', 'holistic-judge', 'drop', 'overwrite', 'rejc-overwrite', 'refine', 'rejc-refine', 'tools'] as const;
/** Arms whose kept pairs are cut at random to rejc's count of the round (equal pair counts). */
const CUT_ARMS: readonly Arm[] = ['holistic', 'dpo-reward', 'holistic-judge', 'drop', 'overwrite', 'rejc-overwrite', 'refine', 'rejc-refine', 'tools'];
type Arm = (typeof ARMS)[number];

/**
 * holistic-judge's gate judge: the test server's (scripts/mimic/openai-server.ts), Anyprefer's prompt answered by the
 * rules divider and the real tiny labeler, standing where a served VLM judge stands.
 */
let judgeServer = null as TestServer | null;
function judgeConfig(url: string): NonNullable<Config['feedback']['gate']['judge']> {
  return configSchema.parse({ feedback: { gate: { threshold: 0.9, judge: { backend: { type: 'openai', model: 'rubric-judge', base_urls: [url] } } } } }).feedback.gate.judge!;
}

interface Args {
  rounds: number;
  train: string;
  limit: number | undefined;
  evalLimit: number | undefined;
  arms: Arm[];
  out: string;
  trainerArgs: string;
  /**
   * The study's seed: the round seed (samples, pair sampling, the held-out evaluation's samples) and the trainer's
   * (round k trains with seed k00S); 0 is the published study.
   */
  seed: number;
  /** loop.pairs_spans: the pairs are pulled with claim spans (for --trainer-args "--token-weight γ"). */
  spans: boolean;
  /** loop.select: best selects each round's checkpoint among its epochs on the dev split (--save-epochs added). */
  select: 'last' | 'best';
  maxPairs: number | 'all';
  json: string | null;
  /** rejc's pair counts by round, read from an earlier run's --json (instead of running the rejc arm). */
  counts: string | null;
  /** The starting policy (a model folder); null: the config's (models/shapes-policy). */
  policy: string | null;
  /** loop.eval_feedback: each round's correction rate after this feedback level; null: not measured. */
  feedback: 'simple' | 'detailed' | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    rounds: 4,
    train: path.join(PACKAGE_ROOT, 'data', 'shapes', 'train', 'prompts.jsonl'),
    limit: undefined,
    evalLimit: undefined,
    arms: [...ARMS],
    out: path.join(PACKAGE_ROOT, 'tmp', 'study-loop'),
    trainerArgs: '',
    select: 'last',
    seed: 0,
    spans: false,
    maxPairs: 2,
    json: null,
    counts: null,
    policy: null,
    feedback: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? (() => { throw new Error(`${k} needs a value`); })();
    if (k === '--rounds') a.rounds = Number(v());
    else if (k === '--train') a.train = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--eval-limit') a.evalLimit = Number(v());
    else if (k === '--arms') a.arms = v().split(',') as Arm[];
    else if (k === '--out') a.out = path.resolve(v());
    else if (k === '--trainer-args') a.trainerArgs = v();
    else if (k === '--seed') a.seed = Number(v());
    else if (k === '--spans') a.spans = true;
    else if (k === '--select') a.select = ((x) => (x === 'best' ? 'best' : x === 'last' ? 'last' : (() => { throw new Error(`--select: last or best, got ${x}`); })()))(v());
    else if (k === '--max-pairs') a.maxPairs = ((x) => (x === 'all' ? 'all' : Number(x)))(v());
    else if (k === '--json') a.json = v();
    else if (k === '--counts') a.counts = path.resolve(v());
    else if (k === '--policy') a.policy = path.resolve(v());
    else if (k === '--feedback') a.feedback = ((x) => (x === 'simple' || x === 'detailed' ? x : (() => { throw new Error(`--feedback: simple or detailed, got ${x}`); })()))(v());
    else throw new Error(`unknown argument ${k}`);
  }
  for (const arm of a.arms) if (!ARMS.includes(arm)) throw new Error(`--arms: unknown arm ${arm} (arms: ${ARMS.join(', ')})`);
  if (!existsSync(a.train)) throw new Error(`${a.train} is missing: make it with python3 scripts/shapes/build.py --only train`);
  return a;
}

/** The arm's config: its own store, the train split, the arm's score method, the trainer with the study's settings. */
function armConfig(a: Args, arm: Arm): Config {
  const { config } = loadConfig(undefined, { db: path.join(a.out, `${arm}.sqlite`) });
  config.score.method = arm === 'rejp' ? 'rejp' : 'rejc';
  if (arm === 'holistic' || arm === 'holistic-judge') config.feedback.method = 'holistic';
  if (arm === 'holistic-judge') {
    config.feedback.gate.threshold = 0.9;
    config.feedback.gate.judge = judgeConfig(judgeServer!.url);
  }
  if (arm === 'gate') config.feedback.gate = { threshold: 0.9, top_up: 4, judge: null };
  // Correction pairs (pair.corrections): drop and overwrite alone (no rank pairs), and REJ-C's rank pairs plus overwrite.
  if (arm === 'drop' || arm === 'overwrite') {
    config.pair.corrections = [arm];
    config.pair.rank_pairs = false;
  }
  if (arm === 'rejc-overwrite') config.pair.corrections = ['overwrite'];
  // The policy's own revisions after the labeler's feedback (pair.corrections "refine"): alone, and beside REJ-C's.
  if (arm === 'refine') {
    config.pair.corrections = ['refine'];
    config.pair.rank_pairs = false;
  }
  if (arm === 'rejc-refine') config.pair.corrections = ['refine'];
  // REJ-C with tool verdicts (label.tools): the segmenter decides the claim forms data/study/routing-dev.json gives it
  // (calibrated on the dev split with rlaifv calibrate-tools), cut to rejc's count.
  if (arm === 'tools') {
    config.label.tools = [{ type: 'shapes-segmenter', name: 'segmenter', shape_heuristic: true }];
    config.label.routing = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'data', 'study', 'routing-dev.json'), 'utf8')) as { routing: Config['label']['routing'] }).routing;
  }
  config.pair.max_pairs = a.maxPairs;
  if (a.policy) config.generate.backend = { type: 'local', model: a.policy };
  if (a.feedback) config.loop.eval_feedback = a.feedback;
  // A prompt gives at most max_pairs correction pairs, fewer than REJ-C's rank pairs: the correction-only arms take
  // every correction pair (one per corrected answer) and are cut to rejc's count like the other cut arms.
  if (arm === 'drop' || arm === 'overwrite' || arm === 'refine') config.pair.max_pairs = 'all';
  config.loop.train_prompts = a.train;
  config.loop.trainer = `${config.loop.trainer} ${a.trainerArgs}`.trim();
  if (a.spans) config.loop.pairs_spans = true;
  if (a.seed !== 0) {
    config.seed = a.seed;
    config.loop.trainer = config.loop.trainer.replace('--seed {round}', `--seed {round}00${a.seed}`);
  }
  if (a.select === 'best') {
    // Checkpoint selection on the dev split (never test): the trainer saves each epoch ({out}/checkpoint-<n>).
    config.loop.select = 'best';
    config.loop.select_prompts = path.join(path.dirname(a.train), '..', 'dev', 'prompts.jsonl');
    if (!/--save-epochs/.test(config.loop.trainer)) config.loop.trainer += ' --save-epochs';
  }
  return config;
}

/** The TRL records of pairs given as (chosen, rejected) answer ids of a round, written as the pull writes them. */
function writeTrl(db: Db, round: EvalRound, pairs: { promptId: string; chosenId: string; rejectedId: string }[], file: string, spans = false): number {
  const trl = getFormat('trl');
  const images = new Map(roundPrompts(db, round.id).map((p) => [p.id, p.image_path]));
  const answers = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((x) => [x.id, x] as const)));
  const question = new Map(round.prompts.map((p) => [p.id, p.question]));
  // With --spans, the claim spans the pull would add (src/export/spans.ts), a correction's edited sentences marked.
  const spansOf = (id: string) => {
    const a = answers.get(id)!;
    const edited = new Set('edits' in a ? (a.edits as { new: string | null }[]).flatMap((e) => (e.new === null ? [] : [e.new])) : []);
    return answerSpans(a.text, a.claims.map((c) => ({ sentence: c.sentence, claim: c.claim, p_yes: c.pYes, p_no: c.pNo })), round.acceptRule, edited);
  };
  const lines = pairs.map((q) =>
    JSON.stringify({
      ...(trl.record({ image_path: images.get(q.promptId)!, instruction: question.get(q.promptId)!, chosen: answers.get(q.chosenId)!.text, rejected: answers.get(q.rejectedId)!.text } as ExportPair) as Record<string, unknown>),
      ...(spans ? { chosen_spans: spansOf(q.chosenId), rejected_spans: spansOf(q.rejectedId) } : {}),
    }),
  );
  writeFileSync(file, lines.length ? lines.join('\n') + '\n' : '');
  return lines.length;
}

/** Oracle pairs: the round's answers paired with the truth's verdicts under the round's own REJ-C settings. */
function oraclePairs(round: EvalRound) {
  return pairRound(round, judgeRound(round), roundSetting(round, 'rejc', { kind: 'oracle' })).pairs.filter((p) => p.balanceKept);
}

/** `n` pairs of distinct answers of the same prompt, drawn at random (seeded), oriented at random. */
function randomPairs(round: EvalRound, n: number, seed: number) {
  const rng = createRng(hashSeed(seed, 'random-pairs', round.id));
  const pool = round.prompts
    .map((p) => ({ id: p.id, answers: [...new Map(p.answers.filter((x) => x.division).map((x) => [x.text.trim(), x])).values()] }))
    .filter((p) => p.answers.length >= 2);
  const out: { promptId: string; chosenId: string; rejectedId: string }[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const p = pool[Math.floor(rng() * pool.length)]!;
    const i = Math.floor(rng() * p.answers.length);
    let j = Math.floor(rng() * (p.answers.length - 1));
    if (j >= i) j++;
    const key = [p.id, ...[p.answers[i]!.id, p.answers[j]!.id].sort()].join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ promptId: p.id, chosenId: p.answers[i]!.id, rejectedId: p.answers[j]!.id });
  }
  return out;
}

/** How good pairs are against the truth: chosen with fewer false claims (accurate), more (inverted). */
function pairTruth(round: EvalRound, pairs: { chosenId: string; rejectedId: string }[]) {
  const byId = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((a) => [a.id, judgeAnswer(p.truth, a).nFalse] as const)));
  let accurate = 0;
  let inverted = 0;
  for (const q of pairs) {
    const c = byId.get(q.chosenId)!;
    const r = byId.get(q.rejectedId)!;
    if (c < r) accurate++;
    else if (c > r) inverted++;
  }
  return { pairs: pairs.length, accuracy: pairs.length ? accurate / pairs.length : null, inverted: pairs.length ? inverted / pairs.length : null };
}

/** The pairs a pulled TRL file holds, as (chosen, rejected) ids: the round's stored kept pairs (what the pull delivers). */
function keptPairs(db: Db, roundId: number) {
  return db
    .prepare(
      'SELECT prompt_id AS promptId, chosen_id AS chosenId, rejected_id AS rejectedId FROM pairs WHERE round_id = ? AND balance_kept = 1 AND gate_kept IS NOT 0 AND method = (SELECT pair_method FROM rounds WHERE id = ?) ORDER BY id',
    )
    .all(roundId, roundId) as { promptId: string; chosenId: string; rejectedId: string }[];
}

interface ArmRound {
  loop_round: number;
  pairs: number;
  pair_accuracy: number | null;
  pair_inverted: number | null;
  eval: LoopResult['rounds'][number]['eval'];
}

async function runArm(a: Args, arm: Arm, rejcCounts: number[]): Promise<{ arm: Arm; baseline: LoopResult['baseline']; baselineFeedback: FeedbackReport | null; stopped?: string; rounds: ArmRound[] }> {
  mkdirSync(a.out, { recursive: true });
  const config = armConfig(a, arm);
  const quality = new Map<number, ReturnType<typeof pairTruth>>();
  const hook =
    arm === 'oracle' || arm === 'random' || arm === 'oneshot' || CUT_ARMS.includes(arm)
      ? async ({ db, round, file }: { db: Db; round: number; file: string }) => {
          const r = loadEvalRound(db, round);
          const k = quality.size;
          let pairs: { promptId: string; chosenId: string; rejectedId: string }[];
          if (arm === 'oracle') pairs = oraclePairs(r);
          else if (CUT_ARMS.includes(arm)) {
            // The method's own kept pairs, cut at random to as many as rejc trained on that round (equal pair counts).
            const own = keptPairs(db, round);
            const rng = createRng(hashSeed(config.seed, arm, round));
            const n = rejcCounts[k] ?? own.length;
            pairs = own.map((p) => ({ p, k: rng() })).sort((x, y) => x.k - y.k).slice(0, n).map((x) => x.p);
            if (pairs.length < n) process.stderr.write(`${arm}: round ${round} gives only ${pairs.length} of the ${n} pairs rejc trained on\n`);
          } else if (arm === 'random') pairs = randomPairs(r, rejcCounts[k] ?? 0, config.seed);
          else {
            // One-shot: every pair the start policy's round gives with max_pairs all, cut to rejc's total at random.
            const all = pairRound(r, judgeRound(r), { ...roundSetting(r, 'rejc'), maxPairs: 'all' }).pairs.filter((p) => p.balanceKept);
            const total = rejcCounts.reduce((x, y) => x + y, 0);
            const rng = createRng(hashSeed(config.seed, 'oneshot', round));
            pairs = all.map((p) => ({ p, k: rng() })).sort((x, y) => x.k - y.k).slice(0, total).map((x) => x.p);
            if (pairs.length < total) process.stderr.write(`oneshot: round 0 gives only ${pairs.length} of the ${total} pairs rejc trained on\n`);
          }
          quality.set(round, pairTruth(r, pairs));
          return writeTrl(db, r, pairs, file, a.spans);
        }
      : undefined;
  let rounds = arm === 'oneshot' ? 1 : a.rounds;
  let stopped: string | null = null;
  const loop = (n: number) => runLoop(config, {
    rounds: n,
    ...(a.limit ? { limit: a.limit } : {}),
    ...(a.evalLimit ? { evalLimit: a.evalLimit } : {}),
    progress: { start() {}, tick() {}, done() {}, log: (m) => process.stderr.write(`[${arm}] ${m}\n`) },
    echo: null,
    ...(hook ? { pairs: hook } : {}),
    // dpo-reward needs a trained model: round 1 is divide's, later rounds are scored by the round's own policy.
    ...(arm === 'dpo-reward'
      ? { roundConfig: (k: number, c: Config) => (k === 1 ? c : { ...c, feedback: { ...c.feedback, method: 'dpo-reward' as const } }) }
      : {}),
  });
  let res: LoopResult;
  try {
    res = await loop(rounds);
  } catch (e) {
    // An arm whose round gives no pairs at all (drop, once the policy's answers are one sentence) ends there: its
    // finished rounds are read back and reported, with the reason.
    const m = /^loop round (\d+): round \d+ gave no pairs to train on/.exec((e as Error).message);
    if (!m || Number(m[1]) < 2) throw e;
    stopped = (e as Error).message;
    process.stderr.write(`[${arm}] stopped: ${stopped}\n`);
    rounds = Number(m[1]) - 1;
    res = await loop(rounds);
  }
  const { openDb } = await import('../../src/store/index.js');
  const db = openDb(config.db, { readonly: true });
  try {
    return {
      arm,
      baseline: res.baseline,
      baselineFeedback: res.baseline_feedback,
      ...(stopped ? { stopped } : {}),
      rounds: res.rounds.slice(0, rounds).map((r) => {
        const q = quality.get(r.round!) ?? pairTruth(loadEvalRound(db, r.round!), keptPairs(db, r.round!));
        return { loop_round: r.loop_round, pairs: r.pairs ?? 0, pair_accuracy: q.accuracy, pair_inverted: q.inverted, eval: r.eval };
      }),
    };
  } finally {
    db.close();
  }
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '–' : x.toFixed(d));

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const results = [];
  const order = [...a.arms].sort((x, y) => (x === 'rejc' ? -1 : y === 'rejc' ? 1 : 0));
  let rejcCounts: number[] = [];
  if (a.counts) {
    const prev = JSON.parse(readFileSync(a.counts, 'utf8')) as { results: { arm: string; rounds: { pairs: number }[] }[] };
    rejcCounts = prev.results.find((r) => r.arm === 'rejc')?.rounds.map((r) => r.pairs) ?? [];
    if (rejcCounts.length === 0) throw new Error(`--counts: ${a.counts} has no rejc arm`);
  }
  if (a.arms.includes('holistic-judge')) judgeServer = await TestServer.start({ workers: 1, models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
  for (const arm of order) {
    if ((arm === 'random' || arm === 'oneshot' || CUT_ARMS.includes(arm)) && rejcCounts.length === 0) {
      throw new Error(`${arm} needs the rejc arm (its pair counts), or --counts FILE`);
    }
    const r = await runArm(a, arm, rejcCounts);
    if (arm === 'rejc') rejcCounts = r.rounds.map((x) => x.pairs);
    results.push(r);
    process.stderr.write(`[${arm}] done after ${((performance.now() - t0) / 60000).toFixed(1)} min\n`);
  }
  const lines = ['| arm | round | pairs | pair accuracy (inverted) | false claims, sampled | greedy | answers with a false claim | true claims / answer | objects mentioned | judgeable | distinct / prompt | words |', '|---|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const r of results) {
    const b = r.baseline;
    lines.push(`| ${r.arm} | 0 | – | – | ${pct(b.sampled.false_claim_rate)} | ${pct(b.greedy?.false_claim_rate)} | ${pct(b.sampled.response_hallucination_rate)} | ${num(b.sampled.true_claims_per_answer)} | ${pct(b.sampled.object_coverage)} | ${pct(b.sampled.judgeable_share)} | ${num(b.sampled.distinct_answers_per_prompt, 1)} | ${num(b.sampled.mean_words, 1)} |`);
    for (const x of r.rounds) {
      const e = x.eval;
      lines.push(`| ${r.arm} | ${x.loop_round} | ${x.pairs} | ${pct(x.pair_accuracy)} (${pct(x.pair_inverted)}) | ${pct(e?.false_claim_rate)} | ${pct(e?.greedy?.false_claim_rate)} | ${pct(e?.response_hallucination_rate)} | ${num(e?.true_claims_per_answer)} | ${pct(e?.object_coverage)} | ${pct(e?.judgeable_share)} | ${num(e?.distinct_answers_per_prompt, 1)} | ${num(e?.mean_words, 1)} |`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (a.feedback) {
    // loop.eval_feedback: each checkpoint's correction rate after the labeler's feedback (N_e: answers it rightly flags).
    const fb = ['', `| arm | round | N_e | corrected after 1 turn (${a.feedback}) | within 3 turns | harm |`, '|---|---|---|---|---|---|'];
    for (const r of results) {
      const row = (k: number | string, f: FeedbackReport | null | undefined) => fb.push(`| ${r.arm} | ${k} | ${f?.n_e ?? '–'} | ${pct(f?.correction_rate)} | ${pct(f?.correct_after_turn.at(-1))} | ${pct(f?.harm_rate)} |`);
      row(0, r.baselineFeedback);
      for (const x of r.rounds) row(x.loop_round, x.eval?.feedback);
    }
    process.stdout.write(fb.join('\n') + '\n');
  }
  process.stdout.write(`\n${((performance.now() - t0) / 60000).toFixed(1)} minutes; trainer: ${armConfig(a, 'rejc').loop.trainer}\n`);
  if (a.json) writeFileSync(a.json, JSON.stringify({ args: a, results }, null, 2) + '\n');
}

try {
  await main();
} finally {
  await judgeServer?.close();
}
