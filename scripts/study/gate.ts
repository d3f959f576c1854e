// The pair-quality gate on a stored round, for every threshold (README "The pair-quality gate"): the round's pairs are
// recomputed with the pipeline's own functions (eval/pairs.ts: the gate before sampling, as the pair stage runs it)
// and judged by the shapes truth. Yield is relative to the same round without a gate. Top-up is not simulated here
// (it needs new samples): run a round with feedback.gate.top_up for that.
//
//   npx tsx scripts/study/gate.ts --db FILE [--round N] [--max-pairs 2|all] [--method rejc|rejp] [--json]
import { openDb } from '../../src/store/index.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { judgeRound } from '../../src/eval/truth.js';
import { pairRound } from '../../src/eval/pairs.js';
import { roundSetting } from '../../src/eval/report.js';
import { pairQuality } from '../../src/eval/metrics.js';
import type { ScoreMethod } from '../../src/feedback/scores.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i]!;
  if (k === '--json') args.set('json', '1');
  else args.set(k.replace(/^--/, ''), process.argv[++i] ?? '');
}
const file = args.get('db');
if (!file) throw new Error('--db FILE is needed');
const db = openDb(file, { readonly: true });
const roundId = args.has('round')
  ? Number(args.get('round'))
  : (db.prepare("SELECT id FROM rounds WHERE purpose = 'train' ORDER BY id LIMIT 1").pluck().get() as number);
const round = loadEvalRound(db, roundId);
const truths = judgeRound(round);
const method = (args.get('method') ?? 'rejc') as ScoreMethod;
const mp = args.get('max-pairs') ?? '2';
const base = { ...roundSetting(round, method), gate: null, maxPairs: (mp === 'all' ? 'all' : Number(mp)) as number | 'all' };

const rows = [null, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99].map((tau) => {
  const made = pairRound(round, truths, { ...base, gate: tau });
  const all = pairQuality(made.pairs, truths);
  const kept = pairQuality(made.pairs.filter((p) => p.balanceKept), truths);
  return { threshold: tau, pairs: all.pairs, accuracy: all.pair_accuracy, inverted: all.inverted_share, kept: kept.pairs, kept_accuracy: kept.pair_accuracy, gated: made.dropped.gate };
});
const none = rows[0]!;
if (args.has('json')) process.stdout.write(JSON.stringify({ file, round: roundId, method, max_pairs: base.maxPairs, rows }, null, 2) + '\n');
else {
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(2)}%`);
  process.stdout.write(`round ${roundId} of ${file}: ${round.prompts.length} prompts, ${method}, max_pairs ${String(base.maxPairs)}\n`);
  process.stdout.write('| τ | pairs | yield | accuracy | inverted | after length balance | accuracy |\n|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(
      `| ${r.threshold ?? 'none'} | ${r.pairs} | ${pct(r.pairs / none.pairs)} | ${pct(r.accuracy)} | ${pct(r.inverted)} | ${r.kept} | ${pct(r.kept_accuracy)} |\n`,
    );
  }
}
db.close();
