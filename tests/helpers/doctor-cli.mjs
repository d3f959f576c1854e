// The built `rlaifv doctor` command (dist/, from `npm test`'s tsc) under the same program setup and exit codes as
// src/cli/main.ts, for process tests until main.ts registers it.
import { Command } from 'commander';
import { registerDoctor } from '../../dist/cli/doctor.js';

const program = new Command().name('rlaifv').showHelpAfterError();
registerDoctor(program);

program.parseAsync(process.argv).catch((e) => {
  process.stderr.write(`rlaifv: ${e.message}\n`);
  process.exit(['ConfigError', 'InputError', 'FatalBackendError'].includes(e.name) ? 2 : 1);
});
