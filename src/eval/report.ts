// `rlaifv eval`'s figures for one round: divide, label and pairs against the truth, with the oracle as upper bound.
// Each figure has its own file; this module assembles the report and stays the public entry for all of them.
import type { RepeatedClaims } from '../feedback/pairs.js';
import type { ScoreMethod } from '../feedback/scores.js';
import type { AcceptRule } from '../feedback/verdict.js';
import type { RoundPairs } from './pairs.js';
import { judgeRound } from './truth.js';
import type { EvalRound } from './types.js';
import { correctionFigures, type CorrectionFigures } from './correction-figures.js';
import { divideFigures, type DivideFigures } from './divide-figures.js';
import { errorSources, type ErrorSources } from './error-sources.js';
import { labelFigures, type LabelFigures } from './label-figures.js';
import { pairRow, roundSetting, type PairRow } from './pair-rows.js';
import { storeCheck, storedPairQuality, type StoreCheck, type StoredPairFigures } from './stored-pairs.js';

export * from './correction-figures.js';
export * from './divide-figures.js';
export * from './error-sources.js';
export * from './label-figures.js';
export * from './pair-rows.js';
export * from './stored-pairs.js';

/** Everything `rlaifv eval --json` prints. */
export interface EvalReport {
  round: number;
  status: string;
  labeler: string;
  accept_rule: AcceptRule;
  score_method: ScoreMethod;
  pair_settings: { strategy: string; diff: number; max_pairs: number | 'all'; length_balance: boolean };
  prompts: number;
  prompts_paired: number;
  /** Which pairs the headline pair figures are about. */
  accuracy_on: 'after length balance' | 'all pairs (length balance off)';
  labeler_accuracy: number | null;
  labeler_precision: number | null;
  labeler_recall: number | null;
  /** Pairs made (before length balance), as stored when the round's method is this one. */
  pairs_rejc: number;
  pairs_rejp: number;
  pairs_after_balance_rejc: number;
  pairs_after_balance_rejp: number;
  pair_accuracy_rejc: number | null;
  pair_accuracy_rejp: number | null;
  inverted_rejc: number | null;
  inverted_rejp: number | null;
  oracle_pair_accuracy_rejc: number | null;
  oracle_pair_accuracy_rejp: number | null;
  oracle_inverted_rejc: number | null;
  oracle_inverted_rejp: number | null;
  divide: DivideFigures;
  label: LabelFigures;
  /** labeler REJ-C, labeler REJ-P, oracle REJ-C, oracle REJ-P, all with the round's settings. */
  pairs: PairRow[];
  errors: { rejc: ErrorSources; rejp: ErrorSources };
  /** null for a round of another feedback method than divide: its pairs do not come from the labels. */
  check: StoreCheck | null;
  /** pair.corrections: per editor, its corrected answers and correction pairs judged by the truth (empty: none). */
  corrections: Record<string, CorrectionFigures>;
  /** The round's feedback method (divide, holistic, dpo-reward, oracle). */
  feedback_method: string;
  /**
   * The pairs the round stored (of any method), judged by the truth: all that passed the quality gate (every pair
   * without one), the kept ones (after length balance: delivered), and those the gate dropped (null: no gate ran).
   */
  stored_pairs: StoredPairFigures;
  failures: Record<string, number>;
  /**
   * The round's method and settings with answers that ask a question twice dropped (the scripts) and kept: how many
   * pairs each choice makes (after length balance when on) and how accurate they are.
   */
  repeated_claims: Record<RepeatedClaims, { pairs: number; pair_accuracy: number | null; inverted_share: number | null }> & { round: RepeatedClaims };
}

/** The figures of one round (a pure function of what the store holds; see loadEvalRound). */
export function evaluateRound(round: EvalRound): EvalReport {
  const truths = judgeRound(round);
  const divide = divideFigures(round, truths);
  const label = labelFigures(round, truths);
  const rows = {
    rejc: pairRow(round, truths, 'labeler REJ-C', roundSetting(round, 'rejc')),
    rejp: pairRow(round, truths, 'labeler REJ-P', roundSetting(round, 'rejp')),
    oracleRejc: pairRow(round, truths, 'oracle REJ-C', roundSetting(round, 'rejc', { kind: 'oracle' })),
    oracleRejp: pairRow(round, truths, 'oracle REJ-P', roundSetting(round, 'rejp', { kind: 'oracle' })),
  };
  const final = (r: PairRow) => r.after ?? r.before;
  const kept = (r: { made: RoundPairs }) => r.made.pairs.filter((p) => p.balanceKept);
  const own = round.scoreMethod === 'rejc' ? rows.rejc : rows.rejp;
  const choice = (c: RepeatedClaims) => {
    const r = final(pairRow(round, truths, c, { ...roundSetting(round, round.scoreMethod), repeatedClaims: c }));
    return { pairs: r.pairs, pair_accuracy: r.pair_accuracy, inverted_share: r.inverted_share };
  };
  return {
    round: round.id,
    status: round.status,
    labeler: round.labeler,
    accept_rule: round.acceptRule,
    score_method: round.scoreMethod,
    pair_settings: {
      strategy: round.pair.strategy,
      diff: round.pair.diff,
      max_pairs: round.pair.maxPairs,
      length_balance: round.pair.lengthBalance,
    },
    prompts: round.prompts.length,
    prompts_paired: round.prompts.filter((p) => p.paired).length,
    accuracy_on: round.pair.lengthBalance ? 'after length balance' : 'all pairs (length balance off)',
    labeler_accuracy: label.accuracy,
    labeler_precision: label.precision,
    labeler_recall: label.recall,
    pairs_rejc: rows.rejc.before.pairs,
    pairs_rejp: rows.rejp.before.pairs,
    pairs_after_balance_rejc: kept(rows.rejc).length,
    pairs_after_balance_rejp: kept(rows.rejp).length,
    pair_accuracy_rejc: final(rows.rejc).pair_accuracy,
    pair_accuracy_rejp: final(rows.rejp).pair_accuracy,
    inverted_rejc: final(rows.rejc).inverted_share,
    inverted_rejp: final(rows.rejp).inverted_share,
    oracle_pair_accuracy_rejc: final(rows.oracleRejc).pair_accuracy,
    oracle_pair_accuracy_rejp: final(rows.oracleRejp).pair_accuracy,
    oracle_inverted_rejc: final(rows.oracleRejc).inverted_share,
    oracle_inverted_rejp: final(rows.oracleRejp).inverted_share,
    divide,
    label,
    pairs: [rows.rejc, rows.rejp, rows.oracleRejc, rows.oracleRejp].map(({ made: _m, ...r }) => r),
    errors: {
      rejc: errorSources(round, truths, kept(rows.rejc), 'rejc'),
      rejp: errorSources(round, truths, kept(rows.rejp), 'rejp'),
    },
    check: round.feedbackMethod === 'divide' && !round.judgeGate && round.pair.rankPairs !== false ? storeCheck(round, own.made) : null,
    corrections: correctionFigures(round, truths),
    feedback_method: round.feedbackMethod,
    stored_pairs: storedPairQuality(round, truths),
    failures: round.failures,
    repeated_claims: { round: round.pair.repeatedClaims, drop: choice('drop'), keep: choice('keep') },
  };
}
