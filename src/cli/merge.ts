// `rlaifv merge --into DB SHARD.sqlite...`: shard stores of a round into one store (the merge, and the store behind
// it, loaded when the command runs).
import type { Command } from 'commander';
import { jsonOption } from './flags.js';

/** Registers `merge`. */
export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge shard stores (made with --shard i/n) into one store; merging a shard twice changes nothing')
    .requiredOption('--into <file>', 'the store to merge into (created if missing)')
    .argument('<shards...>', 'shard SQLite files')
    .addOption(jsonOption('one JSON object'))
    .action(async (files: string[], f: { into: string; json?: boolean }) => {
      const { mergeStores } = await import('../pipeline/merge.js');
      const r = mergeStores(f.into, files);
      if (f.json) return void process.stdout.write(JSON.stringify(r) + '\n');
      for (const s of r.shards) {
        const rows = Object.entries(s.rows).filter(([, n]) => n > 0).map(([t, n]) => `${n} ${t}`).join(', ');
        process.stdout.write(`${s.file}${s.shard ? ` (shard ${s.shard})` : ''}: ${s.skipped ? 'merged before, skipped' : rows || 'nothing new'}\n`);
      }
      for (const x of r.rounds) {
        process.stdout.write(
          `round ${x.id} (${x.status}): shards ${x.shards.join(', ') || '-'}${x.complete ? ' (complete)' : ''}; ` +
            `${x.prompts} prompts, ${x.paired} paired, ${x.pairs} pairs, ${x.kept} after length balance\n`,
        );
      }
    });
}
