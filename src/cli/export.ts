// `rlaifv export`: a round's kept pairs in a trainer format, to a file or stdout; no delivery is recorded.
import type { Command } from 'commander';
import { openDb } from '../store/index.js';
import { exportPairs, exportRound } from '../export/export.js';
import { existingDbFile, roundFlag, withFormatFlags } from './export-flags.js';

interface ExportFlags {
  format: string;
  out: string;
  round?: number | 'latest';
  db?: string;
  config?: string;
  datasetName?: string;
  spans?: boolean;
  referenceLogprobs?: boolean;
}

/** Registers `export`. */
export function registerExport(program: Command): void {
  withFormatFlags(
    program
      .command('export')
      .description("write a round's kept pairs in a trainer format (records no delivery; see pull)")
      .requiredOption('--out <file>', 'output file (.parquet: Parquet with image bytes, for trl and rlaifv), or - for stdout')
      .option('--round <n|latest>', 'round (default: latest)', roundFlag('latest')),
  ).action(async (f: ExportFlags) => {
    const file = existingDbFile(f);
    const db = openDb(file);
    try {
      const round = exportRound(db, f.round ?? 'latest', file);
      if (round.status !== 'done') {
        process.stderr.write(`note: round ${round.id} is ${round.status}; its pairs and length balance may still change.\n`);
      }
      const w = await exportPairs(db, {
        round: round.id,
        format: f.format,
        out: f.out,
        ...(f.datasetName ? { datasetName: f.datasetName } : {}),
        ...(f.spans ? { spans: true } : {}),
        ...(f.referenceLogprobs ? { referenceLogprobs: true } : {}),
      });
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
