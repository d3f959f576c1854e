#!/usr/bin/env node
// The `rlaifv` command: commands only parse, call the library and render.
import { Command } from 'commander';
import { registerRun } from './run.js';
import { registerStats } from './stats.js';

const program = new Command()
  .name('rlaifv')
  .description('DPO preference pairs from a vision-language model\'s own answers, with open-source AI feedback (RLAIF-V)')
  .showHelpAfterError();
registerRun(program);
registerStats(program);

program.parseAsync(process.argv).catch((e: Error) => {
  process.stderr.write(`rlaifv: ${e.message}\n`);
  process.exit(e.name === 'ConfigError' || e.name === 'InputError' ? 2 : 1);
});
