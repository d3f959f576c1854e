// `rlaifv report`: one round as a self-contained HTML page with charts. The config, the store and the report are
// loaded when the command runs, the last two once the database is known to exist.
import { existsSync, statSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { storePath } from '../config/store-path.js';
import { configOption, dbOption, jsonOption, quietOption, roundOption } from './flags.js';
import { InputError } from '../errors.js';
import { DEFAULT_REPORT_PAIRS } from '../report/defaults.js';
import { writeFileAtomic } from '../util/fs.js';

/** The report's default file, in the current folder. */
export const DEFAULT_REPORT_FILE = 'report.html';

/** Parses --pairs: a whole number of pairs, 0 for none. */
function pairsArg(v: string): number {
  if (!/^\d+$/.test(v.trim())) throw new InvalidArgumentError('--pairs must be a whole number of pairs (0: no pair browser).');
  return Number(v);
}

/** Registers `report`. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('one round as a self-contained HTML page with charts (no network needed to view it)')
    .addOption(configOption('config JSON file (for its db path)'))
    .addOption(dbOption())
    .addOption(roundOption('round (default: latest)', ['latest'], 'a report reads an existing round'))
    .option('--out <file>', `HTML file to write (default: ${DEFAULT_REPORT_FILE})`)
    .option('--pairs <n>', `pairs in the page's pair browser, sampled with the round's seed (default: ${DEFAULT_REPORT_PAIRS}; 0: none)`, pairsArg)
    .addOption(quietOption('print nothing on success'))
    .addOption(jsonOption('one JSON object: {round, out, bytes}'))
    .action(async (f: { config?: string; db?: string; round?: number | 'latest'; out?: string; pairs?: number; quiet?: boolean; json?: boolean }) => {
      const config = { db: await storePath(f) };
      if (!existsSync(config.db)) throw new InputError(`No database at ${config.db}; run \`rlaifv run\` first or pass --db.`);
      const out = f.out ?? DEFAULT_REPORT_FILE;
      if (existsSync(out) && statSync(out).isDirectory()) throw new InputError(`--out ${out} is a folder; give a file name.`);
      const { getRound, latestRound, openDb } = await import('../store/index.js');
      const { buildReport } = await import('../report/index.js');
      const db = openDb(config.db, { readonly: true, upgrade: true });
      try {
        const round = typeof f.round === 'number' ? getRound(db, f.round) : latestRound(db);
        if (!round) {
          throw new InputError(
            typeof f.round === 'number'
              ? `No round ${f.round} in ${config.db}${latestRound(db) ? ` (the latest is round ${latestRound(db)!.id})` : ''}.`
              : `No rounds in ${config.db} yet; run \`rlaifv run\` first.`,
          );
        }
        const html = buildReport(db, round.id, { pairs: f.pairs });
        writeFileAtomic(out, html);
        const bytes = Buffer.byteLength(html);
        if (f.json) process.stdout.write(JSON.stringify({ round: round.id, out, bytes }) + '\n');
        else if (!f.quiet) process.stdout.write(`round ${round.id} report: ${out} (${Math.round(bytes / 1024)} KB)\n`);
      } finally {
        db.close();
      }
    });
}
