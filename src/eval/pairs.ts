// A round's pairs recomputed in memory with the pipeline's own pure functions (feedback/), from any source of claim
// verdicts: the labeler's stored p(yes)/p(no), the truth (the oracle), or the truth with seeded noise.
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { scoreAnswer, type ScoreMethod } from '../feedback/scores.js';
import { getPairStrategy, noDrops, type DropReason, type RepeatedClaims, type ScoredAnswer } from '../feedback/pairs.js';
import { claimGate, rejectProbability } from '../feedback/gate.js';
import { balanceLengths, type LengthTieBreak } from '../feedback/length-balance.js';
import { createRng, hashSeed } from '../feedback/rng.js';
import type { Verdict } from '../shapes/index.js';
import type { AnswerTruth } from './truth.js';
import type { EvalClaim, EvalRound } from './types.js';

/** p(yes) and p(no) for a question (null: unscored). */
export interface YesNo {
  pYes: number | null;
  pNo: number | null;
}

/**
 * Where claim verdicts come from: 'labeler' (the stored p(yes)/p(no) under an accept rule); 'labels' (other
 * p(yes)/p(no) per question id, e.g. the same labeler asked a reworded question; a question missing from the map is
 * unjudged); 'oracle' (a perfect labeler: the checker's answer to the question asked, no = rejected; a question the
 * checker cannot judge stays unjudged); 'noisy' (the oracle's answer flipped per distinct question with probability
 * 1 − accuracy, seeded: a simulated labeler of known accuracy on the same questions).
 */
export type VerdictSource =
  | { kind: 'labeler' }
  | { kind: 'labels'; name: string; labels: ReadonlyMap<string, YesNo & { source?: string }> }
  | { kind: 'oracle' }
  | { kind: 'noisy'; accuracy: number; seed: number };

/** One way of pairing a round: verdicts, score method and the §5 settings. */
export interface PairSetting {
  verdicts: VerdictSource;
  method: ScoreMethod;
  acceptRule: AcceptRule;
  diff: number;
  maxPairs: number | 'all';
  lengthBalance: boolean;
  /** Length balance's tie-break; the pipeline uses 'smaller' (the released script's idxmin). */
  tieBreak: LengthTieBreak;
  /** Answers asking a question twice: not paired ('drop', the scripts) or paired ('keep'). */
  repeatedClaims: RepeatedClaims;
  /** The quality gate's threshold on the labeler's own probabilities (labeler verdicts only); absent or null: none. */
  gate?: number | null;
}

/** An answer's score as the score stage computes it (stages/score.ts), from per-claim verdicts (null = unjudged). */
export interface RecomputedScore {
  nClaims: number;
  nJudged: number;
  nRejected: number;
  /** null when the answer has no claims or no judged claim: never paired. */
  rejC: number | null;
  rejP: number | null;
}

/**
 * Scores an answer from its claims' verdicts exactly as the score stage does: only judged claims count, REJ-C and
 * REJ-P come from scoreAnswer, and an answer without claims is not scored.
 * @example scoreVerdicts([true, null, false]) // { nClaims: 3, nJudged: 2, nRejected: 1, rejC: -1, rejP: 0.5 }
 */
export function scoreVerdicts(verdicts: readonly (boolean | null)[]): RecomputedScore {
  const judged = verdicts.filter((v): v is boolean => v !== null);
  const s = scoreAnswer(judged);
  const none = verdicts.length === 0;
  return {
    nClaims: verdicts.length,
    nJudged: judged.length,
    nRejected: s?.nRejected ?? 0,
    rejC: none ? null : (s?.rejC ?? null),
    rejP: none ? null : (s?.rejP ?? null),
  };
}

/** The labeler's verdict on a claim (true = rejected), or null when its question has no usable label. */
export function labelerVerdict(c: EvalClaim, rule: AcceptRule): boolean | null {
  return c.pYes === null || c.pNo === null ? null : isRejected(c.pYes, c.pNo, rule);
}

/** A pair made in memory, with whether length balance kept it. */
export interface EvalPair {
  promptId: string;
  chosenId: string;
  rejectedId: string;
  chosenWords: number;
  rejectedWords: number;
  margin: number;
  balanceKept: boolean;
}

/** The pairs of a round under one setting. */
export interface RoundPairs {
  pairs: EvalPair[];
  /** The chosen length-balance r (null when balance is off or keeps nothing). */
  balanceR: number | null;
  considered: number;
  dropped: Record<DropReason, number>;
  /** Answers that entered pairing (scored, with a score value under these verdicts). */
  answers: number;
}

/**
 * Pairs every paired prompt of a round under a setting with the pipeline's pure functions: verdicts → scoreVerdicts
 * (= the score stage) → the round's pair strategy (makeRlaifvPairs, seeded by the round seed and prompt id) →
 * balanceLengths over the whole round. With the labeler's verdicts and the round's own settings the result is the
 * stored pairs.
 */
export function pairRound(round: EvalRound, truths: Map<string, AnswerTruth>, s: PairSetting): RoundPairs {
  const strategy = getPairStrategy(round.pair.strategy);
  // The gate judges by the labeler's probabilities, as the pair stage does (stages/pair.ts).
  const gate = s.gate != null && s.verdicts.kind === 'labeler' ? claimGate(s.gate, s.method) : null;
  const dropped = noDrops();
  const pairs: EvalPair[] = [];
  let considered = 0;
  let nAnswers = 0;
  for (const p of round.prompts) {
    if (!p.paired) continue;
    const answers: ScoredAnswer[] = [];
    for (const a of p.answers) {
      // The pipeline pairs the answers the score stage scored; an answer never scored is never paired.
      if (a.score === null) continue;
      const t = truths.get(a.id);
      const verdicts = a.claims.map((c, k) => claimVerdict(s.verdicts, c, t?.claims[k]?.question ?? 'unknown', s.acceptRule));
      const sc = scoreVerdicts(verdicts);
      if (sc.rejC === null || sc.rejP === null) continue;
      answers.push({
        id: a.id,
        text: a.text,
        words: a.words,
        nClaims: sc.nClaims,
        nJudged: sc.nJudged,
        nQuestions: new Set(a.claims.map((c) => c.questionId)).size,
        value: s.method === 'rejc' ? sc.rejC : -sc.rejP,
        rejectProbs: a.claims.map((c) => rejectProbability(c.pYes, c.pNo)),
      });
    }
    nAnswers += answers.length;
    const res = strategy.makePairs(answers, {
      diff: s.diff,
      maxPairs: s.maxPairs,
      repeatedClaims: s.repeatedClaims,
      seed: round.seed,
      promptId: p.id,
      ...(gate ? { gate } : {}),
    });
    considered += res.considered;
    for (const k of Object.keys(dropped) as DropReason[]) dropped[k] += res.dropped[k];
    for (const q of res.pairs) {
      pairs.push({
        promptId: p.id,
        chosenId: q.chosenId,
        rejectedId: q.rejectedId,
        chosenWords: q.chosenWords,
        rejectedWords: q.rejectedWords,
        margin: q.margin,
        balanceKept: true,
      });
    }
  }
  let balanceR: number | null = null;
  if (s.lengthBalance) {
    const b = balanceLengths(pairs, s.tieBreak);
    balanceR = b.r;
    pairs.forEach((q, i) => (q.balanceKept = b.kept[i]!));
  }
  return { pairs, balanceR, considered, dropped, answers: nAnswers };
}

/**
 * A claim's verdict (true = rejected, null = unjudged) from a verdict source; `truth` is the checker's answer to the
 * claim's question (what a perfect labeler would say), used by the oracle and the noisy labeler.
 */
/** Which source decided a claim's verdict under a verdict source: a tool's name, else "labeler" (or the kind's name). */
export function claimSource(src: VerdictSource, c: EvalClaim): string {
  if (src.kind === 'labeler') return c.source ?? 'labeler';
  if (src.kind === 'labels') return src.labels.get(c.questionId)?.source ?? 'labeler';
  return src.kind;
}

export function claimVerdict(src: VerdictSource, c: EvalClaim, truth: Verdict, rule: AcceptRule): boolean | null {
  if (src.kind === 'labeler') return labelerVerdict(c, rule);
  if (src.kind === 'labels') {
    const l = src.labels.get(c.questionId);
    return l === undefined || l.pYes === null || l.pNo === null ? null : isRejected(l.pYes, l.pNo, rule);
  }
  if (truth === 'unknown') return null;
  const right = truth === 'false';
  if (src.kind === 'oracle') return right;
  // One draw per distinct question, as a real labeler answers a question once and every claim asking it reuses it.
  const correct = createRng(hashSeed(src.seed, 'noisy-labeler', src.accuracy, c.questionId))() < src.accuracy;
  return correct ? right : !right;
}
