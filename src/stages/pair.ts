// Stage 5: better vs worse answers of the same prompt become DPO pairs; then the round's length balance. The
// corrections (pair-corrections.ts), the quality gate (pair-gate.ts), length balance (pair-balance.ts) and what
// pairing reads (pair-candidates.ts) have their own files.
import { pendingPairings, putFailures, putPairing, scoredCorrections, type PairRow, type ScoredCandidate, type ScoredCorrection } from '../store/index.js';
import { getPairStrategy, noDrops, type DropReason, type PairResult, type ScoredAnswer } from '../feedback/pairs.js';
import { judgeInOrder } from '../feedback/gate.js';
import { makeCorrectionPairs } from '../feedback/corrections.js';
import type { PairJudge } from '../methods/pair-judge.js';
import type { SequenceScorer } from '../backends/types.js';
import { runReferenceLogprobs } from './reference.js';
import { pairGap } from '../methods/index.js';
import type { Rewriter } from '../methods/rewriter.js';
import { runRefine, type RefineResult } from './refine.js';
import type { Teacher } from '../methods/teacher.js';
import { contentId } from './ids.js';
import { type StageContext, type StageResult } from './context.js';
import { mapLimit } from '../progress.js';
import { rebalance } from './pair-balance.js';
import { correctionCandidates, scoredAnswer } from './pair-candidates.js';
import { writeCorrections, writeRewrites } from './pair-corrections.js';
import { JudgeFailure, judgeRun, pairGate } from './pair-gate.js';

export { rebalance } from './pair-balance.js';
export { writeCorrections } from './pair-corrections.js';

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
  opts: PairStageOptions = {},
  judge: PairJudge | null = null,
  reference: SequenceScorer | null = null,
): Promise<StageResult> {
  const t0 = performance.now();
  const { strategy: name, max_pairs, length_balance, repeated_claims, corrections: editors, rank_pairs } = ctx.config.pair;
  const strategy = getPairStrategy(name);
  const method = ctx.round.pair_method;
  const diff = pairGap({
    method: ctx.round.feedback_method,
    minGap: ctx.config.feedback.min_gap,
    diff: ctx.config.pair.diff,
    labelerRemote: ctx.config.label.backend.type === 'openai',
  });
  const pending = pendingPairings(ctx.db, ctx.round.id, method, ctx.config.generate.samples, ctx.scope);
  let corrections: Map<string, ScoredCorrection[]> | null = null;
  let refined: RefineResult | null = null;
  if (editors.length && pending.size) {
    // The editors write their corrected answers, which are divided, labeled and scored before pairing.
    const ids = [...pending.keys()];
    const written = writeCorrections(ctx, editors, ids) + (editors.includes('llm') ? await writeRewrites(ctx, opts.rewriter ?? null, ids) : 0);
    const score = opts.scoreCorrections;
    if (!score && (written > 0 || editors.includes('refine'))) throw new Error('pair: pair.corrections needs the divide, label and score stages for corrected answers.');
    // (refine's driver scores what the other editors wrote on its first pass)
    if (written > 0 && !editors.includes('refine')) await score!(ctx);
    if (editors.includes('refine')) {
      // The policy's own revisions after the teacher's comments: dialogues run to their end before pairing.
      const gen = ctx.backends.generator;
      if (!gen) throw new Error('pair: the "refine" editor needs the round\'s policy (generate.backend).');
      refined = await runRefine(ctx, ids, { generator: gen, concurrency: opts.refineConcurrency ?? 2, scoreRevisions: score!, teacher: opts.teacher ?? null });
    }
    corrections = scoredCorrections(ctx.db, ctx.round.id, [...pending.keys()]);
  }
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
    } else if (rank_pairs) {
      res = strategy.makePairs(answers, { ...base, ...(claims ? { gate: claims.gate } : {}) });
    } else {
      res = { pairs: [], gated: [], considered: 0, dropped: noDrops() };
    }
    const fixes = corrections?.get(promptId);
    if (fixes?.length) {
      const cp = makeCorrectionPairs(correctionCandidates(method, fixes, claims?.probs), {
        ...base,
        minFewer: method === 'rejc' ? diff : 1,
        ...(claims ? { gate: claims.gate } : {}),
      });
      res = {
        pairs: [...res.pairs, ...cp.pairs],
        gated: [...res.gated, ...cp.gated],
        considered: res.considered + cp.considered,
        dropped: Object.fromEntries(Object.entries(res.dropped).map(([k, v]) => [k, v + cp.dropped[k as DropReason]])) as PairResult['dropped'],
      };
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
      ...('editor' in p ? { kind: 'correction' as const, editor: (p as { editor: string }).editor } : {}),
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
    failures: failures + (ref?.failures ?? 0) + (refined?.failures ?? 0),
    seconds: (performance.now() - t0) / 1000,
    modelSeconds: (judging?.time.modelSeconds ?? 0) + (ref?.time.modelSeconds ?? 0) + (refined?.modelSeconds ?? 0),
  };
}

/** How a pair stage run goes: whether it balances lengths, and how corrected answers get their scores. */
export interface PairStageOptions {
  /** false: leave length balance to the caller (a streaming round balances once, after its last slice). */
  balance?: boolean;
  /** Divides, labels and scores the round's (scope's) candidates not yet scored: the corrected answers just written. */
  scoreCorrections?: (ctx: StageContext) => Promise<void>;
  /** The `llm` editor's served rewriter (pair.rewriter). */
  rewriter?: Rewriter | null;
  /** Concurrent generate requests of the `refine` editor's dialogues (the generate stage's own concurrency). */
  refineConcurrency?: number;
  /** The `refine` editor's served teacher (pair.refine.teacher). */
  teacher?: Teacher | null;
}
