// Stage 5: better vs worse answers of the same prompt become DPO pairs; then the round's length balance.
import {
  claimProbs,
  getPairJudgment,
  judgePrompts,
  pendingPairings,
  putBalance,
  putFailures,
  putPairing,
  putPairJudgment,
  roundPairs,
  type Db,
  type PairRow,
} from '../store/index.js';
import { getPairStrategy, type Pair, type PairResult, type ScoredAnswer } from '../feedback/pairs.js';
import { claimGate, judgeInOrder, rejectProbability } from '../feedback/gate.js';
import type { PairJudge } from '../methods/pair-judge.js';
import type { SequenceScorer, Turn } from '../backends/types.js';
import { runReferenceLogprobs } from './reference.js';
import { pairGap } from '../methods/index.js';
import type { ScoredCandidate } from '../store/index.js';
import { balanceLengths } from '../feedback/length-balance.js';
import { contentId } from './ids.js';
import { mapLimit, timed, type ModelTime, type StageContext, type StageResult } from './context.js';

/**
 * Pairs every prompt of the round (or of `ctx.scope`) not paired yet, then (re)computes length balance over all the
 * round's pairs, unless told not to (a streaming round balances once, after its last slice). With a quality gate the
 * pairs under its threshold are stored as dropped: divide's gate reads the claims' probabilities; a judge model
 * (`judge`, feedback.gate.judge) rates pairs of any method, and a prompt whose pair it cannot rate is a failure.
 * With a `reference` scorer (the round's policy, pair.reference_logprobs) every answer of each paired prompt is then
 * teacher-forced and its log-probs stored (stages/reference.ts).
 */
export async function runPair(
  ctx: StageContext,
  opts: { balance?: boolean } = {},
  judge: PairJudge | null = null,
  reference: SequenceScorer | null = null,
): Promise<StageResult> {
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
  const claims = judge ? null : pairGate(ctx, method, [...pending.keys()]);
  const judging = judge ? judgeRun(ctx, judge, [...pending.keys()]) : null;
  const gated = claims !== null || judging !== null;
  ctx.progress.start('pair', pending.size);
  let items = 0;
  let failures = 0;
  const pairOne = async ([promptId, cands]: [string, ScoredCandidate[]]): Promise<void> => {
    const answers = cands.map(scoredAnswer(method, claims?.probs)).filter((a): a is ScoredAnswer => a !== null);
    const base = { diff, maxPairs: max_pairs, repeatedClaims: repeated_claims, seed: ctx.round.seed, promptId };
    let res: PairResult;
    if (judging) {
      const all = strategy.makePairs(answers, { ...base, maxPairs: 'all' });
      const texts = new Map(cands.map((c) => [c.id, c.text]));
      try {
        res = await judgeInOrder(all, { threshold: judging.threshold, maxPairs: max_pairs, seed: ctx.round.seed, promptId }, (p) =>
          judging.confidence(promptId, p, texts),
        );
      } catch (e) {
        if (!(e instanceof JudgeFailure)) throw e;
        // The prompt stays unpaired with its failure (the verdicts it got are stored); --retry-failed pairs it again.
        putFailures(ctx.db, [{ round_id: ctx.round.id, stage: 'pair', item: promptId, reason: e.message, ...(e.raw !== undefined ? { raw: e.raw } : {}) }]);
        failures++;
        ctx.progress.tick();
        return;
      }
    } else {
      res = strategy.makePairs(answers, { ...base, ...(claims ? { gate: claims.gate } : {}) });
    }
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
      ...(gated ? { confidence: p.confidence ?? null, gate_kept: kept } : {}),
    }));
    putPairing(
      ctx.db,
      { round_id: ctx.round.id, prompt_id: promptId, method, considered: res.considered, dropped: res.dropped },
      rows,
    );
    items += rows.length;
    ctx.progress.tick();
  };
  if (judging) await mapLimit([...pending], judging.concurrency, pairOne);
  else for (const entry of pending) await pairOne(entry);
  ctx.progress.done();
  // Every paired prompt of the scope still without log-probs, this run's and any an earlier run left (resumable).
  const ref = reference ? await runReferenceLogprobs(ctx, reference) : null;
  if (opts.balance !== false) rebalance(ctx.db, ctx.round.id, method, length_balance);
  return {
    stage: 'pair',
    items,
    failures: failures + (ref?.failures ?? 0),
    seconds: (performance.now() - t0) / 1000,
    modelSeconds: (judging?.time.modelSeconds ?? 0) + (ref?.time.modelSeconds ?? 0),
  };
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

/** A pair the judge could not rate: the prompt's pairing fails with this reason and the judge's raw reply. */
class JudgeFailure extends Error {
  constructor(
    message: string,
    readonly raw?: string,
  ) {
    super(message);
  }
}

/**
 * The judge-model gate of a pair stage run (feedback.gate.judge): a pair's confidence is the judge's score/10. A
 * verdict is stored as soon as it comes, and one stored before (an interrupted run, a top-up's second pairing) is
 * read back instead of asking again.
 */
function judgeRun(ctx: StageContext, judge: PairJudge, promptIds: string[]) {
  const prompts = judgePrompts(ctx.db, promptIds);
  const time: ModelTime = { modelSeconds: 0 };
  return {
    threshold: ctx.config.feedback.gate.threshold ?? 0,
    concurrency: judge.concurrency,
    time,
    async confidence(promptId: string, p: Pair, texts: Map<string, string>): Promise<number> {
      const stored = getPairJudgment(ctx.db, ctx.round.id, p.chosenId, p.rejectedId, judge.id);
      if (stored) return stored.score / 10;
      const pr = prompts.get(promptId)!;
      const v = await timed(time, () =>
        judge.rate({
          imagePath: pr.image_path,
          question: pr.question,
          history: pr.history_json === null ? [] : (JSON.parse(pr.history_json) as Turn[]),
          positive: texts.get(p.chosenId)!,
          negative: texts.get(p.rejectedId)!,
        }),
      );
      if ('error' in v) throw new JudgeFailure(`${v.error} (pair ${p.chosenId} over ${p.rejectedId})`, v.raw);
      putPairJudgment(ctx.db, { round_id: ctx.round.id, chosen_id: p.chosenId, rejected_id: p.rejectedId, judge: judge.id, ...v });
      return v.score / 10;
    },
  };
}
