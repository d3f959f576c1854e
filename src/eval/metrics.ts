// Figures of feedback quality against the truth: divide coverage, label accuracy, pair accuracy.
import type { AnswerTruth, QuestionForm } from './truth.js';
import type { EvalPair } from './pairs.js';

/** a / b, or null when b is 0 (a share of nothing is not 0%). */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/** Rejection as a binary classifier of false claims: counts over claims with a verdict and a known truth. */
export interface Confusion {
  /** Rejected and false (a hallucination caught). */
  tp: number;
  /** Rejected but true (a false alarm). */
  fp: number;
  /** Accepted but false (a hallucination missed). */
  fn: number;
  /** Accepted and true. */
  tn: number;
}

/** Accuracy, precision and recall of rejection (null where the denominator is 0). */
export interface LabelQuality extends Confusion {
  n: number;
  accuracy: number | null;
  /** Of the rejected claims, the share that are false. */
  precision: number | null;
  /** Of the false claims, the share rejected. */
  recall: number | null;
}

/**
 * Label quality from a confusion matrix.
 * @example labelQuality({ tp: 3, fp: 1, fn: 2, tn: 4 }) // n 10, accuracy 0.7, precision 0.75, recall 0.6
 */
export function labelQuality(c: Confusion): LabelQuality {
  const n = c.tp + c.fp + c.fn + c.tn;
  return { ...c, n, accuracy: ratio(c.tp + c.tn, n), precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) };
}

/** Adds one verdict (true = rejected) on a claim of known truth to a confusion matrix. */
export function tally(c: Confusion, rejected: boolean, isFalse: boolean): void {
  if (rejected) isFalse ? c.tp++ : c.fp++;
  else isFalse ? c.fn++ : c.tn++;
}

/** How good a set of pairs is by the truth: does the chosen answer hold fewer false claims than the rejected one? */
export interface PairQuality {
  pairs: number;
  /** Chosen has strictly fewer false claims. */
  accurate: number;
  /** Chosen has more false claims. */
  inverted: number;
  /** Both have as many false claims: the pair teaches nothing about hallucination. */
  equal: number;
  /** accurate / pairs. */
  pair_accuracy: number | null;
  /** inverted / pairs. */
  inverted_share: number | null;
  equal_share: number | null;
  /** Pairs with a claim the checker cannot judge on either side (counted by their judged claims above). */
  with_unknown: number;
  mean_false_chosen: number | null;
  mean_false_rejected: number | null;
  mean_words_chosen: number | null;
  mean_words_rejected: number | null;
}

/**
 * Pair quality of a set of pairs, false claims per answer from the checker.
 * @example pairQuality([{ chosenId: 'a', rejectedId: 'b', ... }], truths) // accurate when a has fewer false claims than b
 */
export function pairQuality(pairs: readonly EvalPair[], truths: ReadonlyMap<string, AnswerTruth>): PairQuality {
  let accurate = 0;
  let inverted = 0;
  let withUnknown = 0;
  let fc = 0;
  let fr = 0;
  let wc = 0;
  let wr = 0;
  for (const p of pairs) {
    const c = truths.get(p.chosenId);
    const r = truths.get(p.rejectedId);
    if (!c || !r) throw new Error(`pairQuality: no truth for answer ${!c ? p.chosenId : p.rejectedId}.`);
    if (c.nFalse < r.nFalse) accurate++;
    else if (c.nFalse > r.nFalse) inverted++;
    if (c.nUnknown > 0 || r.nUnknown > 0) withUnknown++;
    fc += c.nFalse;
    fr += r.nFalse;
    wc += p.chosenWords;
    wr += p.rejectedWords;
  }
  const n = pairs.length;
  return {
    pairs: n,
    accurate,
    inverted,
    equal: n - accurate - inverted,
    pair_accuracy: ratio(accurate, n),
    inverted_share: ratio(inverted, n),
    equal_share: ratio(n - accurate - inverted, n),
    with_unknown: withUnknown,
    mean_false_chosen: ratio(fc, n),
    mean_false_rejected: ratio(fr, n),
    mean_words_chosen: ratio(wc, n),
    mean_words_rejected: ratio(wr, n),
  };
}

/** A verdict source's share of a form: how many claims it decided and how many of those rightly. */
export interface SourceQuality {
  n: number;
  accuracy: number | null;
}

/**
 * Label quality per question form, ordered by form name; `by_source` splits it by the source that decided (the
 * labeler, or a tool's name), and `labeler_alone` is the labeler's own accuracy on the same claims (rounds with tools).
 */
export type ByForm = Partial<
  Record<QuestionForm, LabelQuality & { false_share: number | null; by_source: Record<string, SourceQuality>; labeler_alone?: SourceQuality }>
>;
