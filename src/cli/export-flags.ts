// Flags and checks the export commands (pull, export, sql) share.
import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { configOption, dbOption } from './flags.js';
import { storePath } from '../config/store-path.js';
import { ExportInputError } from '../export/errors.js';
import { FORMATS } from '../export/formats.js';

/** The store path the flags point at (--db, else the config's `db`), checked to exist: readers never create one. */
export async function existingDbFile(f: { db?: string; config?: string }): Promise<string> {
  const config = { db: await storePath(f) };
  if (!existsSync(config.db)) {
    throw new ExportInputError(`Database ${config.db} does not exist; run \`rlaifv run\` first, or pass --db FILE.`);
  }
  return config.db;
}

/** Adds --db and --config (where the store is). */
export function withStoreFlags(cmd: Command): Command {
  return cmd.addOption(dbOption()).addOption(configOption('config JSON file (for its db path)'));
}

/** Adds --format (required; `extra` formats besides the pair formats) and --dataset-name, then the store flags. */
export function withFormatFlags(cmd: Command, extra: readonly string[] = []): Command {
  return withStoreFlags(
    cmd
      .addOption(new Option('--format <name>', 'trainer format').choices([...FORMATS, ...extra]).makeOptionMandatory())
      .option('--dataset-name <name>', 'llamafactory: the dataset_info.json entry (default: the file name without extension)')
      .option('--spans', 'add each side\'s claim spans (chosen_spans, rejected_spans: sentence ranges, verdict, p(no)); JSON files only')
      .option('--reference-logprobs', 'add each side\'s log-probs under the round\'s policy (pair.reference_logprobs): ref_chosen_logps/ref_rejected_logps; rlaifv: ref_win_logp, ref_win_avg_logp, ref_win_per_token_logp and ref_rej_*; JSON files only'),
  );
}
