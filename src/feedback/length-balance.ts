// Length balance over a round's pairs (REFERENCE §5; utils/get_pairs_filter_shorten.py in the released code).
// REJ-C favours short answers, so chosen answers run shorter than rejected ones; dropping the pairs where the
// chosen answer is much shorter keeps training from learning "be brief" instead of "be right".

/** The two lengths of a pair, in whitespace words. */
export interface PairLengths {
  chosenWords: number;
  rejectedWords: number;
}

/** Mean lengths of a set of pairs (null when the set is empty). */
export interface LengthStats {
  n: number;
  avgChosen: number | null;
  avgRejected: number | null;
}

/** One point of the search over r. */
export interface LengthBalanceStep {
  r: number;
  n: number;
  /** null when r keeps no pair (such an r is never chosen). */
  objective: number | null;
}

/** Which r wins when several reach the same minimum: the larger (keeps more pairs) or the smaller (pandas idxmin in the scripts). */
export type LengthTieBreak = 'larger' | 'smaller';

/** The chosen cut-off and which pairs survive it. */
export interface LengthBalance {
  /** The chosen r, or null when no r in the grid keeps any pair (including no pairs at all). */
  r: number | null;
  /** |avg chosen − avg rejected| / avg rejected over the kept pairs, at the chosen r. */
  objective: number | null;
  /** Per input pair, in input order. */
  kept: boolean[];
  before: LengthStats;
  after: LengthStats;
  search: LengthBalanceStep[];
}

/** The grid r = k/50 for k = 0..49 (0, 0.02, …, 0.98): integer steps, so 0.7 is 0.7 and not 0.7000000000000001. */
export const LENGTH_RATIOS: readonly number[] = Array.from({ length: 50 }, (_, k) => k / 50);

/**
 * How much shorter the chosen answer is, relative to the rejected one: (len_rej − len_ch) / len_rej (0 when len_rej is 0).
 * @example shortenRatio({ chosenWords: 15, rejectedWords: 20 }) // 0.25
 */
export function shortenRatio(p: PairLengths): number {
  return p.rejectedWords === 0 ? 0 : (p.rejectedWords - p.chosenWords) / p.rejectedWords;
}

/**
 * Searches r in LENGTH_RATIOS, keeps the pairs with shortenRatio ≤ r (drops those > r, as the scripts do), and picks
 * the r minimising |avg_len_chosen − avg_len_rejected| / avg_len_rejected. An r that keeps no pair is ignored.
 * Ties go to the larger r by default, i.e. the one that keeps more pairs; tieBreak 'smaller' reproduces the
 * released script, whose pandas idxmin returns the first (smallest) r.
 * Apply it to all pairs of a round at once, as the scripts do, not per prompt.
 * @example balanceLengths([{ chosenWords: 10, rejectedWords: 20 }, { chosenWords: 18, rejectedWords: 20 }]) // r 0.48, kept [false, true]
 */
export function balanceLengths(pairs: readonly PairLengths[], tieBreak: LengthTieBreak = 'larger'): LengthBalance {
  if (tieBreak !== 'larger' && tieBreak !== 'smaller') {
    throw new Error(`Unsupported length tie-break: ${String(tieBreak)}. Must be one of [larger, smaller].`);
  }
  const ratios = pairs.map(shortenRatio);
  const search: LengthBalanceStep[] = [];
  let best: (LengthBalanceStep & { objective: number }) | null = null;
  for (const r of LENGTH_RATIOS) {
    const kept = pairs.filter((_, i) => ratios[i]! <= r);
    const step: LengthBalanceStep = { r, n: kept.length, objective: kept.length === 0 ? null : lengthGap(kept) };
    search.push(step);
    const { objective } = step;
    if (objective === null) continue;
    // The grid ascends, so "≤" lets a later (larger) r take a tie and "<" leaves it to the first.
    if (best === null || (tieBreak === 'larger' ? objective <= best.objective : objective < best.objective)) {
      best = { ...step, objective };
    }
  }
  const r = best?.r ?? null;
  const kept = ratios.map((x) => r !== null && x <= r);
  return {
    r,
    objective: best?.objective ?? null,
    kept,
    before: lengthStats(pairs),
    after: lengthStats(pairs.filter((_, i) => kept[i])),
    search,
  };
}

/**
 * Mean chosen and rejected lengths of a set of pairs.
 * @example lengthStats([{ chosenWords: 10, rejectedWords: 20 }]) // { n: 1, avgChosen: 10, avgRejected: 20 }
 */
export function lengthStats(pairs: readonly PairLengths[]): LengthStats {
  const n = pairs.length;
  if (n === 0) return { n, avgChosen: null, avgRejected: null };
  const { ch, rej } = sums(pairs);
  return { n, avgChosen: ch / n, avgRejected: rej / n };
}

// |avg_ch − avg_rej| / avg_rej computed as |Σch − Σrej| / Σrej: the n cancels, so equal objectives are equal
// doubles (one rounding of a ratio of integers) and the tie rule sees real ties, not rounding noise.
function lengthGap(pairs: readonly PairLengths[]): number {
  const { ch, rej } = sums(pairs);
  if (rej === 0) return ch === 0 ? 0 : Infinity; // the script would divide by zero; empty rejected answers are a degenerate round
  return Math.abs(ch - rej) / rej;
}

function sums(pairs: readonly PairLengths[]): { ch: number; rej: number } {
  let ch = 0;
  let rej = 0;
  for (const p of pairs) {
    ch += p.chosenWords;
    rej += p.rejectedWords;
  }
  return { ch, rej };
}
