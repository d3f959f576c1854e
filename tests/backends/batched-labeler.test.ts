// The batched labeler (image encoded once, prompt prefix run once, questions as batched continuations of its cache)
// gives the plain path's numbers: one transformers.js forward per question (LlavaModel.firstTokenLogits), on the real
// tiny labeler and the real test questions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { RawImage } from '@huggingface/transformers';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import { planBatches, type BatchPlanOptions } from '../../src/backends/local/batched.js';
import runTask from '../../src/backends/local/local.worker.js';
import { yesNoFromLogits, yesNoTokenIds } from '../../src/feedback/yes-no.js';
import type { LabelResult } from '../../src/backends/types.js';
import { LABELER, TEST, testQuestions } from '../helpers/paths.js';
import { expectSameLogits } from '../helpers/logits.js';

const SUFFIX = ' Please answer yes or no.';

/** The test questions of the first `images` images, by image, in file order. */
function byImage(images: number, skip = 0): { image: string; questions: string[] }[] {
  const out: { image: string; questions: string[] }[] = [];
  for (const q of testQuestions()) {
    const g = out.at(-1);
    if (g && g.image === q.image) g.questions.push(q.question + SUFFIX);
    else out.push({ image: q.image, questions: [q.question + SUFFIX] });
  }
  return out.slice(skip, skip + images);
}

describe('batched labeler', () => {
  let m: LlavaModel;
  let yesNo: { yes: number[]; no: number[] };
  beforeAll(async () => {
    m = await LlavaModel.load(LABELER, { threads: 1 });
    yesNo = yesNoTokenIds(m.vocabulary());
  });
  afterAll(() => m.dispose());

  /** The plain path's logits: the image read by transformers.js, one full forward per question. */
  async function plain(image: string, question: string): Promise<Float32Array> {
    return m.firstTokenLogits(await RawImage.read(path.join(TEST, image)), question);
  }

  const expectSame = (batched: Float32Array | Error, reference: Float32Array) => expectSameLogits(batched, reference, yesNo);

  test('160 test questions over 40 images, grouped by image as the label stage groups them: same p_yes as one forward per question', async () => {
    const groups = byImage(40);
    let n = 0;
    const lengths = new Set<number>();
    for (const g of groups) {
      const batched = await m.questionLogits(await readImage(path.join(TEST, g.image)), g.questions);
      expect(batched).toHaveLength(g.questions.length);
      for (const [k, q] of g.questions.entries()) {
        expectSame(batched[k]!, await plain(g.image, q));
        lengths.add(m.promptIds(q, 9).length);
        n++;
      }
    }
    expect(n).toBe(160);
    expect(lengths.size).toBeGreaterThan(4); // questions of many different lengths
  });

  test('many questions of different lengths about one image, cut into several batches or padded into one: same p_yes', async () => {
    // 48 questions (those of 12 images) asked about each of 3 images.
    const questions = byImage(12, 40).flatMap((g) => g.questions);
    expect(questions.length).toBe(48);
    const plans: BatchPlanOptions[] = [
      { tokenBudget: 2048, runCost: 6 }, // the default
      { tokenBudget: 40, runCost: 0 }, // many small batches
      { tokenBudget: 100_000, runCost: 100_000 }, // one batch, heavy padding
    ];
    const lens = questions.map((q) => m.promptIds(q, 9).length);
    expect(planBatches(lens, plans[1]).length).toBeGreaterThan(5);
    expect(planBatches(lens, plans[2]).length).toBe(1);
    expect(Math.max(...lens) - Math.min(...lens)).toBeGreaterThanOrEqual(6);
    for (const image of ['images/test-0100.png', 'images/test-0101.png', 'images/test-0102.png']) {
      const reference: Float32Array[] = [];
      for (const q of questions) reference.push(await plain(image, q));
      const img = await readImage(path.join(TEST, image));
      for (const plan of plans) {
        const batched = await m.questionLogits(img, questions, plan);
        batched.forEach((b, k) => expectSame(b, reference[k]!));
      }
    }
  });

  test('a repeated question gets the same answer in each place; one question alone is the plain answer', async () => {
    const q = 'Is there a red circle?' + SUFFIX;
    const r = 'Are there two small blue squares in the top left?' + SUFFIX;
    const img = await readImage(path.join(TEST, 'images/test-0007.png'));
    const out = await m.questionLogits(img, [q, r, q, q]);
    expectSame(out[0]!, await plain('images/test-0007.png', q));
    expectSame(out[1]!, await plain('images/test-0007.png', r));
    expect(out[2]).toEqual(out[0]);
    expect(out[3]).toEqual(out[0]);
    const [alone] = await m.questionLogits(img, [r]);
    expectSame(alone!, await plain('images/test-0007.png', r));
  });

  test('errors stay per question: a question too long for the context, one with an image token of its own', async () => {
    const img = await readImage(path.join(TEST, 'images/test-0003.png'));
    const ok = 'Is there a green star?' + SUFFIX;
    const long = 'Is there a ' + 'large '.repeat(160) + 'star?' + SUFFIX;
    const withImage = 'Is there a <image> star?' + SUFFIX;
    const out = await m.questionLogits(img, [long, ok, withImage]);
    expect((out[0] as Error).message).toMatch(/tokens with the image, the model's context is 160/);
    expect((out[2] as Error).message).toMatch(/Number of tokens and features do not match: tokens: 10, features 9/);
    expectSame(out[1]!, await plain('images/test-0003.png', ok));
    // The plain path fails on the same question with the same words.
    await expect(plain('images/test-0003.png', withImage)).rejects.toThrow(/Number of tokens and features do not match: tokens: 10, features 9/);
  });

  test('prompt ids are the processor\'s ids for every kind of question', async () => {
    const img = await readImage(path.join(TEST, 'images/test-0000.png'));
    const questions = [...new Set(testQuestions().map((q) => q.question))].slice(0, 200).map((q) => q + SUFFIX);
    questions.push('  Odd   spacing,\ttabs and a newline\nhere? ', 'Ünïcödé and emoji 🙂?', '');
    for (const q of questions) {
      const inputs = await m.inputs(img, q);
      expect([...m.promptIds(q, 9)]).toEqual(Array.from(inputs.input_ids!.data as BigInt64Array, Number));
    }
  });

  test("the worker's label task (the production path) gives the plain path's p_yes, p_no and top tokens, errors per question", async () => {
    const groups = byImage(6, 200);
    for (const g of groups) {
      const questions = g.questions.map((q) => q.slice(0, -SUFFIX.length));
      questions.push('Is there a ' + 'small '.repeat(160) + 'circle?');
      const res = (await runTask({ kind: 'label', model: LABELER, threads: 1, imagePath: path.join(TEST, g.image), questions, suffix: SUFFIX })) as LabelResult[];
      expect(res).toHaveLength(questions.length);
      expect(res.at(-1)).toMatchObject({ pYes: null, pNo: null, top: [], boundUsed: false, error: expect.stringMatching(/context is 160/) });
      for (const [k, q] of questions.slice(0, -1).entries()) {
        const r = yesNoFromLogits(await plain(g.image, q + SUFFIX), yesNo, (i) => m.tokenText(i), 5);
        const got = res[k]!;
        expect(got.error).toBeUndefined();
        expect(Math.abs(got.pYes! - r.pYes)).toBeLessThan(1e-4);
        expect(Math.abs(got.pNo! - r.pNo)).toBeLessThan(1e-4);
        expect(got.top.map((t) => t.token)).toEqual(r.top.map((t) => t.token));
        got.top.forEach((t, i) => expect(Math.abs(t.p - r.top[i]!.p)).toBeLessThan(1e-4));
        expect(got.boundUsed).toBe(false);
      }
    }
  });
});

describe('batch plan', () => {
  test('rows sorted by length, cut where a new run costs less than the padding it saves, within the token budget', () => {
    expect(planBatches([3, 10, 3, 11], { tokenBudget: 100, runCost: 4 })).toEqual([[0, 2], [1, 3]]);
    expect(planBatches([3, 10, 3, 11], { tokenBudget: 100, runCost: 1000 })).toEqual([[0, 2, 1, 3]]);
    expect(planBatches([5, 5, 5, 5], { tokenBudget: 10, runCost: 1 })).toEqual([[0, 1], [2, 3]]);
    expect(planBatches([50], { tokenBudget: 10, runCost: 0 })).toEqual([[0]]); // a long row runs alone
    expect(planBatches([5, 5, 5, 5, 5], { tokenBudget: 1000, runCost: 1000, maxRows: 2 })).toEqual([[0, 1], [2, 3], [4]]);
    expect(planBatches([], { tokenBudget: 10, runCost: 0 })).toEqual([]);
  });
});
