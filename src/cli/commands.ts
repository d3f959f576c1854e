// The command modules of `rlaifv`, each with the commands it registers, in the order the top-level help lists them.
// main.ts loads only the invoked command's module (the library behind the others stays unloaded: a bad flag or
// `rlaifv stats` starts in a fraction of the time), and all of them for the top-level help or an unknown command.
import type { Command } from 'commander';
import { STAGES } from '../domain.js';

/** Adds a module's commands to the program. */
export type Register = (program: Command) => void;

/** One command module: the command names it registers and how to load its `register…` function. */
export interface CommandModule {
  names: readonly string[];
  load: () => Promise<Register>;
}

/** Every command module; a test checks that each registers exactly `names`. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ['run', ...STAGES], load: async () => (await import('./run.js')).registerRun },
  { names: ['stats'], load: async () => (await import('./stats.js')).registerStats },
  { names: ['report'], load: async () => (await import('./report.js')).registerReport },
  { names: ['merge'], load: async () => (await import('./merge.js')).registerMerge },
  { names: ['eval'], load: async () => (await import('./eval.js')).registerEval },
  { names: ['pull'], load: async () => (await import('./pull.js')).registerPull },
  { names: ['export'], load: async () => (await import('./export.js')).registerExport },
  { names: ['sql'], load: async () => (await import('./sql.js')).registerSql },
  { names: ['doctor'], load: async () => (await import('./doctor.js')).registerDoctor },
  { names: ['loop'], load: async () => (await import('./loop.js')).registerLoop },
  { names: ['bon'], load: async () => (await import('./bon.js')).registerBon },
  { names: ['compare'], load: async () => (await import('./compare.js')).registerCompare },
  { names: ['calibrate-tools'], load: async () => (await import('./calibrate-tools.js')).registerCalibrateTools },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServe },
  { names: ['claims'], load: async () => (await import('./claims.js')).registerClaims },
];

/**
 * The modules to register for a command line: the one that owns `command` (argv[2]) when it names a known command,
 * else all of them, so the top-level help, `help <command>` and commander's "unknown command" (with its suggestion)
 * see every command as before.
 */
export function modulesFor(command: string | undefined): readonly CommandModule[] {
  const owner = COMMAND_MODULES.find((m) => command !== undefined && m.names.includes(command));
  return owner ? [owner] : COMMAND_MODULES;
}

/** Registers the modules `command` needs on `program`, in the table's order. */
export async function registerCommands(program: Command, command: string | undefined): Promise<void> {
  const registers = await Promise.all(modulesFor(command).map((m) => m.load()));
  for (const register of registers) register(program);
}
