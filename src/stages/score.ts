// Stage 4: a claim is rejected when the labeler says no; answers get REJ-C and REJ-P (both stored).
import { pendingMethodScores, pendingScores, putAnswerScores, putFailures, putScores, type AnswerScoreRow, type FailureInput, type ScoreRow } from '../store/index.js';
import { FatalBackendError } from '../backends/errors.js';
import type { Turn } from '../domain.js';
import type { FeedbackMethod, MethodAnswer, MethodPrompt, MethodScore } from '../methods/types.js';
import { isRejected } from '../feedback/verdict.js';
import { scoreAnswer } from '../feedback/scores.js';
import { type StageContext, type StageResult } from './context.js';
import { mapLimit, timed } from '../progress.js';

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

/**
 * Scores the round's answers with a feedback method other than divide (src/methods/): answers are grouped by prompt,
 * `method.promptsPerCall` prompts a call, `method.concurrency` calls in flight; each answer's score and evidence is
 * stored, and an answer the method fails on is a failure with its reason and raw output (retried by --retry-failed).
 */
export async function runMethodScore(ctx: StageContext, method: FeedbackMethod): Promise<StageResult> {
  const t0 = performance.now();
  const pending = pendingMethodScores(ctx.db, ctx.round.id, method.name, ctx.scope);
  const byPrompt = new Map<string, { prompt: MethodPrompt; answers: MethodAnswer[] }>();
  for (const c of pending) {
    let g = byPrompt.get(c.prompt_id);
    if (!g) {
      const prompt: MethodPrompt = {
        id: c.prompt_id,
        imagePath: c.image_path,
        question: c.question,
        history: c.history_json === null ? [] : (JSON.parse(c.history_json) as Turn[]),
        meta: c.meta_json === null ? null : (JSON.parse(c.meta_json) as unknown),
      };
      byPrompt.set(c.prompt_id, (g = { prompt, answers: [] }));
    }
    g.answers.push({ id: c.candidate_id, text: c.text, words: c.words });
  }
  const groups = [...byPrompt.values()];
  const calls: (typeof groups)[] = [];
  for (let i = 0; i < groups.length; i += method.promptsPerCall) calls.push(groups.slice(i, i + method.promptsPerCall));
  const acc = { modelSeconds: 0 };
  let items = 0;
  let failures = 0;
  ctx.progress.start('score', pending.length);
  await mapLimit(calls, method.concurrency, async (call) => {
    const n = call.reduce((s, g) => s + g.answers.length, 0);
    let res: MethodScore[][];
    try {
      res = await timed(acc, () => method.score(call));
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      res = call.map((g) => g.answers.map((a) => ({ candidateId: a.id, error: `${method.name}: ${(e as Error).message}` })));
    }
    const rows: AnswerScoreRow[] = [];
    const fails: FailureInput[] = [];
    for (const s of res.flat()) {
      if ('error' in s) fails.push({ round_id: ctx.round.id, stage: 'score', item: s.candidateId, reason: s.error, ...(s.raw !== undefined ? { raw: s.raw } : {}) });
      else rows.push({ candidate_id: s.candidateId, method: method.name, round_id: ctx.round.id, scorer: method.scorer, value: s.value, evidence: s.evidence });
    }
    putAnswerScores(ctx.db, rows);
    if (fails.length) putFailures(ctx.db, fails);
    items += rows.length;
    failures += fails.length;
    ctx.progress.tick(n);
  });
  ctx.progress.done();
  return { stage: 'score', items, failures, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
