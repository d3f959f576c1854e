// The pair stage's quality gate: divide's claim gate, or a judge model rating each pair (feedback.gate).
import { claimProbs, getPairJudgment, judgePrompts, putPairJudgment } from '../store/index.js';
import { claimGate } from '../feedback/gate.js';
import type { Pair } from '../feedback/pairs.js';
import type { PairJudge } from '../methods/pair-judge.js';
import type { Turn } from '../domain.js';
import { type StageContext } from './context.js';
import { timed, type ModelTime } from '../progress.js';

/**
 * The round's quality gate (feedback.gate.threshold), with the claims' probabilities of the prompts to pair; null
 * without one. Divide judges a pair by how sure its claims' verdicts make the ranking (feedback/gate.ts).
 */
export function pairGate(ctx: StageContext, method: string, promptIds: string[]) {
  const threshold = ctx.config.feedback.gate.threshold;
  if (threshold === null || (method !== 'rejc' && method !== 'rejp')) return null;
  return { gate: claimGate(threshold, method), probs: claimProbs(ctx.db, ctx.round.id, ctx.round.labeler_model, promptIds) };
}

/** A pair the judge could not rate: the prompt's pairing fails with this reason and the judge's raw reply. */
export class JudgeFailure extends Error {
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
export function judgeRun(ctx: StageContext, judge: PairJudge, promptIds: string[]) {
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
