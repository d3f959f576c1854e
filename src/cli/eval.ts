// `rlaifv eval`: a shapes-world round's feedback measured against the truth (divide, label, pairs, oracle), and the
// policy's hallucination; `--policy` evaluates a policy on held-out prompts first. The config, the store, the
// evaluation and its runners are loaded when the command runs, not when its flags are parsed.
import { existsSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Db } from '../store/index.js';
import type { ConfigOverrides } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { EvalRound, ToolsFigures } from '../eval/index.js';
import { FEEDBACK_LEVELS, FEEDBACK_PROVIDERS, type FeedbackLevel, type FeedbackProvider } from '../feedback/feedback-levels.js';
import { InputError, UsageError } from '../errors.js';
import { configOption, dbOption, jsonOption, positiveInt, quietOption, roundOption, samplesOption } from './flags.js';
import { PROGRESS_EVERY_HELP, progressEveryArg, progressFromFlags, temperatureArg } from './common.js';


/** Parses --feedback-noise: a probability from 0 to 1. */
function noiseArg(v: string): number {
  const r = Number(v);
  if (v.trim() === '' || !Number.isFinite(r) || r < 0 || r > 1) throw new InvalidArgumentError(`--feedback-noise must be a probability from 0 to 1, got "${v}".`);
  return r;
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
  feedback?: FeedbackLevel;
  provider?: FeedbackProvider;
  feedbackNoise?: number;
  maxTurns?: number;
  tools?: boolean;
}

/** `--policy P --feedback L`: the policy's correction rate after feedback, instead of its hallucination figures. */
async function evalFeedback(f: EvalFlags): Promise<void> {
  const o: ConfigOverrides = { policy: f.policy! };
  if (f.db) o.db = f.db;
  const { loadConfig } = await import('../config/load.js');
  const { config } = loadConfig(f.config, o);
  const { correctionEval, renderCorrection } = await import('../eval/runs/correction.js');
  const report = await correctionEval(config, {
    policy: config.generate.backend,
    prompts: await heldOutPrompts(f, config),
    limit: f.limit ?? config.loop.eval_limit,
    level: f.feedback!,
    provider: f.provider ?? 'truth',
    noise: f.feedbackNoise ?? 0,
    maxTurns: f.maxTurns ?? 3,
    progress: progressFromFlags(f, f.quiet || f.json),
  });
  process.stdout.write(f.json ? JSON.stringify({ feedback: report }) + '\n' : renderCorrection(report));
}

/** The held-out prompts: --prompts, else the config's loop.eval_prompts (the test split). */
async function heldOutPrompts(f: EvalFlags, config: Config): Promise<string> {
  if (!f.prompts) return config.loop.eval_prompts;
  const { loadConfig } = await import('../config/load.js');
  return loadConfig(undefined, { prompts: f.prompts }).config.prompts;
}

/** `--policy`: evaluate (or find the stored evaluation of) a policy on held-out prompts. */
async function evalPolicy(f: EvalFlags): Promise<void> {
  const o: ConfigOverrides = { policy: f.policy! };
  if (f.db) o.db = f.db;
  const { loadConfig } = await import('../config/load.js');
  const { config } = loadConfig(f.config, o);
  const { evaluatePolicy } = await import('../eval/runs/policy-eval.js');
  const { multiturnAblation, policyReportOf, renderAblation, renderPolicyReport, renderTruthFree, roundHasHistory } = await import('../eval/index.js');
  const { getPolicyEval, openDb } = await import('../store/index.js');
  const l = config.loop;
  const ev = await evaluatePolicy(config, {
    policy: config.generate.backend,
    prompts: await heldOutPrompts(f, config),
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

/** `--tools`: the round's verdicts recomputed with the config's tools and routing table. */
async function evalTools(db: Db, round: EvalRound, config: Config): Promise<ToolsFigures> {
  const routing = config.label.routing;
  if (config.label.tools.length === 0 || routing === null || typeof routing === 'string') {
    throw new UsageError('--tools needs a config (--config) with label.tools and label.routing (from rlaifv calibrate-tools).');
  }
  const { createTools } = await import('../tools/index.js');
  const { roundKnowledge, toolsFigures } = await import('../eval/index.js');
  const tools = createTools(config);
  return toolsFigures(round, tools, await roundKnowledge(db, round, tools), routing);
}

/** Registers `eval`. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('feedback quality of a shapes-world round against the truth (divide, labels, pairs, oracle) and its policy\'s hallucination')
    .addOption(dbOption('SQLite database (default: db/rlaifv.sqlite)'))
    .addOption(configOption('config JSON file (for its db path, and the loop section\'s held-out settings)'))
    .addOption(roundOption('round (default: latest)', ['latest']))
    .option('--policy <model>', 'evaluate this policy (a folder, or a served model name) on held-out prompts, sampled and greedy')
    .option('--prompts <file>', 'with --policy: held-out prompts, with or without shapes truth (default: loop.eval_prompts, the test split)')
    .option('--limit <n>', 'with --policy: the first N held-out prompts', positiveInt('--limit'))
    .addOption(samplesOption('with --policy: samples per prompt (default: loop.eval_samples, 10)'))
    .option('--temperature <t>', 'with --policy: sampling temperature (default: loop.eval_temperature, 0.7)', temperatureArg)
    .option('--no-greedy', 'with --policy: no greedy answers')
    .addOption(new Option('--feedback <level>', 'with --policy: the correction rate after a teacher\'s feedback turn, detailed (each false claim corrected) or simple (only "Your answer has errors.")').choices(FEEDBACK_LEVELS))
    .addOption(new Option('--provider <provider>', 'with --feedback: whose verdicts the teacher speaks from (default truth)').choices(FEEDBACK_PROVIDERS))
    .option('--feedback-noise <r>', 'with --feedback: flip each of the provider\'s verdicts with probability r (seeded; default 0)', noiseArg)
    .option('--max-turns <n>', 'with --feedback: feedback turns at most while the answer stays wrong (default 3)', positiveInt('--max-turns'))
    .option('--tools', 'also recompute the round\'s verdicts with the config\'s label.tools and label.routing (nothing stored changes)')
    .addOption(jsonOption('one JSON object'))
    .addOption(quietOption('no progress output'))
    .option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg)
    .action(async (f: EvalFlags) => {
      for (const [flag, given] of [['--provider', f.provider], ['--feedback-noise', f.feedbackNoise], ['--max-turns', f.maxTurns]] as const) {
        if (given !== undefined && !f.feedback) throw new UsageError(`${flag} needs --feedback simple|detailed.`);
      }
      if (f.feedback && !f.policy) throw new UsageError('--feedback needs --policy MODEL (the policy whose answers get feedback).');
      if (f.feedback) {
        for (const [flag, given] of [['--samples', f.samples], ['--temperature', f.temperature]] as const) {
          if (given !== undefined) throw new UsageError(`${flag} does not go with --feedback: every answer of a feedback conversation is greedy (T 0), one per prompt.`);
        }
        return evalFeedback(f);
      }
      if (f.policy) return evalPolicy(f);
      const { loadConfig } = await import('../config/load.js');
      const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
      // A missing database is refused (in openDb's words) before SQLite and the evaluation, with its backends, load.
      if (!existsSync(config.db)) throw new InputError(`Database ${config.db} does not exist.`);
      const { getRound, openDb } = await import('../store/index.js');
      const { EvalRefusal, evaluateRound, loadEvalRound, renderPolicyReport, renderReport, renderTools, renderTruthFree, resolveEvalRound, roundHasTruth, roundPolicyReport, truthFreeFigures } =
        await import('../eval/index.js');
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
        const tools = f.tools ? await evalTools(db, round, config) : null;
        const report = { ...evaluateRound(round), policy, ...(tools ? { tools } : {}) };
        process.stdout.write(f.json ? JSON.stringify(report) + '\n' : renderReport(report) + renderPolicyReport(policy) + (tools ? renderTools(tools) : ''));
      } finally {
        db.close();
      }
    });
}
