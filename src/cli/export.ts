// `rlaifv export`: a round's kept pairs in a trainer format, to a file or stdout; no delivery is recorded.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { ExportInputError } from '../export/errors.js';
import { existingDbFile, withFormatFlags } from './export-flags.js';
import { jsonOption, roundOption } from './flags.js';

interface ExportFlags {
  format: string;
  out: string;
  round?: number | 'latest';
  db?: string;
  config?: string;
  datasetName?: string;
  spans?: boolean;
  referenceLogprobs?: boolean;
  json?: boolean;
}

/** Registers `export`. */
export function registerExport(program: Command): void {
  withFormatFlags(
    program
      .command('export')
      .description("write a round's kept pairs in a trainer format (records no delivery; see pull)")
      .requiredOption('--out <file>', 'output file (.parquet: Parquet with image bytes, for trl and rlaifv), or - for stdout')
      .addOption(roundOption('round (default: latest)', ['latest']))
      .addOption(jsonOption('one JSON object (round, format, pairs, bytes, out) on stdout; needs --out FILE')),
    ['fire'],
  ).action(async (f: ExportFlags) => {
    if (f.json && f.out === '-') throw new UsageError('--json prints the summary on stdout, where the pairs would go: give --out FILE.');
    const file = await existingDbFile(f);
    // The store and the writers are loaded when the command runs, once the database is known to exist.
    const { openDb } = await import('../store/index.js');
    const { exportPairs, exportRound } = await import('../export/export.js');
    const { exportDialogues } = await import('../export/fire.js');
    const db = openDb(file);
    try {
      const round = exportRound(db, f.round ?? 'latest', file);
      if (round.status !== 'done') {
        process.stderr.write(`note: round ${round.id} is ${round.status}; its pairs and length balance may still change.\n`);
      }
      if (f.format === 'fire') {
        // The round's refinement dialogues, not its pairs (pair.corrections "refine").
        if (f.spans || f.referenceLogprobs || f.datasetName) throw new ExportInputError('--format fire writes dialogues: --spans, --reference-logprobs and --dataset-name are for pair formats.');
        const w = exportDialogues(db, { round: round.id, out: f.out });
        if (f.json) return void process.stdout.write(JSON.stringify({ round: round.id, status: round.status, format: 'fire', dialogues: w.dialogues, bytes: w.bytes, out: w.target }) + '\n');
        process.stderr.write(
          `exported ${w.dialogues} refinement dialogues of round ${round.id} as fire (${w.bytes} bytes) to ${w.target === '-' ? 'stdout' : w.target}` +
            (w.dialogues === 0 ? '; the round has none (they come from pair.corrections "refine")' : '') +
            '\n',
        );
        return;
      }
      const w = await exportPairs(db, {
        round: round.id,
        format: f.format,
        out: f.out,
        ...(f.datasetName ? { datasetName: f.datasetName } : {}),
        ...(f.spans ? { spans: true } : {}),
        ...(f.referenceLogprobs ? { referenceLogprobs: true } : {}),
      });
      if (f.json) {
        const out = { round: round.id, status: round.status, format: f.format, container: w.container, pairs: w.pairIds.length, bytes: w.bytes, out: w.target, dataset_info: w.datasetInfo ?? null };
        return void process.stdout.write(JSON.stringify(out) + '\n');
      }
      const where = w.target === '-' ? 'stdout' : w.target;
      process.stderr.write(
        `exported ${w.pairIds.length} pairs of round ${round.id} as ${f.format} (${w.container}, ${w.bytes} bytes) to ${where}` +
          (w.datasetInfo ? `; entry added to ${w.datasetInfo}` : '') +
          '\n',
      );
    } finally {
      db.close();
    }
  });
}
