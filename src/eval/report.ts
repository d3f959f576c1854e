// `rlaifv eval`'s figures for one round: divide, label and pairs against the truth, with the oracle as upper bound.
import type { LengthTieBreak } from '../feedback/length-balance.js';
import type { DropReason, RepeatedClaims } from '../feedback/pairs.js';
import type { ScoreMethod } from '../feedback/scores.js';
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { labelQuality, pairQuality, ratio, tally, type ByForm, type Confusion, type LabelQuality, type PairQuality } from './metrics.js';
import { claimSource, claimVerdict, labelerVerdict, pairRound, scoreVerdicts, type EvalPair, type PairSetting, type RoundPairs, type VerdictSource } from './pairs.js';
import { judgeRound, type AnswerTruth, type QuestionForm } from './truth.js';
import { pairDifficulty, type PairDifficulty } from './difficulty.js';
import type { EvalClaim, EvalRound } from './types.js';

/** Divide figures: how much of the answers the checker can judge through the divider's claims. */
export interface DivideFigures {
  answers: number;
  /** Answers with a division row (the rest failed to divide or are pending). */
  divided: number;
  answers_with_claims: number;
  claims: number;
  /** Claims per divided answer. */
  claims_per_answer: number | null;
  /** The divider's sentences: those that gave claims plus those it skipped. */
  sentences: number;
  /** Sentences that gave claims, every one of which the checker can judge. */
  judgeable_sentences: number;
  judgeable_sentence_share: number | null;
  skipped_sentences: number;
  /** Skipped sentences the checker could have judged: facts no question asked about. */
  skipped_judgeable: number;
  claims_false: number;
  claims_true: number;
  /** Claims the checker cannot judge: never counted as true or false. */
  claims_unknown: number;
  /** False share of the judgeable claims. */
  false_claim_share: number | null;
  /** Claims whose question has another truth value than the claim (the question changed the meaning). */
  question_truth_mismatch: number;
  /** Divided answers whose false-claim count differs from the checker's own split of the answer (checkAnswer). */
  answers_checker_mismatch: number;
}

/** The labeler's verdicts (under the round's accept rule) against the truth, per claim. */
export interface LabelFigures extends LabelQuality {
  /** Claims of divided answers. */
  claims: number;
  /** Claims whose question has no usable label (unscored or failed). */
  unlabeled: number;
  /** Labeled claims the checker cannot judge (left out of the confusion matrix). */
  unknown_truth: number;
  /** Per question form: quality and the share of claims of that form that are false. */
  by_form: ByForm;
}

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

/** Where the labeler's non-accurate pairs come from. */
export interface ErrorSources {
  /** Final pairs (after length balance when the round balances) that are not accurate (inverted or equal). */
  not_accurate: number;
  /** ... with a question the labeler answered wrongly on either side: label errors. */
  label: number;
  /** ... else with a claim without a verdict, one the checker cannot judge, or a question whose truth is not its claim's. */
  divide: number;
  /** ... else (every verdict right, every claim judged): the pairing rule itself (e.g. REJ-P's share). */
  rule: number;
  /** Not-accurate pairs whose chosen answer has a false claim the labeler accepted. */
  missed_in_chosen: number;
  /** Not-accurate pairs whose rejected answer has a true claim the labeler rejected. */
  false_alarm_in_rejected: number;
  /** Pair quality by margin in rejected claims (REJ-C) or rejected share (REJ-P, by tenths). */
  by_margin: { margin: string; pairs: number; pair_accuracy: number | null; inverted_share: number | null }[];
}

/** The consistency of the in-memory recomputation with what the pipeline stored. */
export interface StoreCheck {
  method: ScoreMethod;
  stored_pairs: number;
  computed_pairs: number;
  /** The same pairs (chosen, rejected) with the same length-balance flags. */
  pairs_match: boolean;
  /** Answers whose recomputed score differs from the stored one. */
  score_mismatches: number;
}

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
  stored_pairs: {
    method: string;
    min_gap: number;
    all: PairQuality;
    kept: PairQuality;
    gated: PairQuality | null;
    /** The difficulty lens (src/eval/difficulty.ts) of the kept pairs and of those the quality gate dropped (null: no gate). */
    difficulty: { kept: PairDifficulty; gated: PairDifficulty | null };
  };
  failures: Record<string, number>;
  /**
   * The round's method and settings with answers that ask a question twice dropped (the scripts) and kept: how many
   * pairs each choice makes (after length balance when on) and how accurate they are.
   */
  repeated_claims: Record<RepeatedClaims, { pairs: number; pair_accuracy: number | null; inverted_share: number | null }> & { round: RepeatedClaims };
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

function verdictName(v: VerdictSource): string {
  return v.kind === 'noisy' ? `noisy ${v.accuracy}` : v.kind === 'labels' ? v.name : v.kind;
}

/** Divide figures of a round. */
export function divideFigures(round: EvalRound, truths: Map<string, AnswerTruth>): DivideFigures {
  const f: DivideFigures = {
    answers: 0, divided: 0, answers_with_claims: 0, claims: 0, claims_per_answer: null, sentences: 0,
    judgeable_sentences: 0, judgeable_sentence_share: null, skipped_sentences: 0, skipped_judgeable: 0,
    claims_false: 0, claims_true: 0, claims_unknown: 0, false_claim_share: null, question_truth_mismatch: 0,
    answers_checker_mismatch: 0,
  };
  for (const p of round.prompts) {
    for (const a of p.answers) {
      f.answers++;
      if (a.division === null) continue;
      const t = truths.get(a.id)!;
      f.divided++;
      if (a.claims.length > 0) f.answers_with_claims++;
      f.claims += a.claims.length;
      f.sentences += t.sentences;
      f.judgeable_sentences += t.judgeableSentences;
      f.skipped_sentences += a.division.skipped.length;
      f.skipped_judgeable += t.skippedJudgeable;
      f.claims_false += t.nFalse;
      f.claims_true += t.nTrue;
      f.claims_unknown += t.nUnknown;
      f.question_truth_mismatch += t.claims.filter((c) => c.claim !== c.question).length;
      if (t.nFalse !== t.checkerFalse) f.answers_checker_mismatch++;
    }
  }
  f.claims_per_answer = ratio(f.claims, f.divided);
  f.judgeable_sentence_share = ratio(f.judgeable_sentences, f.sentences);
  f.false_claim_share = ratio(f.claims_false, f.claims_false + f.claims_true);
  return f;
}

/** The labeler's verdicts against the truth, overall and per question form. */
export function labelFigures(
  round: EvalRound,
  truths: Map<string, AnswerTruth>,
  src: VerdictSource = { kind: 'labeler' },
): LabelFigures {
  const all: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const forms = new Map<QuestionForm, Confusion>();
  // Per form: per deciding source [claims, right]; and the labeler's own [claims, right] where it was asked.
  const sources = new Map<QuestionForm, Map<string, [number, number]>>();
  const alone = new Map<QuestionForm, [number, number]>();
  const count = (m: Map<string, [number, number]>, k: string, right: boolean) => {
    const x = m.get(k) ?? [0, 0];
    x[0]++;
    if (right) x[1]++;
    m.set(k, x);
  };
  let claims = 0;
  let unlabeled = 0;
  let unknown = 0;
  for (const p of round.prompts) {
    for (const a of p.answers) {
      const t = truths.get(a.id)!;
      a.claims.forEach((c, k) => {
        claims++;
        const truth = t.claims[k]!;
        const v = claimVerdict(src, c, truth.question, round.acceptRule);
        if (v === null) return void unlabeled++;
        if (truth.claim === 'unknown') return void unknown++;
        tally(all, v, truth.claim === 'false');
        let fc = forms.get(truth.form);
        if (!fc) forms.set(truth.form, (fc = { tp: 0, fp: 0, fn: 0, tn: 0 }));
        tally(fc, v, truth.claim === 'false');
        let fs = sources.get(truth.form);
        if (!fs) sources.set(truth.form, (fs = new Map()));
        count(fs, claimSource(src, c), v === (truth.claim === 'false'));
        const own = ownVerdict(src, c, round.acceptRule);
        if (own !== null) {
          const x = alone.get(truth.form) ?? [0, 0];
          alone.set(truth.form, [x[0] + 1, x[1] + (own === (truth.claim === 'false') ? 1 : 0)]);
        }
      });
    }
  }
  const byForm: ByForm = {};
  for (const form of [...forms.keys()].sort()) {
    const q = labelQuality(forms.get(form)!);
    const bySource = Object.fromEntries(
      [...sources.get(form)!].sort(([a], [b]) => a.localeCompare(b)).map(([s, [n, right]]) => [s, { n, accuracy: ratio(right, n) }]),
    );
    const own = alone.get(form);
    byForm[form] = { ...q, false_share: ratio(q.tp + q.fn, q.n), by_source: bySource, ...(own ? { labeler_alone: { n: own[0], accuracy: ratio(own[1], own[0]) } } : {}) };
  }
  return { ...labelQuality(all), claims, unlabeled, unknown_truth: unknown, by_form: byForm };
}

/**
 * The labeler's own verdict on a claim where tool verdicts are in play (a round with label.tools, or tool labels
 * recomputed by `eval --tools`), so its accuracy alone can stand beside the sources'; null otherwise.
 */
function ownVerdict(src: VerdictSource, c: EvalClaim, rule: AcceptRule): boolean | null {
  if (c.own) return c.own.pYes === null || c.own.pNo === null ? null : isRejected(c.own.pYes, c.own.pNo, rule);
  return src.kind === 'labels' ? labelerVerdict(c, rule) : null;
}

/** Why the labeler's pairs are not accurate: label, divide or the rule itself; and accuracy by margin. */
export function errorSources(
  round: EvalRound,
  truths: Map<string, AnswerTruth>,
  pairs: readonly EvalPair[],
  method: ScoreMethod,
  src: VerdictSource = { kind: 'labeler' },
): ErrorSources {
  // Per answer: questions the labeler answered wrongly; claims the divide let down (no verdict, a claim or question
  // the checker cannot judge, a question whose truth is not the claim's); false claims accepted, true claims rejected.
  const wrong = new Map<string, { label: number; divide: number; missed: number; alarms: number }>();
  for (const p of round.prompts) {
    for (const a of p.answers) {
      const t = truths.get(a.id)!;
      const w = { label: 0, divide: 0, missed: 0, alarms: 0 };
      a.claims.forEach((c, k) => {
        const { claim, question } = t.claims[k]!;
        const v = claimVerdict(src, c, question, round.acceptRule);
        if (v === null || claim === 'unknown' || question === 'unknown') return void w.divide++;
        if (v !== (question === 'false')) w.label++;
        if (claim !== question) w.divide++;
        if (claim === 'false' && !v) w.missed++;
        if (claim === 'true' && v) w.alarms++;
      });
      wrong.set(a.id, w);
    }
  }
  const e: ErrorSources = { not_accurate: 0, label: 0, divide: 0, rule: 0, missed_in_chosen: 0, false_alarm_in_rejected: 0, by_margin: [] };
  const margins = new Map<string, EvalPair[]>();
  for (const p of pairs) {
    const key = method === 'rejc' ? (p.margin >= 3 ? '3+' : String(Math.round(p.margin))) : marginBucket(p.margin);
    let l = margins.get(key);
    if (!l) margins.set(key, (l = []));
    l.push(p);
    const c = truths.get(p.chosenId)!;
    const r = truths.get(p.rejectedId)!;
    if (c.nFalse < r.nFalse) continue;
    e.not_accurate++;
    const wc = wrong.get(p.chosenId)!;
    const wr = wrong.get(p.rejectedId)!;
    if (wc.label + wr.label > 0) e.label++;
    else if (wc.divide + wr.divide > 0) e.divide++;
    else e.rule++;
    if (wc.missed > 0) e.missed_in_chosen++;
    if (wr.alarms > 0) e.false_alarm_in_rejected++;
  }
  for (const key of [...margins.keys()].sort()) {
    const q = pairQuality(margins.get(key)!, truths);
    e.by_margin.push({ margin: key, pairs: q.pairs, pair_accuracy: q.pair_accuracy, inverted_share: q.inverted_share });
  }
  return e;
}

function marginBucket(m: number): string {
  const lo = Math.min(9, Math.floor(m * 10 + 1e-9));
  return `${(lo / 10).toFixed(1)}-${((lo + 1) / 10).toFixed(1)}`;
}

/** The round's stored pairs (whatever method made them) judged by the truth: all, and those kept for delivery. */
export function storedPairQuality(round: EvalRound, truths: Map<string, AnswerTruth>): EvalReport['stored_pairs'] {
  const words = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((a) => [a.id, a.words] as const)));
  const pairs = round.storedPairs.map((p) => ({
    promptId: p.promptId,
    chosenId: p.chosenId,
    rejectedId: p.rejectedId,
    chosenWords: words.get(p.chosenId) ?? 0,
    rejectedWords: words.get(p.rejectedId) ?? 0,
    margin: 0,
    balanceKept: p.balanceKept === true,
    gateKept: p.gateKept ?? null,
  }));
  const method = round.feedbackMethod === 'divide' ? round.scoreMethod : round.feedbackMethod;
  const gated = pairs.some((p) => p.gateKept !== null);
  return {
    method,
    min_gap: round.pairGap,
    all: pairQuality(pairs.filter((p) => p.gateKept !== false), truths),
    kept: pairQuality(pairs.filter((p) => p.balanceKept), truths),
    gated: gated ? pairQuality(pairs.filter((p) => p.gateKept === false), truths) : null,
    difficulty: {
      kept: pairDifficulty(round, pairs.filter((p) => p.balanceKept)),
      gated: gated ? pairDifficulty(round, pairs.filter((p) => p.gateKept === false)) : null,
    },
  };
}

/** Compares the in-memory pairs of the round's own method with the stored ones, and the scores with the stored ones. */
export function storeCheck(round: EvalRound, made: RoundPairs): StoreCheck {
  const key = (c: string, r: string, k: boolean | null) => `${c}>${r}:${k === null ? '?' : k ? 1 : 0}`;
  // Pairs the gate dropped are stored for analysis; the recomputation, like delivery, leaves them out.
  // Correction pairs are not recomputed here (their figures are `corrections`): only rank pairs are compared.
  const stored = round.storedPairs
    .filter((p) => p.gateKept !== false && (p.kind ?? 'rank') === 'rank')
    .map((p) => key(p.chosenId, p.rejectedId, p.balanceKept))
    .sort();
  const computed = made.pairs.map((p) => key(p.chosenId, p.rejectedId, p.balanceKept)).sort();
  let mismatches = 0;
  for (const p of round.prompts) {
    for (const a of p.answers) {
      if (a.score === null) continue;
      const s = scoreVerdicts(a.claims.map((c) => labelerVerdict(c, round.acceptRule)));
      const same =
        s.nClaims === a.score.nClaims &&
        s.nJudged === a.score.nJudged &&
        s.nRejected === a.score.nRejected &&
        s.rejC === a.score.rejC &&
        (s.rejP === null ? a.score.rejP === null : a.score.rejP !== null && Math.abs(s.rejP - a.score.rejP) < 1e-12);
      if (!same) mismatches++;
    }
  }
  return {
    method: round.scoreMethod,
    stored_pairs: stored.length,
    computed_pairs: computed.length,
    pairs_match: stored.length === computed.length && stored.every((k, i) => k === computed[i]),
    score_mismatches: mismatches,
  };
}

/** One correction editor's figures against the truth (`rlaifv eval`'s `corrections.<editor>`). */
export interface CorrectionFigures {
  /** Corrected answers the editor wrote, and the share of them with no false claim by the truth. */
  answers: number;
  answers_false_free: number | null;
  /** Kept correction pairs (after the gate and length balance) of this editor. */
  pairs: number;
  /** Share of those pairs' chosen (corrected) answers with no false claim by the truth. */
  chosen_false_free: number | null;
  /** Mean, over those pairs, of the original's true claims (by the truth) that the corrected answer no longer makes. */
  true_claims_lost: number | null;
  /** Mean false claims the original had, and the corrected answer has, over those pairs. */
  original_false: number | null;
  chosen_false: number | null;
}

/**
 * Per editor, how right the corrected answers are by the truth and what they lost: a claim the original made and
 * the checker judges true is lost when no claim of the corrected answer says the same (same claim text).
 */
export function correctionFigures(round: EvalRound, truths: Map<string, AnswerTruth>): Record<string, CorrectionFigures> {
  const byId = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((a) => [a.id, a] as const)));
  const editorOf = new Map(round.prompts.flatMap((p) => (p.corrections ?? []).map((c) => [c.id, c] as const)));
  const out: Record<string, CorrectionFigures> = {};
  const fig = (editor: string) =>
    (out[editor] ??= { answers: 0, answers_false_free: null, pairs: 0, chosen_false_free: null, true_claims_lost: null, original_false: null, chosen_false: null });
  const acc = new Map<string, { free: number; divided: number; pFree: number; lost: number; of: number; cf: number }>();
  const a0 = (e: string) => acc.get(e) ?? (acc.set(e, { free: 0, divided: 0, pFree: 0, lost: 0, of: 0, cf: 0 }), acc.get(e)!);
  for (const c of editorOf.values()) {
    const f = fig(c.editor);
    f.answers++;
    const t = truths.get(c.id);
    if (c.division !== null && c.claims.length > 0 && t) {
      a0(c.editor).divided++;
      if (t.nFalse === 0) a0(c.editor).free++;
    }
  }
  for (const p of round.storedPairs) {
    if (p.kind !== 'correction' || p.balanceKept !== true) continue;
    const c = editorOf.get(p.chosenId);
    const o = byId.get(p.rejectedId);
    const tc = truths.get(p.chosenId);
    const to = truths.get(p.rejectedId);
    if (!c || !o || !tc || !to) continue;
    const f = fig(c.editor);
    const a = a0(c.editor);
    f.pairs++;
    if (tc.nFalse === 0) a.pFree++;
    const said = new Set(c.claims.map((x) => x.claim.toLowerCase()));
    a.lost += o.claims.filter((x, i) => to.claims[i]?.claim === 'true' && !said.has(x.claim.toLowerCase())).length;
    a.of += to.nFalse;
    a.cf += tc.nFalse;
  }
  for (const [editor, f] of Object.entries(out)) {
    const a = a0(editor);
    f.answers_false_free = a.divided ? a.free / a.divided : null;
    f.chosen_false_free = f.pairs ? a.pFree / f.pairs : null;
    f.true_claims_lost = f.pairs ? a.lost / f.pairs : null;
    f.original_false = f.pairs ? a.of / f.pairs : null;
    f.chosen_false = f.pairs ? a.cf / f.pairs : null;
  }
  return out;
}
