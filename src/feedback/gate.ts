// The pair-quality gate (Anyprefer's idea on divide-and-conquer evidence): how sure the labeler's own probabilities
// make a pair, and the threshold that keeps or drops it.
import type { Pair, PairGate, PairResult } from './pairs.js';
import { createRng, hashSeed, sampleWithoutReplacement } from './rng.js';
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

/**
 * The gate with a judge that costs a call per pair (a judge model): the prompt's candidate pairs (`all`: every pair
 * the rules allow, none sampled out) are judged one by one in a random order seeded by (seed, promptId), until
 * `maxPairs` reach the threshold. That keeps the same pairs in distribution as judging every candidate and then
 * sampling among the sure ones, with about maxPairs calls a prompt instead of n(n−1)/2. Judged pairs under the
 * threshold are the gated ones; candidates never judged are sampled out. `judge` gives a confidence 0–1 and throws to
 * stop the prompt (its verdicts so far are the caller's to keep).
 * @example await judgeInOrder(makeRlaifvPairs(answers, { ...opts, maxPairs: 'all' }), { threshold: 0.7, maxPairs: 2, seed, promptId }, judge)
 */
export async function judgeInOrder(
  all: PairResult,
  opts: { threshold: number; maxPairs: number | 'all'; seed: number; promptId: string },
  judge: (p: Pair) => Promise<number>,
): Promise<PairResult> {
  const cands = all.pairs;
  const order = sampleWithoutReplacement(cands.map((_, k) => k), cands.length, createRng(hashSeed(opts.seed, opts.promptId, 'judge')));
  const kept: number[] = [];
  const gated: Pair[] = [];
  for (const k of order) {
    if (opts.maxPairs !== 'all' && kept.length >= opts.maxPairs) break;
    const p = cands[k]!;
    p.confidence = await judge(p);
    if (p.confidence >= opts.threshold) kept.push(k);
    else gated.push(p);
  }
  // Combination order, as the other paths give it.
  const pairs = kept.sort((a, b) => a - b).map((k) => cands[k]!);
  return {
    pairs,
    gated,
    considered: all.considered,
    dropped: { ...all.dropped, gate: gated.length, sampled_out: cands.length - pairs.length - gated.length },
  };
}
