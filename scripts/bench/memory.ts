// Figure 6: peak RSS of a whole `rlaifv run` (a child process: main thread and worker threads) on 1,000 vs 10,000
// prompts (target: 10k ÷ 1k ≤ 1.5). The prompts repeat the 200 dev prompts with fresh ids (images reused by path);
// `--samples 2` keeps the time manageable. Peak RSS comes from /usr/bin/time -v when present, else from VmHWM.
//
// --quick runs 100 vs 1,000 prompts instead (the ratio of record is 1k vs 10k).
import path from 'node:path';
import { checked, info, round, repeatedPrompts, runCliOk, tempDir, type BenchOptions, type BenchResult, type CliRun } from './common.js';

/** Settings of the memory bench. */
export interface MemoryOptions extends BenchOptions {
  small?: number;
  large?: number;
  samples?: number;
}

/** Runs figure 6. */
export async function benchMemory(opts: MemoryOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const small = opts.small ?? (opts.quick ? 100 : 1000);
  const large = opts.large ?? (opts.quick ? 1000 : 10_000);
  const samples = opts.samples ?? 2;
  const tmp = tempDir('memory');
  try {
    const run = async (n: number): Promise<CliRun> => {
      const prompts = repeatedPrompts(tmp.dir, n);
      log(`memory: rlaifv run on ${n} prompts × ${samples} samples`);
      const r = await runCliOk(['run', '--prompts', prompts, '--samples', String(samples), '--db', path.join(tmp.dir, `run-${n}.sqlite`), '--quiet'], { measureRss: true });
      if (r.maxRssBytes === null) throw new Error('memory: could not measure the peak RSS');
      log(`memory: ${n} prompts: peak RSS ${round(r.maxRssBytes / 2 ** 20, 1)} MiB, ${round(r.seconds, 1)} s`);
      return r;
    };
    const a = await run(small);
    const b = await run(large);
    const mib = (x: number) => round(x / 2 ** 20, 1);
    return {
      rows: [
        checked(`peak RSS, ${large.toLocaleString('en-US')} ÷ ${small.toLocaleString('en-US')} prompts`, round(b.maxRssBytes! / a.maxRssBytes!, 2), '×', '<=', 1.5,
          `${mib(b.maxRssBytes!)} MiB vs ${mib(a.maxRssBytes!)} MiB (${a.rssSource}); --samples ${samples}`),
        info(`run time per prompt, ${small.toLocaleString('en-US')} prompts`, round((1000 * a.seconds) / small, 1), 'ms', `${round(a.seconds, 1)} s in all`),
        info(`run time per prompt, ${large.toLocaleString('en-US')} prompts`, round((1000 * b.seconds) / large, 1), 'ms', `${round(b.seconds, 1)} s in all`),
      ],
    };
  } finally {
    tmp.cleanup();
  }
}
