// Stage 3: the labeler reads the image and each distinct question once; p(yes), p(no) are stored.
import { pendingLabels, putFailures, putLabels, type FailureInput, type LabelRow, type PendingQuestion } from '../store/index.js';
import { FatalBackendError } from '../backends/errors.js';
import { mapLimit, timed, type StageContext, type StageResult } from './context.js';

// Questions of one image go together: the image is read once, and a server's prefix cache reuses it.
const MAX_PER_TASK = 64;

/** Labels every question of the round this labeler has not answered yet (answers are reused across rounds). */
export async function runLabel(ctx: StageContext, concurrency: number): Promise<StageResult> {
  const t0 = performance.now();
  const labeler = ctx.backends.labeler;
  if (!labeler) throw new Error('label: no labeler configured.');
  const pending = pendingLabels(ctx.db, ctx.round.id, labeler.id, ctx.scope);
  const groups: PendingQuestion[][] = [];
  for (const q of pending) {
    const g = groups.at(-1);
    if (g && g[0]!.image_id === q.image_id && g.length < MAX_PER_TASK) g.push(q);
    else groups.push([q]);
  }
  const acc = { modelSeconds: 0 };
  let items = 0;
  let failures = 0;
  ctx.progress.start('label', pending.length);
  await mapLimit(groups, concurrency, async (g) => {
    let res;
    try {
      res = await timed(acc, () => labeler.label(g[0]!.image_path, g.map((q) => q.text)));
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      const reason = (e as Error).message;
      putFailures(ctx.db, g.map((q) => ({ round_id: ctx.round.id, stage: 'label', item: q.id, reason })));
      failures += g.length;
      ctx.progress.tick(g.length);
      return;
    }
    const rows: LabelRow[] = [];
    const fails: FailureInput[] = [];
    g.forEach((q, k) => {
      const r = res[k]!;
      if (r.error) {
        fails.push({ round_id: ctx.round.id, stage: 'label', item: q.id, reason: r.error });
        return;
      }
      rows.push({
        question_id: q.id,
        labeler: labeler.id,
        p_yes: r.pYes,
        p_no: r.pNo,
        top_json: JSON.stringify(r.top),
        bound_used: r.boundUsed ? 1 : 0,
      });
    });
    putLabels(ctx.db, rows);
    if (fails.length) putFailures(ctx.db, fails);
    items += rows.length;
    failures += fails.length;
    ctx.progress.tick(g.length);
  });
  ctx.progress.done();
  return { stage: 'label', items, failures, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
