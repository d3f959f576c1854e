// `rlaifv eval`: a shapes-world round's feedback measured against the truth (divide, label, pairs, oracle).
import { InvalidArgumentError, type Command } from 'commander';
import { openDb } from '../store/index.js';
import { loadConfig } from '../config/load.js';
import { EvalRefusal, evaluateRound, loadEvalRound, renderReport, resolveEvalRound } from '../eval/index.js';

function evalRoundArg(v: string): number | 'latest' {
  if (v === 'latest') return v;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`--round must be a round number or "latest", got "${v}".`);
  return n;
}

/** Registers `eval`. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('feedback quality of a shapes-world round against the truth: divide, labels, pair accuracy (REJ-C, REJ-P, oracle)')
    .option('--db <file>', 'SQLite database (default: db/rlaifv.sqlite)')
    .option('--config <file>', 'config JSON file (for its db path)')
    .option('--round <n|latest>', 'round (default: latest)', evalRoundArg)
    .option('--json', 'one JSON object')
    .action((f: { db?: string; config?: string; round?: number | 'latest'; json?: boolean }) => {
      const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
      let db;
      try {
        db = openDb(config.db, { readonly: true });
      } catch (e) {
        throw new EvalRefusal((e as Error).message);
      }
      try {
        const report = evaluateRound(loadEvalRound(db, resolveEvalRound(db, f.round, config.db)));
        process.stdout.write(f.json ? JSON.stringify(report) + '\n' : renderReport(report));
      } finally {
        db.close();
      }
    });
}
