// `rlaifv doctor`: checks the config, model folders, database and remote endpoints, with a fix for each problem.
import type { Command } from 'commander';
import { configOption, dbOption, jsonOption } from './flags.js';

/** Registers `doctor`. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the config, local model folders, the database and every remote endpoint; each check says ok, warn or fail with a fix to try')
    .addOption(configOption('config JSON file (default: the embedded demo config)'))
    .addOption(dbOption('SQLite database (default: the config\'s db)'))
    .addOption(jsonOption('one JSON object'))
    .action(async (f: { config?: string; db?: string; json?: boolean }) => {
      const { doctorJson, renderDoctor, runDoctor } = await import('../doctor/index.js');
      const r = await runDoctor({ ...(f.config ? { config: f.config } : {}), ...(f.db ? { db: f.db } : {}) });
      process.stdout.write(f.json ? doctorJson(r) : renderDoctor(r));
      // 0 no failure, 1 a failure, 2 a bad config file; set, not exited, so stdout is written out first.
      process.exitCode = r.exitCode;
    });
}
