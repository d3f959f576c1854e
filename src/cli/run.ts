// `rlaifv run` and the per-stage commands: parse flags, call the library, render a summary. The store and the
// executor are loaded when the command runs, not when its flags are parsed.
import type { Command } from 'commander';
import type { RoundStats } from '../store/index.js';
import { STAGES, type StageName } from '../domain.js';
import { configFromFlags, progressFromFlags, withCommonFlags, type CommonFlags } from './common.js';
import { jsonOption, roundOption, samplesOption } from './flags.js';
import type { StageResult } from '../stages/context.js';

async function execute(stages: readonly StageName[], f: CommonFlags & { json?: boolean }, defaultRound: 'latest' | 'next'): Promise<void> {
  const { config } = await configFromFlags(f);
  const { runRound } = await import('../pipeline/round.js');
  const { openDb, roundStats } = await import('../store/index.js');
  const progress = progressFromFlags(f);
  const t0 = performance.now();
  const run = await runRound(config, {
    choice: f.round ?? defaultRound,
    stages,
    ...(f.limit ? { limit: f.limit } : {}),
    progress,
    shard: f.shard ?? null,
    ...(f.retryFailed ? { retryFailed: true } : {}),
  });
  const db = openDb(config.db, { readonly: true, upgrade: true });
  try {
    const stats = roundStats(db, run.round.id);
    const wall = (performance.now() - t0) / 1000;
    if (f.json) process.stdout.write(JSON.stringify(runJson(stats, run.ingest, run.ingestSeconds, run.results, wall)) + '\n');
    else printSummary(stats, run.ingest, run.ingestSeconds, run.results, wall, f.quiet);
  } finally {
    db.close();
  }
}

/** `run --json`: the round's counts (as `stats --json`), the input read, each stage's items, failures and seconds. */
function runJson(stats: RoundStats, ingest: { prompts: number; problems: number }, ingestSeconds: number, results: StageResult[], wallSeconds: number) {
  return {
    stats,
    input: { prompts: ingest.prompts, bad_lines: ingest.problems, seconds: ingestSeconds },
    stages: results.map((r) => ({ stage: r.stage, items: r.items, failures: r.failures, seconds: r.seconds, model_seconds: r.modelSeconds })),
    wall_seconds: wallSeconds,
  };
}

function printSummary(
  stats: RoundStats,
  ingest: { prompts: number; problems: number },
  ingestSeconds: number,
  results: StageResult[],
  wallSeconds: number,
  quiet?: boolean,
): void {
  if (quiet) return;
  const rows: [string, string, string][] = [['input', `${ingest.prompts} prompts, ${ingest.problems} bad lines`, ingestSeconds.toFixed(1)]];
  const count: Record<string, string> = {
    generate: `${stats.candidates} answers`,
    divide: `${stats.claims} claims, ${stats.questions} distinct questions`,
    label: stats.feedback_method === 'divide' ? `${stats.labeled} claims labeled, ${stats.rejected_claims} rejected` : `not used by feedback ${stats.feedback_method}`,
    score: `${stats.scored} answers scored${stats.feedback_method === 'divide' ? '' : ` by ${stats.feedback_method}`}`,
    pair:
      `${stats.pairs} pairs` +
      (stats.pairs_gated ? `, ${stats.pairs_gated} dropped by the gate` : '') +
      `, ${stats.pairs_after_balance} after length balance (r=${stats.balance_r ?? '-'})` +
      // Correction pairs (pair.corrections): how many of the pairs each editor's corrected answers made.
      Object.entries(stats.corrections)
        .map(([e, c]) => `; ${e}: ${c.answers} corrected answers, ${c.pairs} pairs`)
        .join('') +
      // The refine editor's dialogues: how many ended clean (no rejected claim in the last revision).
      (stats.dialogues ? ` (${stats.dialogues.dialogues} dialogues, ${stats.dialogues.by_end.clean ?? 0} ended clean)` : ''),
  };
  for (const r of results) rows.push([r.stage, `${count[r.stage]}${r.failures ? `, ${r.failures} failures` : ''}`, r.seconds.toFixed(1)]);
  const w = Math.max(...rows.map((r) => r[1].length));
  const out = [`round ${stats.round} (${stats.status})`, `  ${'stage'.padEnd(9)}${'result'.padEnd(w + 2)}seconds`];
  for (const [s, c, t] of rows) out.push(`  ${s.padEnd(9)}${c.padEnd(w + 2)}${t.padStart(7)}`);
  // A whole round streams: its stages overlap, so their seconds add up to more than the wall time.
  if (results.length > 1) out.push(`  ${'wall'.padEnd(9)}${(results.length === 5 ? 'all stages, streaming' : '').padEnd(w + 2)}${wallSeconds.toFixed(1).padStart(7)}`);
  out.push(
    `  failures: ${stats.failures}${stats.failures ? ' ' + JSON.stringify(stats.failures_by_stage) : ''}` +
      (stats.retried_failures ? ` (and ${stats.retried_failures} retried, kept as history)` : ''),
  );
  process.stdout.write(out.join('\n') + '\n');
}

/** Registers `run` and one command per stage. */
export function registerRun(program: Command): void {
  withCommonFlags(
    program
      .command('run')
      .description('run a whole round: generate, divide, label, score, pair')
      .addOption(roundOption('round to work on (default: resume the latest with this config, else a new one)', ['next', 'latest']))
      .option('--policy <model>', 'policy model (a folder for local, a model name for openai)')
      .addOption(samplesOption())
      .addOption(jsonOption('the summary as one JSON object (stats, input, stages, wall_seconds)')),
  ).action((f: CommonFlags & { json?: boolean }) => execute(STAGES, f, 'latest'));
  for (const s of STAGES) {
    withCommonFlags(
      program
        .command(s)
        .description(`run only the ${s} stage of a round`)
        .addOption(roundOption('round to work on (default: latest)', ['next', 'latest']))
        .option('--policy <model>', 'policy model')
        .addOption(samplesOption())
        .addOption(jsonOption('the summary as one JSON object (stats, input, stages, wall_seconds)')),
    ).action((f: CommonFlags & { json?: boolean }) => execute([s], f, 'latest'));
  }
}
