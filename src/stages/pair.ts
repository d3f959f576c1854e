// Stage 5: better vs worse answers of the same prompt become DPO pairs; then the round's length balance.
import { claimProbs, pendingPairings, putBalance, putPairing, roundPairs, type Db, type PairRow } from '../store/index.js';
import { getPairStrategy, type ScoredAnswer } from '../feedback/pairs.js';
import { claimGate, rejectProbability } from '../feedback/gate.js';
import { pairGap } from '../methods/index.js';
import type { ScoredCandidate } from '../store/index.js';
import { balanceLengths } from '../feedback/length-balance.js';
import { contentId } from './ids.js';
import type { StageContext, StageResult } from './context.js';

/**
 * Pairs every prompt of the round (or of `ctx.scope`) not paired yet, then (re)computes length balance over all the
 * round's pairs, unless told not to (a streaming round balances once, after its last slice).
 */
export async function runPair(ctx: StageContext, opts: { balance?: boolean } = {}): Promise<StageResult> {
  const t0 = performance.now();
  const { strategy: name, max_pairs, length_balance, repeated_claims } = ctx.config.pair;
  const strategy = getPairStrategy(name);
  const method = ctx.round.pair_method;
  const diff = pairGap({
    method: ctx.round.feedback_method,
    minGap: ctx.config.feedback.min_gap,
    diff: ctx.config.pair.diff,
    labelerRemote: ctx.config.label.backend.type === 'openai',
  });
  const pending = pendingPairings(ctx.db, ctx.round.id, method, ctx.config.generate.samples, ctx.scope);
  const gate = pairGate(ctx, method, [...pending.keys()]);
  ctx.progress.start('pair', pending.size);
  let items = 0;
  for (const [promptId, cands] of pending) {
    const answers = cands.map(scoredAnswer(method, gate?.probs)).filter((a): a is ScoredAnswer => a !== null);
    const res = strategy.makePairs(answers, {
      diff,
      maxPairs: max_pairs,
      repeatedClaims: repeated_claims,
      seed: ctx.round.seed,
      promptId,
      ...(gate ? { gate: gate.gate } : {}),
    });
    const rows: PairRow[] = [...res.pairs.map((p) => [p, 1] as const), ...res.gated.map((p) => [p, 0] as const)].map(([p, kept]) => ({
      id: contentId(ctx.round.id, method, p.chosenId, p.rejectedId),
      round_id: ctx.round.id,
      prompt_id: promptId,
      method,
      chosen_id: p.chosenId,
      rejected_id: p.rejectedId,
      // Stored in the method's own units: REJ-C as −n_rej, REJ-P as the rejected share, other methods as scored.
      chosen_score: method === 'rejp' ? -p.chosenValue : p.chosenValue,
      rejected_score: method === 'rejp' ? -p.rejectedValue : p.rejectedValue,
      margin: p.margin,
      chosen_words: p.chosenWords,
      rejected_words: p.rejectedWords,
      ...(gate ? { confidence: p.confidence ?? null, gate_kept: kept } : {}),
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

/** A stored scored answer as pairing sees it ("higher is better"); null: no score (no claims, or the method gave none). */
function scoredAnswer(method: string, probs?: Map<string, { p_yes: number | null; p_no: number | null }[]>): (c: ScoredCandidate) => ScoredAnswer | null {
  return (c) => {
    const value = method === 'rejc' ? c.rej_c : method === 'rejp' ? (c.rej_p == null ? null : -c.rej_p) : c.value;
    if (value === null || value === undefined) return null;
    const p = probs?.get(c.id);
    return {
      id: c.id,
      text: c.text,
      words: c.words,
      nClaims: c.n_claims,
      nJudged: c.n_judged,
      ...(c.n_questions !== undefined ? { nQuestions: c.n_questions } : {}),
      ...(p ? { rejectProbs: p.map((x) => rejectProbability(x.p_yes, x.p_no)) } : {}),
      value,
    };
  };
}

/**
 * The round's quality gate (feedback.gate.threshold), with the claims' probabilities of the prompts to pair; null
 * without one. Divide judges a pair by how sure its claims' verdicts make the ranking (feedback/gate.ts).
 */
function pairGate(ctx: StageContext, method: string, promptIds: string[]) {
  const threshold = ctx.config.feedback.gate.threshold;
  if (threshold === null || (method !== 'rejc' && method !== 'rejp')) return null;
  return { gate: claimGate(threshold, method), probs: claimProbs(ctx.db, ctx.round.id, ctx.round.labeler_model, promptIds) };
}
