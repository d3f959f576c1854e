// The labeler batched across images (images through the encoder together, their shared prompt prefix run once as
// rows of one batch, the questions of all of them continuing side by side from their own image's row) gives the plain
// path's numbers, on the real tiny labeler and the real test questions; and each question's logits are the same bits
// whatever other images and questions share its call (a resumed round stores what an uninterrupted one stores).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import path from 'node:path';
import { RawImage } from '@huggingface/transformers';
import { LlavaModel, readImage, type ImageQuestions } from '../../src/backends/local/llava.js';
import type { BatchPlanOptions } from '../../src/backends/local/batched.js';
import runTask from '../../src/backends/local/local.worker.js';
import { yesNoFromLogits, yesNoTokenIds } from '../../src/feedback/yes-no.js';
import type { LabelResult } from '../../src/backends/types.js';
import { labelTasks } from '../../src/stages/label.js';
import { LABELER, TEST, testQuestions } from '../helpers/paths.js';
import { expectSameLogits } from '../helpers/logits.js';

const SUFFIX = ' Please answer yes or no.';

/** The test split's questions by image, in file order (4 per image). */
function byImage(): { image: string; questions: string[] }[] {
  const out: { image: string; questions: string[] }[] = [];
  for (const q of testQuestions()) {
    const g = out.at(-1);
    if (g && g.image === q.image) g.questions.push(q.question);
    else out.push({ image: q.image, questions: [q.question] });
  }
  return out;
}

/**
 * 36 images from image 300 on with 1 to 4 of their own questions each, and two images asked many questions (their
 * own and those of 10 and 6 further images): 1, 2, 3, 4 and 28 or 44 questions an image.
 */
function workload(): { image: string; questions: string[] }[] {
  const all = byImage();
  const items = all.slice(300, 336).map((g, i) => ({ image: g.image, questions: g.questions.slice(0, 1 + (i % 4)) }));
  items.splice(5, 0, { image: all[336]!.image, questions: all.slice(336, 347).flatMap((g) => g.questions) });
  items.splice(20, 0, { image: all[347]!.image, questions: all.slice(347, 354).flatMap((g) => g.questions) });
  return items;
}

function sameBits(a: Float32Array | Error, b: Float32Array | Error): boolean {
  if (!(a instanceof Float32Array) || !(b instanceof Float32Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

describe('labeler batched across images', () => {
  let m: LlavaModel;
  let yesNo: { yes: number[]; no: number[] };
  let items: { image: string; questions: string[] }[];
  let loaded: ImageQuestions[];
  beforeAll(async () => {
    m = await LlavaModel.load(LABELER, { threads: 1 });
    yesNo = yesNoTokenIds(m.vocabulary());
    items = workload();
    loaded = [];
    for (const it of items) loaded.push({ image: await readImage(path.join(TEST, it.image)), questions: it.questions.map((q) => q + SUFFIX) });
  });
  afterAll(() => m.dispose());

  /** The plain path's logits: the image read by transformers.js, one full forward per question. */
  async function plain(image: string, question: string): Promise<Float32Array> {
    return m.firstTokenLogits(await RawImage.read(path.join(TEST, image)), question);
  }

  test('the workload: over 30 images, over 150 questions, images with 1 question and images with many', () => {
    const counts = items.map((it) => it.questions.length);
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(150);
    expect(counts.filter((c) => c === 1).length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(40);
  });

  test('every question of 38 images in one call: the plain path\'s logits and p_yes (within 1e-4; here the same bits)', async () => {
    const out = await m.imagesQuestionLogits(loaded);
    expect(out.map((r) => r.length)).toEqual(items.map((it) => it.questions.length));
    let n = 0;
    let identical = 0;
    for (const [i, it] of items.entries()) {
      for (const [k, q] of it.questions.entries()) {
        const ref = await plain(it.image, q + SUFFIX);
        const got = out[i]![k]!;
        expectSameLogits(got, ref, yesNo);
        if (sameBits(got as Float32Array, ref)) identical++;
        n++;
      }
    }
    expect(n).toBeGreaterThanOrEqual(150);
    // On this model and build of onnxruntime the batched rows are the plain path's bits exactly.
    expect(identical).toBe(n);
  });

  test('the same bits whatever the grouping: all at once, one image a call, other subsets and orders, other batch plans', async () => {
    const reference = await m.imagesQuestionLogits(loaded);
    const check = (got: (Float32Array | Error)[][], which: number[]) =>
      which.forEach((i, j) => got[j]!.forEach((l, k) => expect(sameBits(l, reference[i]![k]!), `image ${i} question ${k}`).toBe(true)));
    // One image a call (the per-image label task).
    for (const [i, it] of loaded.entries()) check([await m.questionLogits(it.image, it.questions)], [i]);
    // Reversed order, and every third image, and images 10..17 with a question of their own removed.
    const idx = loaded.map((_, i) => i);
    const rev = [...idx].reverse();
    check(await m.imagesQuestionLogits(rev.map((i) => loaded[i]!)), rev);
    const third = idx.filter((i) => i % 3 === 1);
    check(await m.imagesQuestionLogits(third.map((i) => loaded[i]!)), third);
    const some = idx.slice(10, 18);
    const trimmed = await m.imagesQuestionLogits(some.map((i) => ({ image: loaded[i]!.image, questions: loaded[i]!.questions.slice(1) })));
    some.forEach((i, j) => trimmed[j]!.forEach((l, k) => expect(sameBits(l, reference[i]![k + 1]!)).toBe(true)));
    // Many small runs, one padded run, at most 3 rows a run.
    const plans: BatchPlanOptions[] = [
      { tokenBudget: 40, runCost: 0 },
      { tokenBudget: 100_000, runCost: 100_000 },
      { tokenBudget: 2048, runCost: 6, maxRows: 3 },
    ];
    for (const plan of plans) check(await m.imagesQuestionLogits(loaded, plan), idx);
  });

  test('an image of another size is resized by the model\'s processor: the plain path\'s logits; the others keep their bits', async () => {
    const reference = await m.imagesQuestionLogits(loaded.slice(0, 6));
    const odd = await loaded[2]!.image.resize(84, 84);
    // The processor (shortest edge 64, bicubic, centre crop 64×64) makes it the encoder's size, as a CLIP processor does.
    const plain = await Promise.all(loaded[2]!.questions.map((q) => m.firstTokenLogits(odd, q)));
    const mixed = [...loaded.slice(0, 6)];
    mixed.splice(3, 0, { image: odd, questions: loaded[2]!.questions });
    const out = await m.imagesQuestionLogits(mixed);
    out[3]!.forEach((l, k) => expect(sameBits(l as Float32Array, plain[k]!)).toBe(true));
    out.filter((_, j) => j !== 3).forEach((r, i) => r.forEach((l, k) => expect(sameBits(l, reference[i]![k]!)).toBe(true)));
    // Resized, it is not the 64×64 original: the model sees a resampled image.
    expect(sameBits(out[3]![0] as Float32Array, reference[2]![0]!)).toBe(false);
  });

  test("the worker's labelImages task (the production path): the plain path's p_yes, p_no, top tokens; errors per question and per image", async () => {
    const some = items.slice(0, 12).map((it) => ({ imagePath: path.join(TEST, it.image), questions: [...it.questions] }));
    some[3]!.questions.push('Is there a ' + 'small '.repeat(160) + 'circle?');
    some[7]!.questions.push('Is there a <image> star?');
    some.splice(5, 0, { imagePath: path.join(TEST, 'images', 'no-such-image.png'), questions: ['Is there a red circle?', 'Is there a blue square?'] });
    const res = (await runTask({ kind: 'labelImages', model: LABELER, threads: 1, items: some, suffix: SUFFIX })) as LabelResult[][];
    expect(res.map((r) => r.length)).toEqual(some.map((s) => s.questions.length));
    for (const r of res[5]!) expect(r).toMatchObject({ pYes: null, pNo: null, top: [], error: expect.stringMatching(/no-such-image\.png/) });
    expect(res[3]!.at(-1)).toMatchObject({ pYes: null, error: expect.stringMatching(/context is 160/) });
    expect(res[8]!.at(-1)).toMatchObject({ pYes: null, error: expect.stringMatching(/Number of tokens and features do not match: tokens: 10, features 9/) });
    let n = 0;
    for (const [i, s] of some.entries()) {
      if (i === 5) continue;
      const qs = i === 3 || i === 8 ? s.questions.slice(0, -1) : s.questions;
      for (const [k, q] of qs.entries()) {
        const r = yesNoFromLogits(await plain(path.relative(TEST, s.imagePath), q + SUFFIX), yesNo, (t) => m.tokenText(t), 5);
        const got = res[i]![k]!;
        expect(got.error).toBeUndefined();
        expect(got.pYes).toBe(r.pYes);
        expect(got.pNo).toBe(r.pNo);
        expect(got.top).toEqual(r.top);
        expect(got.boundUsed).toBe(false);
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
    // The per-image label task gives the same results.
    const one = (await runTask({ kind: 'label', model: LABELER, threads: 1, imagePath: some[0]!.imagePath, questions: some[0]!.questions, suffix: SUFFIX })) as LabelResult[];
    expect(one).toEqual(res[0]);
  });
});

describe('label stage calls (labelTasks)', () => {
  // 60 images with 1 to 70 questions each, ordered by image as pendingLabels gives them.
  const pending = Array.from({ length: 60 }, (_, i) => i).flatMap((img) =>
    Array.from({ length: 1 + ((img * 7) % 70) }, (_, k) => ({ id: `${img}-${k}`, image_id: `img${String(img).padStart(2, '0')}` })),
  );

  test('every pending question exactly once, in order; an image group holds one image, at most 64 questions', () => {
    for (const [concurrency, across] of [[4, true], [1, true], [100, true], [4, false]] as const) {
      const tasks = labelTasks(pending, concurrency, across);
      expect(tasks.flat(2).map((q) => q.id)).toEqual(pending.map((q) => q.id));
      for (const g of tasks.flat()) {
        expect(g.length).toBeLessThanOrEqual(64);
        expect(new Set(g.map((q) => q.image_id)).size).toBe(1);
      }
      if (!across) expect(tasks.every((t) => t.length === 1)).toBe(true);
    }
  });

  test('across images: at most 16 images and 256 questions a call, and no more than an even share over the concurrent calls', () => {
    const small = pending.filter((q) => Number(q.id.split('-')[1]) < 3);
    const smallTasks = labelTasks(small, 1, true);
    expect(Math.max(...smallTasks.map((t) => t.length))).toBe(16);
    expect(smallTasks.length).toBeLessThan(new Set(small.map((q) => q.image_id)).size / 8);
    const one = labelTasks(pending, 1, true);
    expect(Math.max(...one.map((t) => t.flat().length))).toBeGreaterThan(200);
    for (const t of one) expect(t.length === 1 || t.flat().length <= 256).toBe(true);
    const four = labelTasks(pending, 4, true);
    const share = Math.ceil(pending.length / 4);
    for (const t of four) expect(t.length === 1 || t.flat().length <= share).toBe(true);
    expect(four.length).toBeGreaterThanOrEqual(4);
  });
});
