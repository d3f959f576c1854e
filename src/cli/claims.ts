// `rlaifv claims --in FILE`: how the configured divider divides any answers, one JSON line per input line.
import type { Command } from 'commander';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ClaimsLine } from '../pipeline/claims-preview.js';
import { InputError } from '../errors.js';
import { configOption } from './flags.js';

interface ClaimsFlags {
  in?: string;
  config?: string;
  out?: string;
}

/** Opens --out for writing, or names it in a usage error. */
async function openOut(file: string): Promise<WriteStream> {
  const s = createWriteStream(file);
  try {
    await once(s, 'open');
  } catch (e) {
    throw new InputError(`--out ${file}: cannot write it (${(e as Error).message})`);
  }
  return s;
}

/** Registers `claims`. */
export function registerClaims(program: Command): void {
  program
    .command('claims')
    .description('preview how the configured divider divides answers: JSONL {"id"?, "question"?, "answer"} in, one line of claims per line out')
    .option('--in <file>', 'answers, one JSON object a line: {"id"?, "question"?, "answer"}')
    .addOption(configOption('config JSON file whose divide section is used (default: the embedded demo config)'))
    .option('--out <file>', 'output JSONL file (default: stdout)')
    .action(async (f: ClaimsFlags) => {
      if (!f.in) throw new InputError('claims: --in <file> is required (answers as JSON lines).');
      // The config and the divider are loaded when the command runs, not when its flags are parsed.
      const { loadConfig } = await import('../config/load.js');
      const { config } = loadConfig(f.config);
      const { previewClaims, readLines } = await import('../pipeline/claims-preview.js');
      const lines = await readLines(f.in);
      const out = f.out ? await openOut(f.out) : process.stdout;
      const emit = async (l: ClaimsLine) => {
        // Reported as it goes, so a long preview shows its bad lines before it ends.
        if ('error' in l) process.stderr.write(`rlaifv claims: ${f.in}: ${l.error}\n`);
        if (!out.write(JSON.stringify(l) + '\n')) await once(out, 'drain');
      };
      const r = await previewClaims(config, lines, emit);
      if (out !== process.stdout) await new Promise<void>((resolve, reject) => (out as WriteStream).end((e?: Error | null) => (e ? reject(e) : resolve())));
      process.stderr.write(`divided ${r.lines - r.failed} of ${r.lines} lines with the ${config.divide.backend.type} divider; ${r.failed} failed\n`);
    });
}
