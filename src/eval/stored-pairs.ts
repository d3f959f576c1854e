// `rlaifv eval`'s stored pairs: the pairs the round stored judged by the truth, and the store check (the in-memory
// recomputation of the round's own pairs and scores against what the pipeline stored).
import { pairQuality, type PairQuality } from './metrics.js';
import { labelerVerdict, scoreVerdicts, type RoundPairs } from './pairs.js';
import type { ScoreMethod } from '../feedback/scores.js';
import type { AnswerTruth } from './truth.js';
import { pairDifficulty, type PairDifficulty } from './difficulty.js';
import type { EvalRound } from './types.js';

/**
 * The pairs the round stored (of any method), judged by the truth: all that passed the quality gate (every pair
 * without one), the kept ones (after length balance: delivered), and those the gate dropped (null: no gate ran).
 */
export interface StoredPairFigures {
  method: string;
  min_gap: number;
  all: PairQuality;
  kept: PairQuality;
  gated: PairQuality | null;
  /** The difficulty lens (src/eval/difficulty.ts) of the kept pairs and of those the quality gate dropped (null: no gate). */
  difficulty: { kept: PairDifficulty; gated: PairDifficulty | null };
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

/** The round's stored pairs (whatever method made them) judged by the truth: all, and those kept for delivery. */
export function storedPairQuality(round: EvalRound, truths: Map<string, AnswerTruth>): StoredPairFigures {
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
