// Stage 3: the labeler reads the image and each distinct question once; p(yes), p(no) are stored.
import { pendingLabels, putFailures, putLabels, type FailureInput, type LabelRow } from '../store/index.js';
import { FatalBackendError } from '../backends/errors.js';
import type { LabelResult } from '../backends/types.js';
import { type StageContext, type StageResult } from './context.js';
import { mapLimit, timed } from '../progress.js';

// Questions of one image go together: the image is read once, and a server's prefix cache reuses it.
const MAX_PER_IMAGE = 64;
// A labeler that batches across images (labelImages) gets several images' questions per call, up to these bounds,
// and no more than an even share of the pending questions, so every concurrent call has work.
const MAX_IMAGES_PER_TASK = 16;
const MAX_QUESTIONS_PER_TASK = 256;

/**
 * How the label stage cuts pending questions (ordered by image) into labeler calls: per image, at most MAX_PER_IMAGE
 * questions a group; one group a call, or, for a labeler that batches across images, consecutive groups together up
 * to MAX_IMAGES_PER_TASK images and MAX_QUESTIONS_PER_TASK questions, and no more than an even share of the pending
 * questions over `concurrency` calls. Returns calls of groups of questions.
 */
export function labelTasks<Q extends { image_id: string | number }>(pending: readonly Q[], concurrency: number, acrossImages: boolean): Q[][][] {
  const groups: Q[][] = [];
  for (const q of pending) {
    const g = groups.at(-1);
    if (g && g[0]!.image_id === q.image_id && g.length < MAX_PER_IMAGE) g.push(q);
    else groups.push([q]);
  }
  if (!acrossImages) return groups.map((g) => [g]);
  const tasks: Q[][][] = [];
  const share = Math.ceil(pending.length / Math.max(1, concurrency));
  const cap = Math.max(1, Math.min(MAX_QUESTIONS_PER_TASK, share));
  let n = 0;
  for (const g of groups) {
    const t = tasks.at(-1);
    if (t && t.length < MAX_IMAGES_PER_TASK && n + g.length <= cap) {
      t.push(g);
      n += g.length;
    } else {
      tasks.push([g]);
      n = g.length;
    }
  }
  return tasks;
}

/** Labels every question of the round this labeler has not answered yet (answers are reused across rounds). */
export async function runLabel(ctx: StageContext, concurrency: number): Promise<StageResult> {
  const t0 = performance.now();
  const labeler = ctx.backends.labeler;
  if (!labeler) throw new Error('label: no labeler configured.');
  const pending = pendingLabels(ctx.db, ctx.round.id, labeler.id, ctx.scope);
  const tasks = labelTasks(pending, concurrency, !!labeler.labelImages);
  const acc = { modelSeconds: 0 };
  let items = 0;
  let failures = 0;
  ctx.progress.start('label', pending.length);
  await mapLimit(tasks, concurrency, async (task) => {
    const count = task.reduce((a, g) => a + g.length, 0);
    let res: LabelResult[][];
    try {
      res = await timed(acc, async () =>
        labeler.labelImages && task.length > 1
          ? await labeler.labelImages(task.map((g) => ({ imagePath: g[0]!.image_path, questions: g.map((q) => q.text) })))
          : [await labeler.label(task[0]![0]!.image_path, task[0]!.map((q) => q.text))],
      );
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      const reason = (e as Error).message;
      putFailures(ctx.db, task.flat().map((q) => ({ round_id: ctx.round.id, stage: 'label', item: q.id, reason })));
      failures += count;
      ctx.progress.tick(count);
      return;
    }
    const rows: LabelRow[] = [];
    const fails: FailureInput[] = [];
    task.forEach((g, i) =>
      g.forEach((q, k) => {
        const r = res[i]?.[k];
        if (!r || r.error) {
          fails.push({ round_id: ctx.round.id, stage: 'label', item: q.id, reason: r?.error ?? 'the labeler gave no result for this question' });
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
      }),
    );
    putLabels(ctx.db, rows);
    if (fails.length) putFailures(ctx.db, fails);
    items += rows.length;
    failures += fails.length;
    ctx.progress.tick(count);
  });
  ctx.progress.done();
  return { stage: 'label', items, failures, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
