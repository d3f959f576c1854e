// `rlaifv stats`: counts per stage for a round.
import type { Command } from 'commander';
import { latestRound, openDb, roundStats } from '../store/index.js';
import { loadConfig } from '../config/load.js';
import { roundArg } from './common.js';

/** Registers `stats`. */
export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('counts of a round (prompts, answers, claims, labels, pairs, failures)')
    .option('--db <file>', 'SQLite database (default: db/rlaifv.sqlite)')
    .option('--config <file>', 'config JSON file (for its db path)')
    .option('--round <n|latest>', 'round (default: latest)', roundArg)
    .option('--json', 'one JSON object')
    .action((f: { db?: string; config?: string; round?: number | 'latest' | 'next'; json?: boolean }) => {
      const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
      const db = openDb(config.db, { readonly: true, upgrade: true });
      try {
        const id = typeof f.round === 'number' ? f.round : latestRound(db)?.id;
        if (id === undefined) throw new Error(`No rounds in ${config.db} yet; run \`rlaifv run\` first.`);
        const s = roundStats(db, id);
        if (f.json) process.stdout.write(JSON.stringify(s) + '\n');
        else for (const [k, v] of Object.entries(s)) process.stdout.write(`${k.padEnd(20)} ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
      } finally {
        db.close();
      }
    });
}
