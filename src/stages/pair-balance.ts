// The pair stage's length balance: (re)computed over all the round's rank pairs of a method.
import { putBalance, roundPairs, type Db } from '../store/index.js';
import { balanceLengths } from '../feedback/length-balance.js';

/** (Re)computes the round's length balance over all its pairs of `method` (REFERENCE §5; the scripts' tie rule). */
export function rebalance(db: Db, roundId: number, method: string, lengthBalance: boolean): void {
  // Length balance corrects the ranking's preference for short answers, so it weighs rank pairs only: a correction
  // pair's length change is its edit (kept whole; "Correction pairs" in the README measures what that teaches).
  const all = roundPairs(db, roundId, method);
  const rank = all.filter((p) => (p.kind ?? 'rank') === 'rank');
  const corrections = all.filter((p) => p.kind === 'correction').map((p) => ({ id: p.id, kept: true }));
  const lengths = rank.map((p) => ({ chosenWords: p.chosen_words, rejectedWords: p.rejected_words }));
  if (lengthBalance) {
    const b = balanceLengths(lengths, 'smaller');
    putBalance(
      db,
      { round_id: roundId, method, r: b.r, objective: b.objective, before: b.before, after: b.after },
      [...rank.map((p, i) => ({ id: p.id, kept: b.kept[i]! })), ...corrections],
    );
  } else {
    putBalance(
      db,
      { round_id: roundId, method, r: null, objective: null, before: null, after: null },
      [...rank.map((p) => ({ id: p.id, kept: true })), ...corrections],
    );
  }
}
