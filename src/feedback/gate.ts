// The pair-quality gate (Anyprefer's idea on divide-and-conquer evidence): how sure the labeler's own probabilities
// make a pair, and the threshold that keeps or drops it.
import type { PairGate } from './pairs.js';
import type { ScoreMethod } from './scores.js';
import { VALUE_EPSILON } from './scores.js';

/**
 * A claim's probability of being rejected, from the labeler's p(yes) and p(no) renormalised over the two; an
 * unscored claim (null) is a coin flip.
 * @example rejectProbability(0.2, 0.6) // 0.75
 */
export function rejectProbability(pYes: number | null, pNo: number | null): number {
  if (pYes === null || pNo === null || !(pYes + pNo > 0)) return 0.5;
  return pNo / (pYes + pNo);
}

/**
 * The distribution of how many of independent claims are rejected (Poisson-binomial), index k = P(k rejected).
 * @example rejectedCounts([0.5, 0.5]) // [0.25, 0.5, 0.25]
 */
export function rejectedCounts(pReject: readonly number[]): number[] {
  let dist = [1];
  for (const p of pReject) {
    const next = new Array<number>(dist.length + 1).fill(0);
    for (let k = 0; k < dist.length; k++) {
      next[k]! += dist[k]! * (1 - p);
      next[k + 1]! += dist[k]! * p;
    }
    dist = next;
  }
  return dist;
}

/**
 * A divide pair's judged confidence: the probability that the chosen answer still ranks strictly better when every
 * claim's verdict is drawn from its renormalised p(yes)/p(no) (claims independent). REJ-C compares rejected counts,
 * REJ-P rejected shares. 1 means every verdict the ranking rests on is certain; ~0.5 or less, a coin flip.
 * @example pairConfidence([0.01], [0.99, 0.02], 'rejc') // ≈ 0.97
 */
export function pairConfidence(chosen: readonly number[], rejected: readonly number[], method: ScoreMethod): number {
  const c = rejectedCounts(chosen);
  const r = rejectedCounts(rejected);
  let p = 0;
  for (let i = 0; i < c.length; i++) {
    for (let j = 0; j < r.length; j++) {
      const better = method === 'rejc' ? i < j : i / chosen.length < j / rejected.length - VALUE_EPSILON;
      if (better) p += c[i]! * r[j]!;
    }
  }
  return Math.min(1, p);
}

/**
 * Divide's quality gate: a pair is kept when pairConfidence over its answers' rejectProbs reaches `threshold`. The
 * pair stage and the evaluation's recomputation use this one gate.
 */
export function claimGate(threshold: number, method: ScoreMethod): PairGate {
  return { threshold, confidence: (ch, rj) => pairConfidence(ch.rejectProbs ?? [], rj.rejectProbs ?? [], method) };
}
