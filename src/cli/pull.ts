// `rlaifv pull`: the kept pairs a consumer has not had yet, each delivered exactly once.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { RoundSelector } from '../export/pull.js';
import { existingDbFile, withFormatFlags } from './export-flags.js';
import { jsonOption, roundOption } from './flags.js';

interface PullFlags {
  consumer: string;
  format: string;
  out?: string;
  round?: RoundSelector;
  db?: string;
  config?: string;
  datasetName?: string;
  spans?: boolean;
  referenceLogprobs?: boolean;
  json?: boolean;
}

/** Registers `pull`. */
export function registerPull(program: Command): void {
  withFormatFlags(
    program
      .command('pull')
      .description('deliver to a consumer the kept pairs it has not had yet (each pair once per consumer)')
      .requiredOption('--consumer <name>', 'who receives the pairs (letters, digits, . _ -), e.g. trainer')
      .option('--out <file>', 'output file (.parquet: Parquet with image bytes, for trl and rlaifv); default - (stdout)')
      .addOption(roundOption('finished rounds to deliver from (default: all)', ['latest', 'all']))
      .addOption(jsonOption('the delivery as one JSON object on stdout (needs --out FILE)')),
  ).action(async (f: PullFlags) => {
    if (f.json && (f.out ?? '-') === '-') throw new UsageError('--json prints the delivery on stdout, where the pairs would go: give --out FILE.');
    const file = await existingDbFile(f);
    // The store and the writers are loaded when the command runs, once the database is known to exist.
    const { openDb } = await import('../store/index.js');
    const { pull } = await import('../export/pull.js');
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
          ...(f.spans ? { spans: true } : {}),
          ...(f.referenceLogprobs ? { referenceLogprobs: true } : {}),
        },
        file,
      );
      for (const s of r.skipped) {
        process.stderr.write(`note: round ${s.id} is ${s.status}; its pairs are delivered once it is done.\n`);
      }
      if (r.heldOut) {
        process.stderr.write(`note: ${r.heldOut} kept pairs are withheld: their images are held out for evaluation (an eval round has seen them).\n`);
      }
      if (f.json) {
        const skipped = r.skipped.map((s) => ({ round: s.id, status: s.status }));
        const out = { consumer: r.consumer, format: f.format, container: r.container, rounds: r.rounds, skipped, held_out: r.heldOut, pairs: r.pairIds.length, delivery: r.delivery, bytes: r.bytes, out: r.target };
        return void process.stdout.write(JSON.stringify(out) + '\n');
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
