// Flags every command shares, and turning them into a loaded config. Only light modules are imported statically:
// a command's flags are defined and checked before its library (config loading with zod included) is loaded.
import { Command, InvalidArgumentError, Option } from 'commander';
import { configOption, dbOption, positiveInt, quietOption, wholeNumber } from './flags.js';
import type { ConfigOverrides, LoadedConfig } from '../config/load.js';
import type { RoundChoice } from '../pipeline/round.js';
import { INPUT_FORMATS } from '../config/input-formats.js';
import { parseShard, type Shard } from '../store/shard-spec.js';
import type { Progress } from '../progress.js';
import { DEFAULT_PROGRESS_SECONDS, terminalProgress } from './progress.js';

/** Parses --seed: a whole number from 0 to 2^31 − 1. */
export const seedArg = wholeNumber('--seed', 0, 2 ** 31 - 1);

/** Parses --temperature: a number from 0 to 5. */
export function temperatureArg(v: string): number {
  const t = Number(v);
  if (!Number.isFinite(t) || t < 0 || t > 5) throw new InvalidArgumentError(`--temperature must be a number from 0 to 5, got "${v}".`);
  return t;
}

/** Adds the common flags to a command. */
export function withCommonFlags(cmd: Command): Command {
  cmd
    .addOption(configOption())
    .addOption(dbOption())
    .option('--prompts <file>', 'prompts file (JSONL, Parquet data set, RLAIF-V rows), instead of the config\'s')
    .addOption(new Option('--input-format <format>', 'how to read --prompts (default auto: by extension)').choices(INPUT_FORMATS))
    .option('--image-column <name>', 'data-set prompts: the image column (default image)')
    .option('--question-column <name>', 'data-set prompts: the question column (default question)')
    .option('--id-column <name>', 'data-set prompts: the id column (default id, optional)')
    .option('--limit <n>', 'only the first N prompts', positiveInt('--limit'))
    .option('--seed <s>', 'round seed', seedArg)
    .option('--workers <n>', 'worker threads (default: the number of cores)', positiveInt('--workers'))
    .option('--chunk-prompts <n>', 'run: prompts streamed through the stages at a time (default 32)', positiveInt('--chunk-prompts'))
    .addOption(new Option('--on-error <mode>', 'a bad prompt stops the run, or is recorded and skipped').choices(['stop', 'skip']))
    .option('--shard <i/n>', 'only shard i of n (0-based; a fixed hash of each prompt id); give each shard its own --db', (v) => {
      try {
        return parseShard(v);
      } catch (e) {
        throw new InvalidArgumentError((e as Error).message);
      }
    })
    .option('--retry-failed', 'take the round\'s failed generate, divide, label, score and pair items up again (failures stay as history)');
  return withProgressFlags(cmd);
}

/** Parses --progress-every: seconds, a number ≥ 0. */
export function progressEveryArg(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`--progress-every must be a number of seconds ≥ 0, got "${v}".`);
  return n;
}

/** The help of --progress-every. */
export const PROGRESS_EVERY_HELP = `without a terminal (a log file): a progress line per stage every N seconds (default ${DEFAULT_PROGRESS_SECONDS}; 0: every item)`;

/** Adds --quiet and --progress-every to a command that shows progress. */
export function withProgressFlags(cmd: Command): Command {
  return cmd.addOption(quietOption()).option('--progress-every <seconds>', PROGRESS_EVERY_HELP, progressEveryArg);
}

/** The progress flags as commander parses them. */
export interface ProgressFlags {
  quiet?: boolean;
  progressEvery?: number;
}

/** The progress reporter the flags ask for. */
export function progressFromFlags(f: ProgressFlags, quiet = f.quiet): Progress {
  return terminalProgress({ quiet: !!quiet, ...(f.progressEvery !== undefined ? { everySeconds: f.progressEvery } : {}) });
}

/** The flags shared by every command, as commander parses them. */
export interface CommonFlags extends ProgressFlags {
  config?: string;
  db?: string;
  prompts?: string;
  limit?: number;
  seed?: number;
  workers?: number;
  chunkPrompts?: number;
  onError?: 'stop' | 'skip';
  inputFormat?: (typeof INPUT_FORMATS)[number];
  imageColumn?: string;
  questionColumn?: string;
  idColumn?: string;
  policy?: string;
  samples?: number;
  round?: RoundChoice;
  shard?: Shard;
  retryFailed?: boolean;
}

/** Loads the config the flags point at, with the flags applied. */
export async function configFromFlags(f: CommonFlags): Promise<LoadedConfig> {
  const { loadConfig } = await import('../config/load.js');
  const o: ConfigOverrides = {};
  if (f.prompts) o.prompts = f.prompts;
  if (f.db) o.db = f.db;
  if (f.seed !== undefined) o.seed = f.seed;
  if (f.workers !== undefined) o.workers = f.workers;
  if (f.chunkPrompts !== undefined) o.chunkPrompts = f.chunkPrompts;
  if (f.policy) o.policy = f.policy;
  if (f.samples !== undefined) o.samples = f.samples;
  if (f.onError) o.onError = f.onError;
  if (f.inputFormat) o.inputFormat = f.inputFormat;
  const columns = { image: f.imageColumn, question: f.questionColumn, id: f.idColumn };
  if (Object.values(columns).some((v) => v !== undefined)) {
    o.columns = Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
  }
  return loadConfig(f.config, o);
}
