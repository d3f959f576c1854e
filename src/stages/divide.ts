// Stage 2: every answer becomes atomic claims, each with its yes/no question.
import { pendingDivision, putDivisions, putFailures, type Division, type FailureInput } from '../store/index.js';
import type { DivideOutput } from '../backends/types.js';
import { contentId, normaliseQuestion } from './ids.js';
import { FatalBackendError } from '../backends/errors.js';
import { WriteBatcher, type StageContext, type StageResult } from './context.js';
import { mapLimit, timed } from '../progress.js';

const BATCH = 64;
/** Answers' results written per transaction (or every second, whichever comes first). */
export const DIVIDE_WRITE_ROWS = 8192;

/** Divides every candidate of the round (or of `ctx.scope`) that is not divided yet. */
export async function runDivide(ctx: StageContext, concurrency: number): Promise<StageResult> {
  const t0 = performance.now();
  const divider = ctx.backends.divider;
  if (!divider) throw new Error('divide: no divider configured.');
  const acc = { modelSeconds: 0 };
  let items = 0;
  let failures = 0;
  const pending = pendingDivision(ctx.db, ctx.round.id, ctx.scope);
  ctx.progress.start('divide', pending.length);
  const batches: (typeof pending)[] = [];
  for (let i = 0; i < pending.length; i += BATCH) batches.push(pending.slice(i, i + BATCH));
  // Divisions and failures are written together, in large transactions.
  const out = new WriteBatcher<Division | FailureInput>((rows) => {
    ctx.db.transaction(() => {
      putDivisions(ctx.db, rows.filter((r): r is Division => 'candidateId' in r));
      const fails = rows.filter((r): r is FailureInput => !('candidateId' in r));
      if (fails.length) putFailures(ctx.db, fails);
    }).immediate();
  }, DIVIDE_WRITE_ROWS);
  try {
    await mapLimit(batches, concurrency, async (batch) => {
      let outs;
      try {
        outs = await timed(acc, () => divider.divide(batch.map((c) => ({ question: c.question, answer: c.text }))));
      } catch (e) {
        if (e instanceof FatalBackendError) throw e;
        outs = batch.map((): DivideOutput => ({ error: (e as Error).message }));
      }
      const divs: Division[] = [];
      const fails: FailureInput[] = [];
      batch.forEach((c, k) => {
        const o = outs[k]!;
        if ('error' in o) {
          fails.push({ round_id: ctx.round.id, stage: 'divide', item: c.id, reason: o.error, raw: 'raw' in o ? (o.raw ?? null) : null });
          return;
        }
        divs.push({
          candidateId: c.id,
          divider: divider.id,
          truncated: o.truncated,
          skipped: o.skipped,
          claims: o.claims.map((cl, idx) => ({
            id: contentId(c.id, idx),
            idx,
            sentence: cl.sentence,
            claim: cl.claim,
            questionId: contentId(c.image_id, normaliseQuestion(cl.question)),
            questionText: cl.question,
            imageId: c.image_id,
            start: cl.start,
            end: cl.end,
          })),
        });
      });
      out.add(divs);
      out.add(fails);
      items += divs.length;
      failures += fails.length;
      ctx.progress.tick(batch.length);
    });
  } finally {
    out.flush(); // what was done before an error is kept
  }
  ctx.progress.done();
  return { stage: 'divide', items, failures, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
