// `rlaifv pull`: the kept pairs a consumer has not had yet, each delivered exactly once.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { openDb } from '../store/index.js';
import { pull, type RoundSelector } from '../export/pull.js';
import { FORMATS } from '../export/formats.js';
import { existingDbFile } from './store-file.js';

function roundSelector(v: string): RoundSelector {
  if (v === 'latest' || v === 'all') return v;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`--round must be a round number, "latest" or "all", got "${v}".`);
  return n;
}

interface PullFlags {
  consumer: string;
  format: string;
  out?: string;
  round?: RoundSelector;
  db?: string;
  config?: string;
  datasetName?: string;
}

/** Registers `pull`. */
export function registerPull(program: Command): void {
  program
    .command('pull')
    .description('deliver to a consumer the kept pairs it has not had yet (each pair once per consumer)')
    .requiredOption('--consumer <name>', 'who receives the pairs (letters, digits, . _ -), e.g. trainer')
    .addOption(new Option('--format <name>', 'trainer format').choices([...FORMATS]).makeOptionMandatory())
    .option('--out <file>', 'output file (.parquet: Parquet with image bytes, for trl and rlaifv); default - (stdout)')
    .option('--round <n|latest|all>', 'finished rounds to deliver from (default: all)', roundSelector)
    .option('--dataset-name <name>', 'llamafactory: the dataset_info.json entry (default: the file name without extension)')
    .option('--db <file>', 'SQLite database (default: db/rlaifv.sqlite)')
    .option('--config <file>', 'config JSON file (for its db path)')
    .action(async (f: PullFlags) => {
      const file = existingDbFile(f);
      const db = openDb(file);
      try {
        const r = await pull(
          db,
          {
            consumer: f.consumer,
            rounds: f.round ?? 'all',
            format: f.format,
            out: f.out ?? '-',
            ...(f.datasetName ? { datasetName: f.datasetName } : {}),
          },
          file,
        );
        for (const s of r.skipped) {
          process.stderr.write(`note: round ${s.id} is ${s.status}; its pairs are delivered once it is done.\n`);
        }
        const rounds = r.rounds.length ? `round${r.rounds.length > 1 ? 's' : ''} ${r.rounds.join(', ')}` : 'no finished round';
        const where = r.target === '-' ? 'stdout' : r.target;
        process.stderr.write(
          `pulled ${r.pairIds.length} new pairs (${rounds}) for ${r.consumer} as ${f.format} (${r.container}) ` +
            `to ${where}: delivery ${r.delivery}, ${r.bytes} bytes\n`,
        );
      } finally {
        db.close();
      }
    });
}
