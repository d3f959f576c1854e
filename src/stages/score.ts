// Stage 4: a claim is rejected when the labeler says no; answers get REJ-C and REJ-P (both stored).
import { pendingScores, putScores, type ScoreRow } from '../store/index.js';
import { isRejected } from '../feedback/verdict.js';
import { scoreAnswer } from '../feedback/scores.js';
import type { StageContext, StageResult } from './context.js';

/** Scores every divided candidate whose claims are all labeled (or failed for good). */
export async function runScore(ctx: StageContext, labelerId: string): Promise<StageResult> {
  const t0 = performance.now();
  const rule = ctx.round.accept_rule;
  const pending = pendingScores(ctx.db, ctx.round.id, labelerId, ctx.scope);
  ctx.progress.start('score', pending.length);
  const rows: ScoreRow[] = [];
  for (const c of pending) {
    const judged = c.probs.filter((p) => p.p_yes !== null && p.p_no !== null);
    const verdicts = judged.map((p) => isRejected(p.p_yes!, p.p_no!, rule));
    const s = scoreAnswer(verdicts);
    rows.push({
      candidate_id: c.candidate_id,
      round_id: ctx.round.id,
      n_claims: c.n_claims,
      n_judged: judged.length,
      n_rejected: s?.nRejected ?? 0,
      // An answer with no claims is never scored or paired (REFERENCE §4).
      rej_c: c.n_claims === 0 ? null : (s?.rejC ?? null),
      rej_p: c.n_claims === 0 ? null : (s?.rejP ?? null),
    });
  }
  putScores(ctx.db, rows);
  ctx.progress.tick(rows.length);
  ctx.progress.done();
  return { stage: 'score', items: rows.length, failures: 0, seconds: (performance.now() - t0) / 1000, modelSeconds: 0 };
}
