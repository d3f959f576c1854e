// The arithmetic of a pairwise comparison: wins, ties and position flips per prompt, the win rate (a tie counts half)
// and its 95% interval by a bootstrap over prompts (answers of one prompt share an image and are not independent).
import { createRng, hashSeed } from '../../../feedback/rng.js';

/** One answer pair's outcome for A (after both orders were judged). */
export type PairOutcome = 'a' | 'b' | 'tie';

/** What one prompt's pairs gave. */
export interface PromptTally {
  promptId: string;
  kind: string;
  wins_a: number;
  wins_b: number;
  ties: number;
  /** Pairs whose verdict flipped with the order (counted among the ties). */
  flips: number;
  /** Pairs the judge could not decide (no verdict in one order): left out of every figure. */
  failed: number;
}

/** The figures of a set of prompts' pairs. */
export interface CompareTally {
  prompts: number;
  pairs: number;
  wins_a: number;
  wins_b: number;
  ties: number;
  /** (wins_a + ties / 2) ÷ pairs; null without pairs. */
  win_rate_a: number | null;
  /** The 2.5th and 97.5th percentiles of win_rate_a over bootstrap resamples of the prompts; null without pairs. */
  ci95: [number, number] | null;
  position_flips: number;
  failed: number;
}

/** Bootstrap resamples behind every interval. */
export const BOOTSTRAP_RESAMPLES = 2000;

const pairsOf = (t: PromptTally) => t.wins_a + t.wins_b + t.ties;

/** The q-quantile of sorted values (linear between neighbours). */
function quantile(sorted: readonly number[], q: number): number {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

/**
 * Sums prompt tallies and bootstraps the win rate's 95% interval over the prompts that have pairs (seeded: the same
 * tallies give the same interval).
 * @example tallyOf([{ promptId: 'p1', kind: 'detailed', wins_a: 3, wins_b: 1, ties: 0, flips: 0, failed: 0 }], 0).win_rate_a // 0.75
 */
export function tallyOf(prompts: readonly PromptTally[], seed: number): CompareTally {
  const sum = { wins_a: 0, wins_b: 0, ties: 0, flips: 0, failed: 0 };
  for (const t of prompts) {
    sum.wins_a += t.wins_a;
    sum.wins_b += t.wins_b;
    sum.ties += t.ties;
    sum.flips += t.flips;
    sum.failed += t.failed;
  }
  const pairs = sum.wins_a + sum.wins_b + sum.ties;
  // In prompt order, whatever order the tallies came in (a served judge's replies arrive in any order): the same
  // tallies give the same interval.
  const withPairs = prompts.filter((t) => pairsOf(t) > 0).sort((x, y) => (x.promptId < y.promptId ? -1 : x.promptId > y.promptId ? 1 : 0));
  let ci: [number, number] | null = null;
  if (pairs > 0) {
    const rng = createRng(hashSeed('compare-bootstrap', seed, withPairs.length));
    const rates: number[] = [];
    for (let r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
      let score = 0;
      let n = 0;
      for (let i = 0; i < withPairs.length; i++) {
        const t = withPairs[Math.floor(rng() * withPairs.length)]!;
        score += t.wins_a + t.ties / 2;
        n += pairsOf(t);
      }
      rates.push(score / n);
    }
    rates.sort((x, y) => x - y);
    ci = [quantile(rates, 0.025), quantile(rates, 0.975)];
  }
  return {
    prompts: withPairs.length,
    pairs,
    wins_a: sum.wins_a,
    wins_b: sum.wins_b,
    ties: sum.ties,
    win_rate_a: pairs > 0 ? (sum.wins_a + sum.ties / 2) / pairs : null,
    ci95: ci,
    position_flips: sum.flips,
    failed: sum.failed,
  };
}

/**
 * One pair's outcome from its two verdicts: `ab` with A shown first, `ba` with B shown first, each naming the side it
 * preferred as shown ('first', 'second') or 'tie'. Agreeing verdicts decide; verdicts that name opposite answers are a
 * position flip and count as a tie; a tie in one order and a winner in the other is a tie.
 */
export function pairOutcome(ab: 'first' | 'second' | 'tie', ba: 'first' | 'second' | 'tie'): { outcome: PairOutcome; flip: boolean } {
  const fromAb: PairOutcome = ab === 'tie' ? 'tie' : ab === 'first' ? 'a' : 'b';
  const fromBa: PairOutcome = ba === 'tie' ? 'tie' : ba === 'first' ? 'b' : 'a';
  if (fromAb === fromBa) return { outcome: fromAb, flip: false };
  return { outcome: 'tie', flip: fromAb !== 'tie' && fromBa !== 'tie' };
}
