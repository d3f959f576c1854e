// Does the truth-free measure tell what the truth tells? Reads a finished loop store (the loop study's rejc arm:
// npx tsx scripts/study/loop.ts --arms rejc --out tmp/study20) and checks issue 20's targets on its 5 checkpoints
// (start and 4 rounds) on the held-out test prompts:
//   - the labeler's rejected-claim rate against the truth's false-claim rate, per checkpoint;
//   - both rankings of the checkpoints (Kendall's τ);
//   - the claims judge against the truth judge, pair by pair, over every comparison of a round with the one before
//     and with the start;
//   - round 1 against the start and round 4 against round 3 under both judges (win rate and bootstrap CI);
//   - the served judge's stand-in (ConvBench's pairwise prompt on the test server: real divider and labeler) on the
//     first --served-prompts prompts of round 1 against the start: its agreement and its position flips;
//   - the multi-turn ablation of the start and of the last round;
//   - with --select-store (the same arm run with --select best): per round, the test false-claim rate of the selected
//     checkpoint against the trainer's last.
//
//   npx tsx scripts/study/truth-free.ts --store tmp/study20/rejc.sqlite [--select-store tmp/study20-select/rejc.sqlite]
//       [--served-prompts 100] [--json data/study/truth-free-study.json]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { openDb, type Db } from '../../src/store/index.js';
import { loopReport } from '../../src/loop/index.js';
import { getPolicyEval, type LoopRoundRow } from '../../src/store/index.js';
import { policyEvaluation, evaluatePolicy, type PolicyEvaluation } from '../../src/eval/runs/policy-eval.js';
import { compareRounds, parseJudgeSpec, type CompareResult } from '../../src/eval/runs/compare/index.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { judgeAnswer } from '../../src/eval/truth.js';
import { scoredAnswers } from '../../src/eval/truth-free.js';
import { multiturnAblation, type AblationFigures } from '../../src/eval/runs/ablation.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../mimic/openai-server.js';
import { PACKAGE_ROOT } from '../../src/config/load.js';

interface Args {
  store: string;
  selectStore: string | null;
  servedPrompts: number;
  json: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { store: '', selectStore: null, servedPrompts: 100, json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? (() => { throw new Error(`${k} needs a value`); })();
    if (k === '--store') a.store = path.resolve(v());
    else if (k === '--select-store') a.selectStore = path.resolve(v());
    else if (k === '--served-prompts') a.servedPrompts = Number(v());
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown flag ${k}`);
  }
  if (!a.store) throw new Error('--store: a finished loop store (scripts/study/loop.ts --arms rejc)');
  return a;
}

/** Kendall's τ-b of two score lists (ties counted). */
export function kendallTau(x: readonly number[], y: readonly number[]): number {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i]! - x[j]!);
      const b = Math.sign(y[i]! - y[j]!);
      if (a === 0 && b === 0) continue;
      if (a === 0) tx++;
      else if (b === 0) ty++;
      else if (a === b) c++;
      else d++;
    }
  }
  return (c - d) / Math.sqrt((c + d + tx) * (c + d + ty));
}

/** Pair by pair: where the truth names a winner, does the claims judge name the same one? */
function agreement(db: Db, aRound: number, bRound: number): { decided: number; same: number; tie: number; opposite: number } {
  const truthKey = new Map<string, [number, number]>();
  for (const r of [aRound, bRound]) {
    for (const p of loadEvalRound(db, r).prompts) {
      for (const a of p.answers) {
        if (a.division === null) continue;
        const j = judgeAnswer(p.truth, a);
        truthKey.set(a.id, [-j.nFalse, j.nTrue]);
      }
    }
  }
  const claimKey = new Map<string, [number, number]>();
  for (const r of [aRound, bRound]) for (const a of scoredAnswers(db, r)) if (a.rejected !== null && a.judged !== null) claimKey.set(a.id, [-a.rejected, a.judged - a.rejected]);
  const byKey = (r: number) => new Map(scoredAnswers(db, r).map((a) => [`${a.promptId}/${a.sampleIndex}`, a.id]));
  const A = byKey(aRound);
  const B = byKey(bRound);
  const cmp = (x: [number, number], y: [number, number]) => Math.sign(x[0] - y[0]) || Math.sign(x[1] - y[1]);
  const out = { decided: 0, same: 0, tie: 0, opposite: 0 };
  for (const [k, ida] of A) {
    const idb = B.get(k);
    if (!idb) continue;
    const t = cmp(truthKey.get(ida)!, truthKey.get(idb)!);
    if (t === 0) continue;
    out.decided++;
    const c = cmp(claimKey.get(ida)!, claimKey.get(idb)!);
    if (c === t) out.same++;
    else if (c === 0) out.tie++;
    else out.opposite++;
  }
  return out;
}

const pct = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(d)}%`);
const wr = (r: CompareResult) => `${pct(r.win_rate_a)} [${pct(r.ci95?.[0])}, ${pct(r.ci95?.[1])}]`;

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const { config } = loadConfig(undefined, { db: a.store });
  const db = openDb(a.store);
  const loopId = (db.prepare('SELECT id FROM loops ORDER BY id LIMIT 1').get() as { id: number }).id;
  const baselineId = (db.prepare('SELECT baseline_eval FROM loops WHERE id = ?').get(loopId) as { baseline_eval: number }).baseline_eval;
  const rounds = loopReport(db, loopId);
  const evals: PolicyEvaluation[] = [policyEvaluation(getPolicyEval(db, baselineId)!)!, ...rounds.map((r) => policyEvaluation(getPolicyEval(db, r.eval!.eval_id)!)!)];
  const names = ['start', ...rounds.map((r) => `round ${r.loop_round}`)];
  const log = (m: string) => process.stderr.write(m + '\n');

  // 1–2. Per checkpoint: truth against truth-free, and the rankings.
  const checkpoints = evals.map((e, i) => ({
    name: names[i]!,
    policy: e.policy,
    false_claim_rate: e.sampled.false_claim_rate!,
    rejected_claim_rate: e.truth_free.rejected_claim_rate!,
    difference_points: 100 * (e.truth_free.rejected_claim_rate! - e.sampled.false_claim_rate!),
    answers: e.truth_free.answers,
  }));
  const tau = kendallTau(checkpoints.map((c) => c.false_claim_rate), checkpoints.map((c) => c.rejected_claim_rate));

  // 3–4. Comparisons: each round against the one before and against the start, under both judges.
  const comparisons: { a: string; b: string; truth: CompareResult; claims: CompareResult; agreement: ReturnType<typeof agreement> }[] = [];
  for (let k = 1; k < evals.length; k++) {
    for (const j of k === 1 ? [0] : [k - 1, 0]) {
      const o = { seed: config.seed, a: names[k]!, b: names[j]!, promptsFile: evals[k]!.prompts };
      const truth = await compareRounds(db, evals[k]!.sampled_round, evals[j]!.sampled_round, { ...o, judge: { type: 'truth' } });
      const claims = await compareRounds(db, evals[k]!.sampled_round, evals[j]!.sampled_round, { ...o, judge: { type: 'claims' } });
      comparisons.push({ a: names[k]!, b: names[j]!, truth, claims, agreement: agreement(db, evals[k]!.sampled_round, evals[j]!.sampled_round) });
      log(`${names[k]} vs ${names[j]}: truth ${wr(truth)}, claims ${wr(claims)}`);
    }
  }
  const agg = comparisons.reduce((s, c) => ({ decided: s.decided + c.agreement.decided, same: s.same + c.agreement.same, tie: s.tie + c.agreement.tie, opposite: s.opposite + c.agreement.opposite }), { decided: 0, same: 0, tie: 0, opposite: 0 });

  // 5. The served judge's stand-in on a subset of round 1 against the start.
  let served: { served: CompareResult; claims: CompareResult; truth: CompareResult } | null = null;
  if (a.servedPrompts > 0) {
    const srv = await TestServer.start({ workers: 2, models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
    try {
      const ids = new Set((db.prepare('SELECT prompt_id FROM round_prompts WHERE round_id = ? ORDER BY ordinal LIMIT ?').all(evals[1]!.sampled_round, a.servedPrompts) as { prompt_id: string }[]).map((r) => r.prompt_id));
      const o = { seed: config.seed, a: names[1]!, b: names[0]!, promptsFile: evals[1]!.prompts, promptIds: ids };
      const r = await compareRounds(db, evals[1]!.sampled_round, evals[0]!.sampled_round, { ...o, judge: parseJudgeSpec(`rubric-judge@${srv.url}`), progress: { start() {}, tick() {}, done() {}, log } });
      const c = await compareRounds(db, evals[1]!.sampled_round, evals[0]!.sampled_round, { ...o, judge: { type: 'claims' } });
      const t = await compareRounds(db, evals[1]!.sampled_round, evals[0]!.sampled_round, { ...o, judge: { type: 'truth' } });
      served = { served: r, claims: c, truth: t };
      log(`served stand-in, round 1 vs start on ${ids.size} prompts: ${wr(r)}, flips ${r.position_flips}; claims ${wr(c)}; truth ${wr(t)}`);
    } finally {
      await srv.close();
    }
  }

  // 6. The multi-turn ablation of the start and of the last round.
  const mt = path.join(PACKAGE_ROOT, 'data', 'shapes', 'multiturn', 'prompts.jsonl');
  const ablation: Record<string, AblationFigures> = {};
  for (const [name, e] of [[names[0]!, evals[0]!], [names.at(-1)!, evals.at(-1)!]] as const) {
    ablation[name] = await multiturnAblation(config, { policy: { type: 'local', model: e.policy }, prompts: mt, limit: null, samples: config.loop.eval_samples, temperature: config.loop.eval_temperature });
    log(`ablation ${name}: none ${pct(ablation[name].no_history.false_claim_rate)}, true ${pct(ablation[name].true_history.false_claim_rate)}, own ${pct(ablation[name].own_history.false_claim_rate)}`);
  }
  db.close();

  // 7. Checkpoint selection: the selected checkpoint's test false-claim rate against the trainer's last, per round.
  let selection: { round: number; candidates: { checkpoint: string; dev_rejected: number | null; test_false: number | null; selected: boolean }[] }[] | null = null;
  if (a.selectStore) {
    const { config: sc } = loadConfig(undefined, { db: a.selectStore });
    const sdb = openDb(a.selectStore);
    const sLoop = (sdb.prepare('SELECT id FROM loops ORDER BY id LIMIT 1').get() as { id: number }).id;
    const rows = sdb.prepare('SELECT * FROM loop_rounds WHERE loop_id = ? ORDER BY idx').all(sLoop) as LoopRoundRow[];
    sdb.close();
    selection = [];
    for (const r of rows) {
      const cands = JSON.parse(r.select_json!) as { checkpoint: string; rejected_claim_rate: number | null; selected: boolean }[];
      const out = [];
      for (const c of cands) {
        // The loop evaluated the winner on test; the others are evaluated here the same way (stored, reused).
        const e = await evaluatePolicy(sc, { policy: { type: 'local', model: c.checkpoint }, prompts: sc.loop.eval_prompts, limit: null, samples: sc.loop.eval_samples, temperature: sc.loop.eval_temperature, greedy: false });
        out.push({ checkpoint: c.checkpoint, dev_rejected: c.rejected_claim_rate, test_false: e.sampled.false_claim_rate, selected: c.selected });
      }
      selection.push({ round: r.idx, candidates: out });
      log(`selection round ${r.idx}: ${out.map((c) => `${path.basename(c.checkpoint)} dev ${pct(c.dev_rejected)} test ${pct(c.test_false)}${c.selected ? ' *' : ''}`).join(', ')}`);
    }
  }

  // The report.
  const lines: string[] = [];
  lines.push('| checkpoint | false claims (truth) | rejected claims (labeler) | difference |', '|---|---|---|---|');
  for (const c of checkpoints) lines.push(`| ${c.name} | ${pct(c.false_claim_rate)} | ${pct(c.rejected_claim_rate)} | ${c.difference_points >= 0 ? '+' : ''}${c.difference_points.toFixed(1)} pt |`);
  lines.push('', `Kendall's τ between the two rankings of the ${checkpoints.length} checkpoints: ${tau.toFixed(2)}`, '');
  lines.push('| comparison | truth judge: win rate [95% CI] | claims judge | truth has a winner | claims agrees | claims ties | claims opposite |', '|---|---|---|---|---|---|---|');
  for (const c of comparisons) lines.push(`| ${c.a} vs ${c.b} | ${wr(c.truth)} | ${wr(c.claims)} | ${c.agreement.decided} | ${pct(c.agreement.same / c.agreement.decided)} | ${c.agreement.tie} | ${c.agreement.opposite} |`);
  lines.push('', `All comparisons: the claims judge names the truth's winner on ${pct(agg.same / agg.decided)} of ${agg.decided} pairs the truth decides (tie ${agg.tie}, opposite ${agg.opposite}).`);
  if (served) {
    const x = served.served;
    lines.push('', `Served judge stand-in, round 1 vs start, first ${a.servedPrompts} prompts (${x.pairs} pairs): ${wr(x)}, wins/losses/ties ${x.wins_a}/${x.wins_b}/${x.ties}, position flips ${x.position_flips}, failed ${x.failed}; on the same pairs the claims judge ${wr(served.claims)}, the truth ${wr(served.truth)}.`);
  }
  lines.push('', '| multi-turn ablation | no history | true earlier turns | own earlier answers | repeated errors | corrected |', '|---|---|---|---|---|---|');
  for (const [n, x] of Object.entries(ablation)) lines.push(`| ${n} | ${pct(x.no_history.false_claim_rate)} | ${pct(x.true_history.false_claim_rate)} | ${pct(x.own_history.false_claim_rate)} | ${pct(x.repeated_error_share)} (${x.repeated_false_claims}/${x.final_false_claims}) | ${pct(x.corrected_share)} (${x.corrected_false_claims}/${x.earlier_false_claims}) |`);
  if (selection) {
    lines.push('', '| round | candidate | dev rejected (selection) | test false claims | selected |', '|---|---|---|---|---|');
    for (const s of selection) for (const c of s.candidates) lines.push(`| ${s.round} | ${path.basename(c.checkpoint)} | ${pct(c.dev_rejected)} | ${pct(c.test_false)} | ${c.selected ? 'yes' : ''} |`);
    const sel = selection.map((s) => s.candidates.find((c) => c.selected)!.test_false!);
    const last = selection.map((s) => s.candidates.at(-1)!.test_false!);
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    lines.push('', `Mean test false-claim rate over the rounds: selected ${pct(mean(sel), 2)}, last ${pct(mean(last), 2)}.`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (a.json) writeFileSync(a.json, JSON.stringify({ checkpoints, kendall_tau: tau, comparisons, agreement: agg, served, ablation, selection }, null, 2) + '\n');
}

await main();
