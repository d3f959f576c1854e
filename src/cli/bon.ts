// `rlaifv bon`: best-of-N with the DPO model as the reward: N samples per prompt from the policy, each scored by
// β(log π − log π_ref), the best one chosen; one JSON line per prompt.
import { existsSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { BON_DEFAULTS, type BonSettings } from '../pipeline/bon-settings.js';
import { INPUT_FORMATS } from '../config/input-formats.js';
import { InputFileError } from '../input/reader.js';
import { REWARD_VARIANTS, type RewardVariant } from '../methods/dpo-reward-math.js';
import { PROGRESS_EVERY_HELP, progressEveryArg, progressFromFlags, seedArg, temperatureArg } from './common.js';
import { deprecatedAlias, jsonOption, positiveInt, quietOption, samplesOption } from './flags.js';

function betaArg(v: string): number {
  const b = Number(v);
  if (!Number.isFinite(b) || b <= 0) throw new InvalidArgumentError(`--beta must be a positive number, got "${v}".`);
  return b;
}

interface BonFlags {
  prompts: string;
  policy: string;
  ref: string;
  samples: number;
  /** The old spelling of --samples (hidden, deprecated for one release). */
  n?: number;
  beta: number;
  reward: RewardVariant;
  temperature: number;
  seed: number;
  limit?: number;
  out?: string;
  json?: boolean;
  inputFormat?: string;
  workers?: number;
  quiet?: boolean;
  progressEvery?: number;
  apiKeyEnv?: string;
}

/** Registers `bon`. */
export function registerBon(program: Command): void {
  program
    .command('bon')
    .description('best-of-N with the DPO model as the reward: N samples per prompt from --policy, the one with the highest β(log π − log π_ref) chosen')
    .requiredOption('--prompts <file>', 'prompts file (JSONL, Parquet data set, RLAIF-V rows, LLaVA conversations)')
    .requiredOption('--policy <model>', 'the trained policy: a model folder, or MODEL@http://host:port/v1 served by vLLM; it samples and scores')
    .requiredOption('--ref <model>', 'the reference (the checkpoint DPO started from): a model folder or MODEL@URL')
    .option('--api-key-env <name>', 'the environment variable holding the API key of served models')
    .addOption(samplesOption('answers sampled per prompt', BON_DEFAULTS.n))
    .addOption(deprecatedAlias('--n', '--samples', positiveInt('--n')))
    .option('--beta <b>', 'β of the reward', betaArg, BON_DEFAULTS.beta)
    .addOption(new Option('--reward <variant>', 'sum: β(Σ log π − Σ log π_ref); mean: the same per token').choices(REWARD_VARIANTS).default(BON_DEFAULTS.reward))
    .option('--temperature <t>', 'sampling temperature', temperatureArg, BON_DEFAULTS.temperature)
    .option('--seed <s>', 'sample i of prompt p has the seed a round with this seed gives it', seedArg, BON_DEFAULTS.seed)
    .option('--limit <n>', 'only the first N prompts', positiveInt('--limit'))
    .option('--out <file>', 'the JSONL output (default: stdout)')
    .addOption(jsonOption('the summary as one JSON object'))
    .addOption(new Option('--input-format <format>', 'how to read --prompts (default auto: by extension)').choices(INPUT_FORMATS))
    .option('--workers <n>', 'worker threads (default: the number of cores)', positiveInt('--workers'))
    .addOption(quietOption('no progress output'))
    .option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg)
    .action(async (f: BonFlags) => {
      // The runner and its backends are loaded when the command runs, not when its flags are parsed, and only once
      // the models parse and the prompts file exists (runBestOfN checks it again, with the same words, for library
      // callers): refusing the call loads neither the backends, the OpenAI SDK nor sharp.
      const { parseBonModel } = await import('../pipeline/bon-model.js');
      const policy = parseBonModel(f.policy, '--policy', f.apiKeyEnv);
      const reference = parseBonModel(f.ref, '--ref', f.apiKeyEnv);
      if (!existsSync(f.prompts)) throw new InputFileError(`Prompts file ${f.prompts} does not exist.`);
      const { runBestOfN } = await import('../pipeline/bon.js');
      const settings: BonSettings = { ...BON_DEFAULTS, n: f.n ?? f.samples, beta: f.beta, reward: f.reward, temperature: f.temperature, seed: f.seed };
      const toStdout = !f.out;
      const summary = await runBestOfN(
        {
          prompts: f.prompts,
          inputFormat: f.inputFormat ?? 'auto',
          limit: f.limit ?? null,
          policy,
          reference,
          settings,
          out: f.out ?? null,
          workers: f.workers ?? null,
          progress: progressFromFlags(f),
        },
        toStdout ? (row) => void process.stdout.write(JSON.stringify(row) + '\n') : undefined,
      );
      // The rows own stdout when there is no --out; the summary then goes to stderr.
      const write = (s: string) => void (toStdout ? process.stderr : process.stdout).write(s);
      if (f.json) return write(JSON.stringify(summary) + '\n');
      const r = (x: number | null) => (x === null ? '-' : x.toFixed(4));
      write(
        `best-of-${settings.n} (${settings.reward} reward, β ${settings.beta}) on ${summary.prompts} prompts${summary.out ? ` to ${summary.out}` : ''}: ` +
          `mean reward ${r(summary.mean_reward)}, chosen ${r(summary.mean_chosen_reward)}; ` +
          `${summary.failed_answers} of ${summary.answers} answers failed, ${summary.bad_prompts} bad prompts; ${summary.seconds.toFixed(1)} s\n`,
      );
    });
}
