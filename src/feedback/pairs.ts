// Preference pairs within one prompt (REFERENCE §5), behind a small strategy seam.

import { createRng, hashSeed, sampleWithoutReplacement } from './rng.js';
import { VALUE_EPSILON } from './scores.js';

/** One scored answer of a prompt, as pairing sees it. */
export interface ScoredAnswer {
  id: string;
  text: string;
  /** Length in whitespace words (see wordCount). */
  words: number;
  nClaims: number;
  /** Claims that got a verdict; a pair needs every claim of both sides judged. */
  nJudged: number;
  /** Distinct yes/no questions among its claims (fewer than nClaims when two claims ask the same); absent: not checked. */
  nQuestions?: number;
  /** The score as "higher is better" (see rankValue). */
  value: number;
  /** Each claim's probability of being rejected (divide: from p(yes)/p(no)); what the quality gate judges a pair by. */
  rejectProbs?: readonly number[];
}

/** The pair-quality gate: a pair whose judged confidence is under the threshold is dropped before sampling. */
export interface PairGate {
  threshold: number;
  /** The judged confidence (0–1) that `chosen` really is the better answer. */
  confidence(chosen: ScoredAnswer, rejected: ScoredAnswer): number;
}

/** Settings for pairing one prompt's answers. */
export interface PairOptions {
  /** Minimum value gap for a pair; default 1 (the scripts' diff1). */
  diff?: number;
  /** Pairs kept per prompt, sampled at random; default 2 (the scripts' samp2). */
  maxPairs?: number | 'all';
  /**
   * 'drop' (the released scripts): an answer whose distinct questions are fewer than its claims is never paired, as the
   * scripts key an answer's verdicts by question text and then find fewer verdicts than claims; 'keep' pairs it.
   */
  repeatedClaims?: RepeatedClaims;
  /** The round's seed; with promptId it seeds the sampling. */
  seed: number;
  promptId: string;
  /** Drop pairs the gate judges unsure, before sampling maxPairs (so a prompt keeps its sure pairs); absent: no gate. */
  gate?: PairGate;
}

/** One preference pair: the higher value is chosen. */
export interface Pair {
  chosenId: string;
  rejectedId: string;
  chosenValue: number;
  rejectedValue: number;
  /** chosenValue − rejectedValue, always > 0. */
  margin: number;
  chosenWords: number;
  rejectedWords: number;
  /** The gate's judged confidence (only when a gate ran). */
  confidence?: number;
}

/** What pairing does with an answer that asks the same yes/no question twice (see PairOptions.repeatedClaims). */
export type RepeatedClaims = 'drop' | 'keep';

/** Why a combination of two answers did not become a kept pair. */
export type DropReason = 'below_diff' | 'unjudged' | 'repeated_claims' | 'identical' | 'gate' | 'sampled_out';

/** Every drop reason, in the order they are tested. */
export const DROP_REASONS: readonly DropReason[] = ['below_diff', 'unjudged', 'repeated_claims', 'identical', 'gate', 'sampled_out'];

/** A tally of drop reasons, all at 0. */
export function noDrops(): Record<DropReason, number> {
  return { below_diff: 0, unjudged: 0, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 0 };
}

/** The pairs of one prompt and what happened to every combination: considered = pairs.length + Σ dropped. */
export interface PairResult {
  pairs: Pair[];
  /** Pairs the quality gate dropped, with their confidence (stored, never delivered); empty without a gate. */
  gated: Pair[];
  /** Unordered combinations of the answers that have claims: n(n−1)/2. */
  considered: number;
  dropped: Record<DropReason, number>;
}

/** A way of turning one prompt's scored answers into pairs; the seam for other methods (e.g. a holistic judge score). */
export interface PairStrategy {
  name: string;
  makePairs(answers: readonly ScoredAnswer[], opts: PairOptions): PairResult;
}

/** Minimum value gap by default, as in the released scripts (get_preference_pairs.py: diff=1). */
export const DEFAULT_PAIR_DIFF = 1;

/** Pairs kept per prompt by default, as in the released scripts (get_preference_pairs.py: sample_num=2). */
export const DEFAULT_MAX_PAIRS = 2;

/**
 * RLAIF-V pairing: every combination whose values differ by ≥ diff (ties never), the higher value chosen;
 * drops pairs with an unjudged claim or identical trimmed texts, then samples at most maxPairs with
 * a PRNG seeded by hashSeed(seed, promptId). Answers without claims are ignored (never scored, REFERENCE §4).
 * The result does not depend on the input order: answers are sorted by id first.
 * @example makeRlaifvPairs(answers, { seed: 1, promptId: 'p1' }) // { pairs: [≤ 2 pairs], considered: 45, dropped: {...} }
 */
export function makeRlaifvPairs(answers: readonly ScoredAnswer[], opts: PairOptions): PairResult {
  const diff = opts.diff ?? DEFAULT_PAIR_DIFF;
  const maxPairs = opts.maxPairs ?? DEFAULT_MAX_PAIRS;
  checkOptions(diff, maxPairs);
  const sorted = answers.filter((a) => a.nClaims > 0).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) throw new Error(`makePairs: duplicate answer id "${sorted[i]!.id}" in prompt "${opts.promptId}".`);
  }

  const dropped = noDrops();
  const repeated = (opts.repeatedClaims ?? 'drop') === 'drop';
  const candidates: Pair[] = [];
  let considered = 0;
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      considered++;
      const reason = dropReason(sorted[i]!, sorted[j]!, diff, repeated);
      if (reason) dropped[reason]++;
      else candidates.push(toPair(sorted[i]!, sorted[j]!));
    }
  }

  const { pairs, gated } = gateAndSample(candidates, new Map(sorted.map((a) => [a.id, a])), opts, dropped, [opts.seed, opts.promptId]);
  return { pairs, gated, considered, dropped };
}

/**
 * The candidate pairs of one prompt through the gate (when given: those under its threshold are `gated`, with their
 * confidence), then at most maxPairs of the sure ones sampled with a PRNG seeded by `seedParts` (kept in candidate
 * order). Counts the gate's and the sampling's drops into `dropped`.
 */
export function gateAndSample<P extends Pair>(
  candidates: P[],
  answers: ReadonlyMap<string, ScoredAnswer>,
  opts: Pick<PairOptions, 'gate' | 'maxPairs'>,
  dropped: Record<DropReason, number>,
  seedParts: (string | number)[],
): { pairs: P[]; gated: P[] } {
  const maxPairs = opts.maxPairs ?? DEFAULT_MAX_PAIRS;
  const gated: P[] = [];
  let sure = candidates;
  if (opts.gate) {
    sure = [];
    for (const p of candidates) {
      p.confidence = opts.gate.confidence(answers.get(p.chosenId)!, answers.get(p.rejectedId)!);
      (p.confidence >= opts.gate.threshold ? sure : gated).push(p);
    }
    dropped.gate = gated.length;
  }
  let pairs = sure;
  if (maxPairs !== 'all' && sure.length > maxPairs) {
    const rng = createRng(hashSeed(...seedParts));
    // Sample indices, then restore combination order so the output reads the same way as the input.
    const picked = sampleWithoutReplacement(sure.map((_, k) => k), maxPairs, rng).sort((a, b) => a - b);
    pairs = picked.map((k) => sure[k]!);
    dropped.sampled_out = sure.length - pairs.length;
  }
  return { pairs, gated };
}

/** The RLAIF-V divide-and-conquer pairing (REFERENCE §5), the default strategy. */
export const rlaifvPairStrategy: PairStrategy = { name: 'rlaifv', makePairs: makeRlaifvPairs };

/**
 * Anyprefer's pairing: each prompt's best answer against its worst. The candidates are RLAIF-V's (every rule of
 * makeRlaifvPairs: diff, judged claims, repeated questions, identical texts); the pair is the candidate with the
 * widest gap (best value against worst), one per prompt, ties between equal gaps drawn with the prompt's seed. The
 * gate, when given, judges that pair only (a prompt whose extremes it finds unsure gives none). Every other candidate
 * counts as sampled out, so considered = pairs + Σ dropped still holds.
 * @example makeExtremesPairs(answers, { seed: 1, promptId: 'p1' }) // { pairs: [the best against the worst], ... }
 */
export function makeExtremesPairs(answers: readonly ScoredAnswer[], opts: PairOptions): PairResult {
  const { gate: _g, ...plain } = opts;
  const all = makeRlaifvPairs(answers, { ...plain, maxPairs: 'all' });
  const dropped = { ...all.dropped };
  if (all.pairs.length === 0) return { ...all, gated: [] };
  const widest = Math.max(...all.pairs.map((p) => p.margin));
  const top = all.pairs.filter((p) => p.margin >= widest - VALUE_EPSILON);
  dropped.sampled_out += all.pairs.length - top.length;
  const byId = new Map(answers.map((a) => [a.id, a]));
  const maxPairs = opts.maxPairs === 0 ? 0 : 1;
  const tally = noDrops();
  const { pairs, gated } = gateAndSample(top, byId, { ...(opts.gate ? { gate: opts.gate } : {}), maxPairs }, tally, [opts.seed, opts.promptId, 'extremes']);
  dropped.gate += tally.gate;
  dropped.sampled_out += tally.sampled_out;
  return { pairs, gated, considered: all.considered, dropped };
}

/** Anyprefer's best-versus-worst pairing (pair.strategy "extremes"). */
export const extremesPairStrategy: PairStrategy = { name: 'extremes', makePairs: makeExtremesPairs };

/** Every pair strategy by name; a new one is one more entry here. */
export const PAIR_STRATEGIES: Readonly<Record<string, PairStrategy>> = {
  [rlaifvPairStrategy.name]: rlaifvPairStrategy,
  [extremesPairStrategy.name]: extremesPairStrategy,
};

/**
 * A pair strategy by name; the error lists the valid names.
 * @example getPairStrategy('rlaifv').makePairs(answers, { seed: 1, promptId: 'p1' })
 */
export function getPairStrategy(name: string): PairStrategy {
  const s = Object.hasOwn(PAIR_STRATEGIES, name) ? PAIR_STRATEGIES[name] : undefined;
  if (!s) throw new Error(`Unsupported pair strategy: ${name}. Must be one of [${Object.keys(PAIR_STRATEGIES).join(', ')}].`);
  return s;
}

// The first failing rule names the drop, in DROP_REASONS order; null means the combination is a pair.
function dropReason(a: ScoredAnswer, b: ScoredAnswer, diff: number, dropRepeated: boolean): DropReason | null {
  const gap = Math.abs(a.value - b.value);
  // Tolerance both ways: REJ-P gaps such as 0.3 − 0.1 fall just short of 0.2 in floating point, and a tie is never a pair.
  if (gap < diff - VALUE_EPSILON || gap < VALUE_EPSILON) return 'below_diff';
  if (a.nJudged !== a.nClaims || b.nJudged !== b.nClaims) return 'unjudged';
  const repeats = (x: ScoredAnswer) => x.nQuestions !== undefined && x.nQuestions < x.nClaims;
  if (dropRepeated && (repeats(a) || repeats(b))) return 'repeated_claims';
  if (a.text.trim() === b.text.trim()) return 'identical';
  return null;
}

function toPair(a: ScoredAnswer, b: ScoredAnswer): Pair {
  const [ch, rej] = a.value > b.value ? [a, b] : [b, a];
  return {
    chosenId: ch.id,
    rejectedId: rej.id,
    chosenValue: ch.value,
    rejectedValue: rej.value,
    margin: ch.value - rej.value,
    chosenWords: ch.words,
    rejectedWords: rej.words,
  };
}

function checkOptions(diff: number, maxPairs: number | 'all'): void {
  if (!Number.isFinite(diff) || diff <= 0) throw new RangeError(`Pair diff must be a positive number, got ${diff}.`);
  if (maxPairs !== 'all' && (!Number.isInteger(maxPairs) || maxPairs < 0)) {
    throw new RangeError(`maxPairs must be a non-negative integer or 'all', got ${String(maxPairs)}.`);
  }
}
