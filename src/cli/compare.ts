// `rlaifv compare`: two policies on the same held-out prompts and seeds, each pair of answers judged in both orders;
// the win rate of A (ties half) with a bootstrap interval over prompts, overall and per instruction kind.
import type { Command } from 'commander';
import type { ConfigOverrides } from '../config/load.js';
import type { ModelBackend } from '../config/schema.js';
import type { CompareResult, CompareTally } from '../eval/runs/compare/index.js';
import { table } from '../eval/render.js';
import { PROGRESS_EVERY_HELP, progressEveryArg, progressFromFlags, temperatureArg } from './common.js';
import { configOption, dbOption, jsonOption, positiveInt, quietOption, samplesOption } from './flags.js';

interface CompareFlags {
  a: string;
  b: string;
  prompts: string;
  limit?: number;
  samples?: number;
  temperature?: number;
  judge: string;
  apiKeyEnv?: string;
  db?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  progressEvery?: number;
}

/** A policy flag: a model folder, a name the config's policy server serves, or MODEL@URL (read as `rlaifv bon` reads it). */
async function policyBackend(flag: string, value: string, f: CompareFlags): Promise<ModelBackend> {
  const { parseBonModel } = await import('../pipeline/bon-model.js');
  const m = parseBonModel(value, flag, f.apiKeyEnv);
  if (typeof m !== 'string') return m;
  const o: ConfigOverrides = { policy: m };
  const { loadConfig } = await import('../config/load.js');
  return loadConfig(f.config, o).config.generate.backend;
}

const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const ci = (c: [number, number] | null) => (c === null ? '–' : `${pct(c[0])} – ${pct(c[1])}`);

/** The comparison as text: the overall row, then one per instruction kind. */
export function renderCompare(r: CompareResult): string {
  const row = (name: string, t: CompareTally) => [name, String(t.prompts), String(t.pairs), String(t.wins_a), String(t.wins_b), String(t.ties), pct(t.win_rate_a), ci(t.ci95), String(t.position_flips), String(t.failed)];
  const rows = [['', 'prompts', 'pairs', 'A wins', 'B wins', 'ties', 'A win rate', '95% CI', 'order flips', 'failed'], row('all', r)];
  for (const [k, t] of Object.entries(r.by_kind)) rows.push(row(k, t));
  const verdict =
    r.ci95 === null
      ? 'no pairs to judge'
      : r.ci95[0] > 0.5
        ? 'A is better (the interval is above 50%)'
        : r.ci95[1] < 0.5
          ? 'B is better (the interval is below 50%)'
          : 'no detectable difference (the interval holds 50%)';
  return (
    `A ${r.a} (evaluation round ${r.a_round}) against B ${r.b} (round ${r.b_round}) on ${r.prompts_file}, judge ${r.judge}\n` +
    `${table(rows)}\n${verdict}; ${r.identical_answers} of ${r.pairs + r.failed} pairs are the same text in both (ties to any judge)\n`
  );
}

/** Registers `compare`. */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('two policies answer the same held-out prompts with the same seeds; a judge decides each pair of answers in both orders')
    .requiredOption('--a <model>', 'policy A: a model folder, a model the config\'s policy server serves, or MODEL@URL')
    .requiredOption('--b <model>', 'policy B (as --a)')
    .requiredOption('--prompts <file>', 'held-out prompts (JSONL, Parquet data set, LLaVA conversations); truth is needed only by --judge truth')
    .option('--limit <n>', 'the first N prompts', positiveInt('--limit'))
    .addOption(samplesOption('answers per prompt and policy (default: loop.eval_samples, 10)'))
    .option('--temperature <t>', 'sampling temperature (default: loop.eval_temperature, 0.7)', temperatureArg)
    .option('--judge <judge>', 'truth (the shapes checker), claims (rlaifv\'s divider and labeler, no truth) or MODEL@URL (a served VLM)', 'claims')
    .option('--api-key-env <name>', 'the environment variable holding the API key of a served judge or policy')
    .addOption(dbOption('SQLite database (default: db/rlaifv.sqlite)'))
    .addOption(configOption('config JSON file (its labeler, divider and policy server)'))
    .addOption(jsonOption('one JSON object'))
    .addOption(quietOption('no progress output'))
    .option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg)
    .action(async (f: CompareFlags) => {
      // The config and the comparison (policies, judges, store) are loaded when the command runs.
      const { comparePolicies, parseJudgeSpec } = await import('../eval/runs/compare/index.js');
      const { loadConfig } = await import('../config/load.js');
      const judge = parseJudgeSpec(f.judge, '--judge', f.apiKeyEnv);
      const { config } = loadConfig(f.config, { ...(f.db ? { db: f.db } : {}), prompts: f.prompts });
      const r = await comparePolicies(config, {
        a: await policyBackend('--a', f.a, f),
        b: await policyBackend('--b', f.b, f),
        prompts: config.prompts,
        limit: f.limit ?? null,
        samples: f.samples ?? config.loop.eval_samples,
        temperature: f.temperature ?? config.loop.eval_temperature,
        judge,
        progress: progressFromFlags(f, f.quiet || f.json),
      });
      process.stdout.write(f.json ? JSON.stringify(r) + '\n' : renderCompare(r));
    });
}
