// The online study (issue 33, docs/studies/online.md): iterative DPO on REJ-C pairs against GRPO with three rewards
// (serve's `rejc` and `default` presets, and the truth's), on an equal budget of policy samples per budget point, on the
// loop study's train and test splits, several seeds.
//
//   npx tsx scripts/study/online.ts run --arm dpo|rejc|default|oracle --seed S [--rounds 4] [--limit N] [--eval-limit N]
//                                       [--trainer-args "..."] [--out DIR]      (trainer args: dpo.py's or grpo.py's)
//                                       [--eval-prompts FILE]
//   npx tsx scripts/study/online.ts report [--out DIR] [--json FILE]
//
// `run` does one arm with one seed in its own store (DIR/<arm>-s<seed>.sqlite) and writes DIR/<arm>-s<seed>.json;
// runs are separate processes so arms can run side by side. `report` reads every run's JSON and prints the table
// (mean ± sd over the seeds per arm and budget point) and writes the study's JSON.
// --eval-prompts FILE: evaluate every budget point on FILE instead of the held-out test split (loop.eval_prompts), e.g.
// data/shapes/dev/prompts.jsonl to choose a setting on dev prompts without reading test (the pick is then run on test).
// Seed S: the loop's round seed (samples and the held-out evaluation's draws) and the trainer's (DPO: round k trains
// with k00S as the loop study; GRPO: S × 1000 + k, the online loop's {seed}).
// The oracle arm: GRPO with the `default` preset whose claim verdicts come from the shapes truth checker (the checker's
// answer to each claim's question, as the DPO loop study's oracle pairs), given to serve through startServer's
// `verdicts` (studies only, not a config key). Needs the train split: python3 scripts/shapes/build.py --only train.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { runLoop, type LoopResult } from '../../src/loop/index.js';
import { checkStatement, parseTruth, type Truth } from '../../src/shapes/index.js';
import type { ImageRow } from '../../src/store/index.js';

const ARMS = ['dpo', 'rejc', 'default', 'oracle'] as const;
type Arm = (typeof ARMS)[number];

interface RunArgs {
  arm: Arm;
  seed: number;
  rounds: number;
  limit: number | undefined;
  evalLimit: number | undefined;
  trainerArgs: string;
  out: string;
  evalPrompts: string | undefined;
}

function parseArgs(argv: string[]): { cmd: 'run' | 'report'; run: RunArgs; json: string | null } {
  const cmd = argv[0];
  if (cmd !== 'run' && cmd !== 'report') throw new Error('usage: study-online.ts run --arm A --seed S … | report');
  const r: RunArgs = { arm: 'dpo', seed: 0, rounds: 4, limit: undefined, evalLimit: undefined, trainerArgs: '', out: path.join(PACKAGE_ROOT, 'tmp', 'study-online'), evalPrompts: undefined };
  let json: string | null = null;
  for (let i = 1; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? (() => { throw new Error(`${k} needs a value`); })();
    if (k === '--arm') r.arm = ((x) => (ARMS.includes(x as Arm) ? (x as Arm) : (() => { throw new Error(`--arm: one of ${ARMS.join(', ')}, got ${x}`); })()))(v());
    else if (k === '--seed') r.seed = Number(v());
    else if (k === '--rounds') r.rounds = Number(v());
    else if (k === '--limit') r.limit = Number(v());
    else if (k === '--eval-limit') r.evalLimit = Number(v());
    else if (k === '--trainer-args') r.trainerArgs = v();
    else if (k === '--out') r.out = path.resolve(v());
    else if (k === '--eval-prompts') r.evalPrompts = path.resolve(v());
    else if (k === '--json') json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return { cmd, run: r, json };
}

const TRAIN = path.join(PACKAGE_ROOT, 'data', 'shapes', 'train', 'prompts.jsonl');

/** The run's config: its own store, the train split, the loop study's DPO settings or the online loop's. */
function runConfig(r: RunArgs): Config {
  const { config } = loadConfig(undefined, { db: path.join(r.out, `${r.arm}-s${r.seed}.sqlite`) });
  config.loop.train_prompts = TRAIN;
  if (r.evalPrompts) {
    if (!existsSync(r.evalPrompts)) throw new Error(`--eval-prompts: ${r.evalPrompts} does not exist`);
    if (path.resolve(r.evalPrompts) === path.resolve(TRAIN)) throw new Error('--eval-prompts: the train split is what the policy trains on, not an evaluation split');
    config.loop.eval_prompts = r.evalPrompts;
  }
  config.seed = r.seed;
  if (r.arm === 'dpo') {
    // scripts/study/loop.ts's rejc arm: REJ-C pairs, at most 2 per prompt, the trainer seeded k00S.
    config.score.method = 'rejc';
    config.pair.max_pairs = 2;
    config.loop.trainer = `${config.loop.trainer.replace('--seed {round}', `--seed {round}00${r.seed}`)} ${r.trainerArgs}`.trim();
  } else {
    config.loop.mode = 'online';
    config.reward.preset = r.arm === 'rejc' ? 'rejc' : 'default';
    config.loop.online_trainer = `${config.loop.online_trainer} ${r.trainerArgs}`.trim();
  }
  return config;
}

/**
 * The oracle's verdicts: each train image's truth, keyed by the id serve gives the image the trainer uploads (the first
 * 32 hex digits of the sha256 of the PNG bytes the TRL adapter makes of it, computed here by the adapter's own code).
 */
function oracleVerdicts(limit: number | undefined): (image: ImageRow) => ((q: string) => boolean | null) | null {
  const lines = readFileSync(TRAIN, 'utf8').split('\n').filter((l) => l.trim()).slice(0, limit ?? Infinity);
  const prompts = lines.map((l) => JSON.parse(l) as { image: string; meta: { truth: unknown } });
  const files = prompts.map((p) => path.resolve(path.dirname(TRAIN), p.image));
  const py = [
    'import sys, json, hashlib',
    `sys.path.insert(0, ${JSON.stringify(path.join(PACKAGE_ROOT, 'scripts', 'integrations'))})`,
    'from PIL import Image',
    'from trl_reward import _png',
    'print(json.dumps([hashlib.sha256(_png(Image.open(f).convert("RGB"))).hexdigest()[:32] for f in json.load(sys.stdin)]))',
  ].join('\n');
  const ids = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py], { input: JSON.stringify(files), encoding: 'utf8', maxBuffer: 1 << 26 })) as string[];
  const truths = new Map<string, Truth>(ids.map((id, i) => [id, parseTruth(prompts[i]!.meta.truth)]));
  return (image) => {
    const t = truths.get(image.id);
    if (!t) return null;
    return (q) => {
      const v = checkStatement(t, q);
      return v === 'unknown' ? null : v === 'false';
    };
  };
}

async function run(r: RunArgs): Promise<void> {
  mkdirSync(r.out, { recursive: true });
  if (!existsSync(TRAIN)) throw new Error(`${TRAIN} is missing: make it with python3 scripts/shapes/build.py --only train`);
  const config = runConfig(r);
  const t0 = performance.now();
  const marks: { at: number; msg: string }[] = [];
  const res: LoopResult = await runLoop(config, {
    rounds: r.rounds,
    ...(r.limit ? { limit: r.limit } : {}),
    ...(r.evalLimit ? { evalLimit: r.evalLimit } : {}),
    progress: {
      start() {},
      tick() {},
      done() {},
      log: (m) => {
        marks.push({ at: (performance.now() - t0) / 1000, msg: m });
        process.stderr.write(`[${r.arm} s${r.seed} ${((performance.now() - t0) / 60000).toFixed(1)} min] ${m}\n`);
      },
    },
    echo: null,
    ...(r.arm === 'oracle' ? { serveVerdicts: oracleVerdicts(r.limit) } : {}),
  });
  const seconds = (performance.now() - t0) / 1000;
  const { openDb } = await import('../../src/store/index.js');
  const db = openDb(config.db, { readonly: true });
  const trainer = db
    .prepare('SELECT idx, trainer_seconds AS s FROM loop_rounds WHERE loop_id = ? ORDER BY idx')
    .all(res.loop.id) as { idx: number; s: number | null }[];
  db.close();
  const out = {
    arm: r.arm,
    seed: r.seed,
    args: r,
    trainer: r.arm === 'dpo' ? config.loop.trainer : config.loop.online_trainer,
    seconds,
    trainer_seconds: trainer.map((t) => t.s),
    baseline: res.baseline,
    rounds: res.rounds.map((x) => ({ loop_round: x.loop_round, pairs: x.pairs, eval: x.eval })),
    marks,
  };
  writeFileSync(path.join(r.out, `${r.arm}-s${r.seed}.json`), JSON.stringify(out, null, 2) + '\n');
  process.stderr.write(`[${r.arm} s${r.seed}] done in ${(seconds / 60).toFixed(1)} min\n`);
}

type RunJson = { arm: Arm; seed: number; args: RunArgs; seconds: number; marks: { at: number; msg: string }[]; trainer_seconds: (number | null)[]; baseline: LoopResult['baseline']; rounds: { loop_round: number; pairs: number | null; eval: LoopResult['rounds'][number]['eval'] }[] };

/** The figures the study reports for one evaluation (sampled, greedy). */
function figures(s: LoopResult['baseline']['sampled'], greedy: LoopResult['baseline']['greedy']) {
  return {
    false_claims: s.false_claim_rate,
    greedy_false_claims: greedy?.false_claim_rate ?? null,
    true_per_answer: s.true_claims_per_answer,
    distinct_per_prompt: s.distinct_answers_per_prompt,
    judgeable: s.judgeable_share,
    words: s.mean_words,
  };
}
type Fig = ReturnType<typeof figures>;
const KEYS: (keyof Fig)[] = ['false_claims', 'greedy_false_claims', 'true_per_answer', 'distinct_per_prompt', 'judgeable', 'words'];

function meanSd(xs: number[]): { mean: number; sd: number; min: number; max: number; n: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

function report(out: string, json: string | null): void {
  const runs = readdirSync(out).filter((f) => /^[a-z]+-s\d+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(path.join(out, f), 'utf8')) as RunJson);
  const arms = ARMS.filter((a) => runs.some((r) => r.arm === a));
  const summary: Record<string, { points: Record<string, Record<string, ReturnType<typeof meanSd>>>; seeds: number[]; minutes: ReturnType<typeof meanSd> }> = {};
  const pct = (m: ReturnType<typeof meanSd>) => `${(100 * m.mean).toFixed(1)} ± ${(100 * m.sd).toFixed(1)}`;
  const num = (m: ReturnType<typeof meanSd>, d = 2) => `${m.mean.toFixed(d)} ± ${m.sd.toFixed(d)}`;
  const lines = ['| arm | point | false claims, sampled (%) | greedy (%) | true claims / answer | distinct / prompt | judgeable (%) | words | seeds |', '|---|---|---|---|---|---|---|---|---|'];
  for (const arm of arms) {
    const mine = runs.filter((r) => r.arm === arm).sort((a, b) => a.seed - b.seed);
    const points: Record<string, Record<string, ReturnType<typeof meanSd>>> = {};
    const rounds = Math.min(...mine.map((r) => r.rounds.length));
    for (let k = 0; k <= rounds; k++) {
      const figs = mine.map((r) => (k === 0 ? figures(r.baseline.sampled, r.baseline.greedy) : figures(r.rounds[k - 1]!.eval!, r.rounds[k - 1]!.eval!.greedy)));
      points[k] = Object.fromEntries(KEYS.map((key) => [key, meanSd(figs.map((f) => f[key]).filter((x): x is number => x !== null && x !== undefined))]));
      const p = points[k]!;
      lines.push(`| ${arm} | ${k} | ${pct(p.false_claims!)} | ${pct(p.greedy_false_claims!)} | ${num(p.true_per_answer!)} | ${num(p.distinct_per_prompt!, 1)} | ${pct(p.judgeable!)} | ${num(p.words!, 1)} | ${mine.length} |`);
    }
    summary[arm] = { points, seeds: mine.map((r) => r.seed), minutes: meanSd(mine.map((r) => r.seconds / 60)) };
  }
  // A budget point's wall time: from the first point's start (after the start policy's evaluation) to the run's end,
  // over the points: generation, feedback and training (DPO) or training against serve (online), and the evaluation.
  const perPoint = (r: RunJson) => {
    const first = r.marks.find((m) => /^loop budget point 1: |^loop round 1: \S+ answers /.test(m.msg));
    // A resumed run (its first point trained by an earlier process) has no such mark: not counted.
    return first ? (r.seconds - first.at) / r.rounds.length / 60 : null;
  };
  lines.push('', '| arm | wall minutes per run, by seed | minutes per budget point, by seed | trainer seconds per budget point, by seed |', '|---|---|---|---|');
  for (const arm of arms) {
    const mine = runs.filter((r) => r.arm === arm).sort((x, y) => x.seed - y.seed);
    const t = mine.map((r) => r.trainer_seconds.map((x) => (x === null ? '–' : x.toFixed(0))).join(' / '));
    const pp = mine.map((r) => `s${r.seed} ${perPoint(r)?.toFixed(2) ?? '–'}`).join(', ');
    lines.push(`| ${arm} | ${mine.map((r) => `s${r.seed} ${(r.seconds / 60).toFixed(1)}`).join(', ')} | ${pp} | ${t.map((x, i) => `s${mine[i]!.seed} ${x}`).join('; ')} |`);
  }
  // Differences at the last budget point: beyond the spread when the seeds' ranges do not overlap.
  lines.push('', '| last point | arm A | arm B | A − B | beyond the spread (ranges apart) |', '|---|---|---|---|---|');
  for (const key of ['false_claims', 'true_per_answer', 'distinct_per_prompt'] as const) {
    for (let i = 0; i < arms.length; i++) {
      for (let j = i + 1; j < arms.length; j++) {
        const pa = summary[arms[i]!]!.points, pb = summary[arms[j]!]!.points;
        const last = String(Math.min(Object.keys(pa).length, Object.keys(pb).length) - 1);
        const x = pa[last]![key]!, y = pb[last]![key]!;
        const apart = x.max < y.min || y.max < x.min;
        const scale = key === 'false_claims' ? 100 : 1;
        lines.push(`| ${key} | ${arms[i]} | ${arms[j]} | ${((x.mean - y.mean) * scale).toFixed(2)} | ${apart ? 'yes' : 'no'} |`);
      }
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (json) writeFileSync(json, JSON.stringify({ summary, runs: runs.map(({ marks: _m, ...r }) => r) }, null, 2) + '\n');
}

const a = parseArgs(process.argv.slice(2));
if (a.cmd === 'run') await run(a.run);
else report(a.run.out, a.json);
