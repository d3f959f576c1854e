// Combining claim verdicts into one answer score: REJ-C and REJ-P (REFERENCE §4).

/** How an answer's verdicts become a score: REJ-C (count of rejected claims) or REJ-P (share of them). */
export type ScoreMethod = 'rejc' | 'rejp';

/** Every score method, for validating configuration. */
export const SCORE_METHODS: readonly ScoreMethod[] = ['rejc', 'rejp'];

/** The released scripts score by REJ-C, which also agrees best with humans (supplement Table 9). */
export const DEFAULT_SCORE_METHOD: ScoreMethod = 'rejc';

/** Two values closer than this are equal: REJ-P shares are floats, and 0.3 − 0.1 < 0.2 in binary. */
export const VALUE_EPSILON = 1e-9;

/** One answer's score under both methods. */
export interface AnswerScore {
  nClaims: number;
  nRejected: number;
  /** REJ-C: −nRejected; higher is better. */
  rejC: number;
  /** REJ-P: nRejected / nClaims; lower is better. */
  rejP: number;
}

/**
 * Scores an answer from its claims' verdicts (true = rejected); an answer with no claims is never scored, so null.
 * @example scoreAnswer([true, false, false]) // { nClaims: 3, nRejected: 1, rejC: -1, rejP: 1/3 }
 * @example scoreAnswer([]) // null
 */
export function scoreAnswer(verdicts: readonly boolean[]): AnswerScore | null {
  const nClaims = verdicts.length;
  if (nClaims === 0) return null;
  const nRejected = verdicts.filter(Boolean).length;
  // 0 - n rather than -n: a clean answer scores +0, never -0 (which Object.is and stores tell apart).
  return { nClaims, nRejected, rejC: 0 - nRejected, rejP: nRejected / nClaims };
}

/**
 * A score as one "higher is better" number, the value pairing compares.
 * @example rankValue('rejc', scoreAnswer([true, true])!) // -2
 * @example rankValue('rejp', scoreAnswer([true, false])!) // -0.5
 */
export function rankValue(method: ScoreMethod, score: AnswerScore): number {
  if (method === 'rejc') return score.rejC;
  if (method === 'rejp') return 0 - score.rejP; // 0 - x keeps a perfect share at +0
  throw new Error(`Unsupported score method: ${String(method)}. Must be one of [${SCORE_METHODS.join(', ')}].`);
}

/**
 * Which of two scores is better under a method ('tie' when equal within VALUE_EPSILON).
 * @example betterOf('rejc', scoreAnswer([true])!, scoreAnswer([true, true, false, false])!) // 'a' (1 rejected < 2)
 * @example betterOf('rejp', scoreAnswer([true])!, scoreAnswer([true, true, false, false])!) // 'b' (0.5 < 1)
 */
export function betterOf(method: ScoreMethod, a: AnswerScore, b: AnswerScore): 'a' | 'b' | 'tie' {
  const d = rankValue(method, a) - rankValue(method, b);
  if (Math.abs(d) < VALUE_EPSILON) return 'tie';
  return d > 0 ? 'a' : 'b';
}
