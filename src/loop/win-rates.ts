// The held-out win rates of a loop round's checkpoint (against the previous round's and the start's), recorded with
// the round, and as the loop reports them with the truth-free figures.
import type { Config } from '../config/schema.js';
import { getLoopRound, getPolicyEval, openDb, updateLoopRound, type LoopRoundRow, type LoopRow } from '../store/index.js';
import type { Progress } from '../progress.js';
import { policyEvaluation, type PolicyEvaluation } from '../eval/runs/policy-eval.js';
import { compareRounds, type CompareResult, type JudgeSpec } from '../eval/runs/compare/index.js';
import type { TruthFreeFigures } from '../eval/truth-free.js';

/** A win rate as the loop reports it: A is this round's checkpoint (ties count half). */
export interface LoopWinRate {
  win_rate: number | null;
  ci95: [number, number] | null;
}

/** The truth-free figures of a round's checkpoint, with its held-out win rates (null for the start, or not computed). */
export type LoopTruthFree = TruthFreeFigures & {
  win_rate_vs_previous: LoopWinRate | null;
  win_rate_vs_start: LoopWinRate | null;
};

/** The stored form of a round's win rates (loop_rounds.win_rates_json). */
interface StoredWinRates {
  judge: string;
  vs_previous: CompareResult;
  vs_start: CompareResult;
}

/**
 * The held-out win rates of a round's checkpoint against the previous round's (the start's, for round 1) and against
 * the start's, from their evaluation rounds (same prompts and seeds), recorded with the round.
 */
export async function winRates(config: Config, loop: LoopRow, row: LoopRoundRow, baseline: PolicyEvaluation, judge: JudgeSpec, progress: Progress): Promise<LoopRoundRow> {
  const db = openDb(config.db);
  try {
    const ev = policyEvaluation(getPolicyEval(db, row.eval_id!)!)!;
    const prevRow = row.idx > 1 ? getLoopRound(db, loop.id, row.idx - 1) : undefined;
    const prev = prevRow?.eval_id ? policyEvaluation(getPolicyEval(db, prevRow.eval_id)!)! : baseline;
    const o = { judge, seed: config.seed, a: ev.policy, promptsFile: ev.prompts, progress };
    const vsPrevious = await compareRounds(db, ev.sampled_round, prev.sampled_round, { ...o, b: prev.policy });
    const vsStart = prev.id === baseline.id ? vsPrevious : await compareRounds(db, ev.sampled_round, baseline.sampled_round, { ...o, b: baseline.policy });
    const stored: StoredWinRates = { judge: vsPrevious.judge, vs_previous: vsPrevious, vs_start: vsStart };
    const show = (r: CompareResult) => (r.win_rate_a === null ? '-' : `${(100 * r.win_rate_a).toFixed(1)}% [${r.ci95!.map((x) => (100 * x).toFixed(1)).join(', ')}]`);
    progress.log(`loop round ${row.idx}: held-out win rate (${stored.judge}) vs previous ${show(vsPrevious)}, vs start ${show(vsStart)}`);
    updateLoopRound(db, loop.id, row.idx, { win_rates_json: JSON.stringify(stored) });
    return getLoopRound(db, loop.id, row.idx)!;
  } finally {
    db.close();
  }
}

const winRate = (r: CompareResult | undefined): LoopWinRate | null => (r ? { win_rate: r.win_rate_a, ci95: r.ci95 } : null);

/** A round's truth-free figures with its win rates (null ones until they are computed). */
export function truthFree(ev: PolicyEvaluation, winRatesJson: string | null): LoopTruthFree {
  const w = winRatesJson ? (JSON.parse(winRatesJson) as StoredWinRates) : null;
  return { ...ev.truth_free, win_rate_vs_previous: winRate(w?.vs_previous), win_rate_vs_start: winRate(w?.vs_start) };
}
