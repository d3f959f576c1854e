#!/usr/bin/env node
// The `rlaifv` command: commands only parse, call the library and render.
import { Command, CommanderError } from 'commander';
import { exitCodeOf } from '../errors.js';
import { registerCommands } from './commands.js';

const program = new Command()
  .name('rlaifv')
  .description('DPO preference pairs from a vision-language model\'s own answers, with open-source AI feedback (RLAIF-V)')
  .showHelpAfterError()
  // Commander's own usage errors (unknown flag or command, missing or bad value, no command) throw instead of exiting
  // with its 1, so the catch below exits 2 for them as for every usage error; the commands registered below inherit
  // this.
  .exitOverride();

// A reader that stops early (`rlaifv stats | head`) ends a printing command quietly, as other row-printing tools do.
// pull and export write pairs to stdout themselves and must report it instead (nothing is then recorded delivered).
if (!['pull', 'export'].includes(process.argv[2] ?? '')) {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

// The event loop emptied while a command was still waiting on something that can never come: a bug, never a success.
let settled = false;
process.on('beforeExit', () => {
  if (settled) return;
  process.stderr.write('rlaifv: internal error: the command stopped with work still pending (nothing left to wait on)\n');
  process.exit(1);
});

// Only the invoked command's module is loaded (commands.ts): the library behind the other commands stays unloaded.
registerCommands(program, process.argv[2])
  .then(() => program.parseAsync(process.argv))
  .then(() => {
    settled = true;
  })
  .catch((e: Error) => {
    settled = true;
    // Commander has printed its message (or the help) already; --help and --version end with its exit code 0.
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    process.stderr.write(`rlaifv: ${e.message}\n`);
    process.exit(exitCodeOf(e));
  });
