// `rlaifv eval`: a shapes-world round's feedback measured against the truth (divide, label, pairs, oracle), and the
// policy's hallucination; `--policy` evaluates a policy on held-out prompts first.
import { InvalidArgumentError, type Command } from 'commander';
import { getRound, openDb } from '../store/index.js';
import { loadConfig, type ConfigOverrides } from '../config/load.js';
import { EvalRefusal, evaluateRound, loadEvalRound, multiturnAblation, renderAblation, renderPolicyReport, renderTruthFree, roundHasHistory, roundHasTruth, truthFreeFigures, renderReport, resolveEvalRound, roundPolicyReport, policyReportOf } from '../eval/index.js';
import { evaluatePolicy } from '../policy-eval.js';
import { getPolicyEval } from '../store/index.js';
import { positiveInt, PROGRESS_EVERY_HELP, progressEveryArg, progressFromFlags, temperatureArg } from './common.js';

function evalRoundArg(v: string): number | 'latest' {
  if (v === 'latest') return v;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`--round must be a round number or "latest", got "${v}".`);
  return n;
}

interface EvalFlags {
  db?: string;
  config?: string;
  round?: number | 'latest';
  json?: boolean;
  policy?: string;
  prompts?: string;
  limit?: number;
  samples?: number;
  temperature?: number;
  greedy: boolean;
  quiet?: boolean;
  progressEvery?: number;
}

/** `--policy`: evaluate (or find the stored evaluation of) a policy on held-out prompts. */
async function evalPolicy(f: EvalFlags): Promise<void> {
  const o: ConfigOverrides = { policy: f.policy! };
  if (f.db) o.db = f.db;
  const { config } = loadConfig(f.config, o);
  const l = config.loop;
  const ev = await evaluatePolicy(config, {
    policy: config.generate.backend,
    prompts: f.prompts ? loadConfig(undefined, { prompts: f.prompts }).config.prompts : l.eval_prompts,
    limit: f.limit ?? l.eval_limit,
    samples: f.samples ?? l.eval_samples,
    temperature: f.temperature ?? l.eval_temperature,
    greedy: f.greedy,
    progress: progressFromFlags(f, f.quiet || f.json),
  });
  // Multi-turn prompts also get ConvBench's ablation (the final turn with no, true and its own earlier turns).
  const withHistory = (() => {
    const db = openDb(config.db, { readonly: true });
    try {
      return roundHasHistory(db, ev.sampled_round);
    } finally {
      db.close();
    }
  })();
  const ablation = withHistory
    ? await multiturnAblation(config, {
        policy: config.generate.backend,
        prompts: ev.prompts,
        limit: f.limit ?? l.eval_limit,
        samples: f.samples ?? l.eval_samples,
        temperature: f.temperature ?? l.eval_temperature,
        progress: progressFromFlags(f, f.quiet || f.json),
      })
    : null;
  const db = openDb(config.db, { readonly: true, upgrade: true });
  try {
    const report = policyReportOf(getPolicyEval(db, ev.id)!)!;
    process.stdout.write(
      f.json
        ? JSON.stringify({ policy: report, truth_free: ev.truth_free, greedy_truth_free: ev.greedy_truth_free, ...(ablation ? { multiturn_ablation: ablation } : {}) }) + '\n'
        : renderPolicyReport(report) + renderTruthFree(ev) + (ablation ? renderAblation(ablation) : ''),
    );
  } finally {
    db.close();
  }
}

/** Registers `eval`. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('feedback quality of a shapes-world round against the truth (divide, labels, pairs, oracle) and its policy\'s hallucination')
    .option('--db <file>', 'SQLite database (default: db/rlaifv.sqlite)')
    .option('--config <file>', 'config JSON file (for its db path, and the loop section\'s held-out settings)')
    .option('--round <n|latest>', 'round (default: latest)', evalRoundArg)
    .option('--policy <model>', 'evaluate this policy (a folder, or a served model name) on held-out prompts, sampled and greedy')
    .option('--prompts <file>', 'with --policy: held-out prompts, with or without shapes truth (default: loop.eval_prompts, the test split)')
    .option('--limit <n>', 'with --policy: the first N held-out prompts', positiveInt('--limit'))
    .option('--samples <n>', 'with --policy: samples per prompt (default: loop.eval_samples, 10)', positiveInt('--samples'))
    .option('--temperature <t>', 'with --policy: sampling temperature (default: loop.eval_temperature, 0.7)', temperatureArg)
    .option('--no-greedy', 'with --policy: no greedy answers')
    .option('--json', 'one JSON object')
    .option('--quiet', 'no progress output')
    .option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg)
    .action(async (f: EvalFlags) => {
      if (f.policy) return evalPolicy(f);
      const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
      let db;
      try {
        db = openDb(config.db, { readonly: true, upgrade: true });
      } catch (e) {
        throw new EvalRefusal((e as Error).message);
      }
      try {
        const id = resolveEvalRound(db, f.round, config.db);
        if (getRound(db, id)!.purpose === 'eval' && !roundHasTruth(db, id)) {
          // An evaluation round on prompts without truth: its truth-free figures are what there is.
          const free = truthFreeFigures(db, id);
          process.stdout.write(
            f.json
              ? JSON.stringify({ round: id, purpose: 'eval', truth_free: free }) + '\n'
              : `evaluation round ${id}: its prompts carry no truth (meta.truth)\n` +
                  renderTruthFree({ truth_free: free, greedy_truth_free: null, sampled_round: id, greedy_round: null, has_truth: false }),
          );
          return;
        }
        const round = loadEvalRound(db, id);
        const policy = roundPolicyReport(db, round);
        if (getRound(db, id)!.purpose === 'eval') {
          // An evaluation round has no labels or pairs: its policy is all there is to report.
          process.stdout.write(f.json ? JSON.stringify({ round: id, purpose: 'eval', policy }) + '\n' : renderPolicyReport(policy));
          return;
        }
        const report = { ...evaluateRound(round), policy };
        process.stdout.write(f.json ? JSON.stringify(report) + '\n' : renderReport(report) + renderPolicyReport(policy));
      } finally {
        db.close();
      }
    });
}
