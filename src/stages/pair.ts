// Stage 5: better vs worse answers of the same prompt become DPO pairs; then the round's length balance.
import { pendingPairings, putBalance, putPairing, roundPairs, type Db, type PairRow } from '../store/index.js';
import { getPairStrategy } from '../feedback/pairs.js';
import { balanceLengths } from '../feedback/length-balance.js';
import { contentId } from './ids.js';
import type { StageContext, StageResult } from './context.js';

/**
 * Pairs every prompt of the round (or of `ctx.scope`) not paired yet, then (re)computes length balance over all the
 * round's pairs, unless told not to (a streaming round balances once, after its last slice).
 */
export async function runPair(ctx: StageContext, opts: { balance?: boolean } = {}): Promise<StageResult> {
  const t0 = performance.now();
  const { strategy: name, diff, max_pairs, length_balance, repeated_claims } = ctx.config.pair;
  const strategy = getPairStrategy(name);
  const method = ctx.round.score_method;
  const pending = pendingPairings(ctx.db, ctx.round.id, method, ctx.config.generate.samples, ctx.scope);
  ctx.progress.start('pair', pending.size);
  let items = 0;
  for (const [promptId, cands] of pending) {
    const answers = cands
      .filter((c) => c.rej_c !== null)
      .map((c) => ({
        id: c.id,
        text: c.text,
        words: c.words,
        nClaims: c.n_claims,
        nJudged: c.n_judged,
        nQuestions: c.n_questions,
        value: method === 'rejc' ? c.rej_c! : -c.rej_p!,
      }));
    const res = strategy.makePairs(answers, { diff, maxPairs: max_pairs, repeatedClaims: repeated_claims, seed: ctx.round.seed, promptId });
    const rows: PairRow[] = res.pairs.map((p) => ({
      id: contentId(ctx.round.id, method, p.chosenId, p.rejectedId),
      round_id: ctx.round.id,
      prompt_id: promptId,
      method,
      chosen_id: p.chosenId,
      rejected_id: p.rejectedId,
      // Stored in the method's own units: REJ-C as −n_rej, REJ-P as the rejected share.
      chosen_score: method === 'rejc' ? p.chosenValue : -p.chosenValue,
      rejected_score: method === 'rejc' ? p.rejectedValue : -p.rejectedValue,
      margin: p.margin,
      chosen_words: p.chosenWords,
      rejected_words: p.rejectedWords,
    }));
    putPairing(
      ctx.db,
      { round_id: ctx.round.id, prompt_id: promptId, method, considered: res.considered, dropped: res.dropped },
      rows,
    );
    items += rows.length;
    ctx.progress.tick();
  }
  ctx.progress.done();
  if (opts.balance !== false) rebalance(ctx.db, ctx.round.id, method, length_balance);
  return { stage: 'pair', items, failures: 0, seconds: (performance.now() - t0) / 1000, modelSeconds: 0 };
}

/** (Re)computes the round's length balance over all its pairs of `method` (REFERENCE §5; the scripts' tie rule). */
export function rebalance(db: Db, roundId: number, method: string, lengthBalance: boolean): void {
  const all = roundPairs(db, roundId, method);
  const lengths = all.map((p) => ({ chosenWords: p.chosen_words, rejectedWords: p.rejected_words }));
  if (lengthBalance) {
    const b = balanceLengths(lengths, 'smaller');
    putBalance(
      db,
      { round_id: roundId, method, r: b.r, objective: b.objective, before: b.before, after: b.after },
      all.map((p, i) => ({ id: p.id, kept: b.kept[i]! })),
    );
  } else {
    putBalance(
      db,
      { round_id: roundId, method, r: null, objective: null, before: null, after: null },
      all.map((p) => ({ id: p.id, kept: true })),
    );
  }
}
