// `rlaifv eval`'s pair rows: one way of pairing the round (the round's settings or a variant) and its pairs' quality.
import type { LengthTieBreak } from '../feedback/length-balance.js';
import type { DropReason, RepeatedClaims } from '../feedback/pairs.js';
import type { ScoreMethod } from '../feedback/scores.js';
import type { AcceptRule } from '../feedback/verdict.js';
import { pairQuality, type PairQuality } from './metrics.js';
import { pairRound, type PairSetting, type RoundPairs, type VerdictSource } from './pairs.js';
import { judgeRound, type AnswerTruth } from './truth.js';
import type { EvalRound } from './types.js';

/** One way of pairing the round and how good its pairs are, before and after length balance. */
export interface PairRow {
  name: string;
  verdicts: string;
  method: ScoreMethod;
  accept_rule: AcceptRule;
  diff: number;
  max_pairs: number | 'all';
  length_balance: boolean;
  tie_break: LengthTieBreak;
  answers: number;
  considered: number;
  dropped: Record<DropReason, number>;
  balance_r: number | null;
  before: PairQuality;
  /** null when length balance is off. */
  after: PairQuality | null;
}

/** A variant of the round's settings, for the study. */
export interface Variant {
  name: string;
  verdicts?: VerdictSource;
  method?: ScoreMethod;
  acceptRule?: AcceptRule;
  diff?: number;
  maxPairs?: number | 'all';
  lengthBalance?: boolean;
  tieBreak?: LengthTieBreak;
  repeatedClaims?: RepeatedClaims;
}

/** The round's own pair setting for a method and verdict source (the pipeline's tie-break: 'smaller'). */
export function roundSetting(round: EvalRound, method: ScoreMethod, verdicts: VerdictSource = { kind: 'labeler' }): PairSetting {
  return {
    verdicts,
    method,
    acceptRule: round.acceptRule,
    diff: round.pair.diff,
    maxPairs: round.pair.maxPairs,
    lengthBalance: round.pair.lengthBalance,
    tieBreak: 'smaller',
    repeatedClaims: round.pair.repeatedClaims,
    gate: round.pair.gate ?? null,
  };
}

/** One row of pairs for a setting. */
export function pairRow(round: EvalRound, truths: Map<string, AnswerTruth>, name: string, s: PairSetting): PairRow & { made: RoundPairs } {
  const made = pairRound(round, truths, s);
  return {
    name,
    verdicts: verdictName(s.verdicts),
    method: s.method,
    accept_rule: s.acceptRule,
    diff: s.diff,
    max_pairs: s.maxPairs,
    length_balance: s.lengthBalance,
    tie_break: s.tieBreak,
    answers: made.answers,
    considered: made.considered,
    dropped: made.dropped,
    balance_r: made.balanceR,
    before: pairQuality(made.pairs, truths),
    after: s.lengthBalance ? pairQuality(made.pairs.filter((p) => p.balanceKept), truths) : null,
    made,
  };
}

/** Rows for variants of the round's settings (each unset field keeps the round's value; method defaults to rejc). */
export function variantRows(round: EvalRound, variants: readonly Variant[], truths = judgeRound(round)): PairRow[] {
  return variants.map((v) => {
    const base = roundSetting(round, v.method ?? 'rejc', v.verdicts ?? { kind: 'labeler' });
    const s: PairSetting = {
      ...base,
      ...(v.acceptRule !== undefined && { acceptRule: v.acceptRule }),
      ...(v.diff !== undefined && { diff: v.diff }),
      ...(v.maxPairs !== undefined && { maxPairs: v.maxPairs }),
      ...(v.lengthBalance !== undefined && { lengthBalance: v.lengthBalance }),
      ...(v.tieBreak !== undefined && { tieBreak: v.tieBreak }),
      ...(v.repeatedClaims !== undefined && { repeatedClaims: v.repeatedClaims }),
    };
    const { made: _made, ...row } = pairRow(round, truths, v.name, s);
    return row;
  });
}

function verdictName(v: VerdictSource): string {
  return v.kind === 'noisy' ? `noisy ${v.accuracy}` : v.kind === 'labels' ? v.name : v.kind;
}
