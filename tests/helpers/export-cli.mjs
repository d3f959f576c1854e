// The built export commands (dist/, from `npm test`'s tsc) under the same program setup and exit codes as
// src/cli/main.ts (2 for bad config or input, 1 otherwise), for process tests until main.ts registers them.
import { Command } from 'commander';
import { registerExport } from '../../dist/cli/export.js';
import { registerPull } from '../../dist/cli/pull.js';
import { registerSql } from '../../dist/cli/sql.js';

const program = new Command().name('rlaifv').showHelpAfterError();
registerExport(program);
registerPull(program);
registerSql(program);

program.parseAsync(process.argv).catch((e) => {
  process.stderr.write(`rlaifv: ${e.message}\n`);
  process.exit(e.name === 'ConfigError' || e.name === 'InputError' ? 2 : 1);
});
