// `rlaifv loop`: parse flags, run (or resume) the loop, print one line per round or the JSON array.
import type { Command } from 'commander';
import type { ConfigOverrides } from '../config/load.js';
import type { LoopRoundReport, LoopWinRate } from '../loop/index.js';
import { PROGRESS_EVERY_HELP, progressEveryArg, progressFromFlags } from './common.js';
import { configOption, dbOption, jsonOption, positiveInt, quietOption } from './flags.js';

interface LoopFlags {
  rounds: number;
  limit?: number;
  evalLimit?: number;
  config?: string;
  db?: string;
  policy?: string;
  workers?: number;
  json?: boolean;
  quiet?: boolean;
  progressEvery?: number;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '-' : x.toFixed(d));

const win = (w: LoopWinRate | null | undefined) => (w?.win_rate == null ? '-' : `${pct(w.win_rate)} [${pct(w.ci95![0])}, ${pct(w.ci95![1])}]`);

/**
 * The text table: the starting policy's evaluation, then one row per round; the truth's figures ('-' without truth)
 * beside the labeler's (truth-free) rejected-claim rate and the held-out win rates.
 */
function render(baseline: LoopRoundReport['eval'], rounds: LoopRoundReport[]): string {
  const head = ['round', 'pairs', 'trainer', 'false claims', 'rejected (labeler)', 'greedy', 'responses w/ false', 'true/answer', 'accepted/answer', 'distinct/prompt', 'win vs previous', 'win vs start'];
  const row = (name: string, pairs: string, exit: string, e: LoopRoundReport['eval']) => [
    name,
    pairs,
    exit,
    pct(e?.false_claim_rate),
    pct(e?.truth_free.rejected_claim_rate),
    pct(e?.greedy?.false_claim_rate),
    pct(e?.response_hallucination_rate),
    num(e?.true_claims_per_answer),
    num(e?.truth_free.accepted_claims_per_answer),
    num(e?.truth_free.distinct_answers_per_prompt, 1),
    win(e?.truth_free.win_rate_vs_previous),
    win(e?.truth_free.win_rate_vs_start),
  ];
  // With loop.ablation_prompts: the final turn's false claims with no, the true and its own earlier turns.
  const ablation = [baseline, ...rounds.map((r) => r.eval)].some((e) => e?.multiturn_ablation);
  if (ablation) head.push('mt: no history', 'mt: true turns', 'mt: own turns');
  const withAblation = (cells: string[], e: LoopRoundReport['eval']) => {
    const a = e?.multiturn_ablation;
    const f = (x: { false_claim_rate: number | null; rejected_claim_rate: number | null } | undefined) => pct(x ? (x.false_claim_rate ?? x.rejected_claim_rate) : null);
    return ablation ? [...cells, f(a?.no_history), f(a?.true_history), f(a?.own_history)] : cells;
  };
  // With loop.eval_feedback: the share of N_e corrected after one feedback turn, and within three.
  const feedback = [baseline, ...rounds.map((r) => r.eval)].some((e) => e?.feedback);
  if (feedback) head.push('corrected (1 turn)', 'corrected (3 turns)');
  const withFeedback = (cells: string[], e: LoopRoundReport['eval']) => {
    const f = e?.feedback;
    return feedback ? [...cells, pct(f?.correction_rate), pct(f?.correct_after_turn.at(-1))] : cells;
  };
  const rows = [head, withFeedback(withAblation(row('start', '-', '-', baseline), baseline), baseline)];
  for (const r of rounds) rows.push(withFeedback(withAblation(row(`${r.loop_round} (#${r.round ?? '-'})`, String(r.pairs ?? '-'), r.trainer_exit === null ? '-' : `exit ${r.trainer_exit}`, r.eval), r.eval), r.eval));
  const w = head.map((_, i) => Math.max(...rows.map((x) => x[i]!.length)));
  return rows.map((x) => x.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n') + '\n';
}

/** Registers `loop`. */
export function registerLoop(program: Command): void {
  program
    .command('loop')
    .description('iterative rounds: the policy answers, pairs are made and pulled, a trainer trains, the checkpoint is evaluated and becomes the next policy')
    .requiredOption('--rounds <n>', 'rounds the loop should have done (finished rounds are not redone)', positiveInt('--rounds'))
    .option('--limit <n>', 'only the first N train prompts (and held-out prompts, unless --eval-limit)', positiveInt('--limit'))
    .option('--eval-limit <n>', 'only the first N held-out prompts', positiveInt('--eval-limit'))
    .addOption(configOption('config JSON file (its loop section; default: the embedded demo config)'))
    .addOption(dbOption('SQLite database (default: db/rlaifv.sqlite)'))
    .option('--policy <model>', 'the starting policy (a folder for local, a served model name for openai)')
    .option('--workers <n>', 'worker threads (default: the number of cores)', positiveInt('--workers'))
    .addOption(jsonOption('one JSON object: the starting policy (start) and one object per round (rounds)'))
    .addOption(quietOption('no progress output'))
    .option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg)
    .action(async (f: LoopFlags) => {
      const o: ConfigOverrides = {};
      if (f.db) o.db = f.db;
      if (f.policy) o.policy = f.policy;
      if (f.workers !== undefined) o.workers = f.workers;
      const { loadConfig } = await import('../config/load.js');
      const { config } = loadConfig(f.config, o);
      const { runLoop } = await import('../loop/index.js');
      const r = await runLoop(config, {
        rounds: f.rounds,
        ...(f.limit ? { limit: f.limit } : {}),
        ...(f.evalLimit ? { evalLimit: f.evalLimit } : {}),
        progress: progressFromFlags(f),
        echo: f.quiet ? null : process.stderr,
      });
      const baseline = {
        ...r.baseline.sampled,
        greedy: r.baseline.greedy,
        eval_id: r.baseline.id,
        truth_free: { ...r.baseline.truth_free, win_rate_vs_previous: null, win_rate_vs_start: null },
        multiturn_ablation: r.baseline_ablation,
        feedback: r.baseline_feedback,
      };
      const rounds = r.rounds.slice(0, f.rounds);
      // --json holds every row the table shows: the starting policy's evaluation, then the rounds.
      const start = { loop: r.loop.id, policy: r.baseline.policy, policy_sha256: r.baseline.policy_sha256, eval: baseline };
      process.stdout.write(f.json ? JSON.stringify({ start, rounds }) + '\n' : render(baseline, rounds));
    });
}
