// `rlaifv calibrate-tools`: the routing table of label.tools (claim form -> tool or labeler), calibrated once on a
// stored dev round against its truth, and written for label.routing. A round of the test split is refused.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { Calibration } from '../eval/index.js';
import { pct, table } from '../eval/render.js';
import { configOption, dbOption, jsonOption, roundOption } from './flags.js';

interface Flags {
  db?: string;
  config?: string;
  round?: number | 'latest';
  out?: string;
  json?: boolean;
  ties?: 'tool' | 'labeler';
}

/** The calibration as a table: per claim form, the labeler alone, each tool, and the chosen source. */
export function renderCalibration(c: Calibration): string {
  const tools = [...new Set(Object.values(c.forms).flatMap((f) => Object.keys(f!.tools)))];
  const rows = Object.entries(c.forms).map(([form, f]) => [
    form, String(f!.claims), pct(f!.labeler),
    ...tools.map((t) => `${pct(f!.tools[t]?.accuracy ?? null)} (${f!.tools[t]?.decided ?? 0} decided)`),
    f!.source,
  ]);
  return (
    `routing calibrated on round ${c.calibrated_on.round} (${c.calibrated_on.prompts} prompts, split ${c.calibrated_on.split ?? 'unnamed'})\n` +
    table([['form', 'claims', 'labeler alone', ...tools.map((t) => `with ${t}`), 'source'], ...rows], '  ') + '\n'
  );
}

/** Registers `calibrate-tools`. */
export function registerCalibrateTools(program: Command): void {
  program
    .command('calibrate-tools')
    .description('calibrate label.routing (claim form -> tool or labeler) on a stored dev round against its truth; never on test')
    .addOption(configOption('config JSON file with label.tools'))
    .addOption(dbOption('SQLite database (default: db/rlaifv.sqlite)'))
    .addOption(roundOption('the dev round to calibrate on (default: latest)', ['latest']))
    .option('--out <file>', 'write the routing file here (for label.routing)')
    .addOption(new Option('--ties <source>', 'who gets a form where a tool is exactly as accurate as the labeler alone (default tool)').choices(['tool', 'labeler']))
    .addOption(jsonOption('one JSON object'))
    .action(async (f: Flags) => {
      // The config, the store, the evaluation and the tools are loaded when the command runs.
      const { loadConfig } = await import('../config/load.js');
      const { config } = loadConfig(f.config, f.db ? { db: f.db } : {});
      const { EvalRefusal, calibrateRouting, loadEvalRound, resolveEvalRound, roundKnowledge, roundSplits } = await import('../eval/index.js');
      if (config.label.tools.length === 0) throw new EvalRefusal('calibrate-tools: the config has no label.tools to calibrate (e.g. [{"type": "shapes-segmenter"}]).');
      const { openDb } = await import('../store/index.js');
      const { createTools } = await import('../tools/index.js');
      const db = openDb(config.db, { readonly: true, upgrade: true });
      try {
        const id = resolveEvalRound(db, f.round ?? 'latest', config.db);
        const splits = roundSplits(db, id);
        if (splits.includes('test')) {
          throw new EvalRefusal(`calibrate-tools: round ${id} holds prompts of the test split; calibrate on dev (data/shapes/dev), never on test.`);
        }
        const round = loadEvalRound(db, id);
        const tools = createTools(config);
        const c = calibrateRouting(round, tools, await roundKnowledge(db, round, tools), splits.join(',') || null, f.ties ?? 'tool');
        if (f.out) writeFileSync(f.out, JSON.stringify(c, null, 2) + '\n');
        process.stdout.write(f.json ? JSON.stringify(c) + '\n' : renderCalibration(c) + (f.out ? `wrote ${f.out} (set label.routing to it)\n` : ''));
      } finally {
        db.close();
      }
    });
}
