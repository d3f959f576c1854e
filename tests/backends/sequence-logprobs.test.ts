// Teacher-forced answer log-probabilities on the real tiny policy: the same numbers scripts/shapes/dpo.py computes for
// DPO (its own functions, on the same ONNX weights loaded back into PyTorch), batched equal to one by one, and an
// answer the model would never give below its own greedy answer.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import runTask, { type LogprobResult } from '../../src/backends/local/local.worker.js';
import { LocalSequenceScorer } from '../../src/backends/local/index.js';
import { WorkerPool } from '../../src/backends/local/pool.js';
import type { SequenceLogprob } from '../../src/backends/types.js';
import type { Turn } from '../../src/domain.js';
import { POLICY, ROOT, TEST } from '../helpers/paths.js';
import { pythonSync } from '../helpers/python.js';

interface Row {
  id: string;
  image: string;
  question: string;
  history?: Turn[];
}
const read = (file: string): Row[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row)
    .map((r) => ({ ...r, image: path.join(path.dirname(file), r.image) }));
const test5 = read(path.join(TEST, 'prompts.jsonl')).slice(0, 5);
const multiturn = read(path.join(ROOT, 'data', 'shapes', 'multiturn', 'prompts.jsonl')).slice(0, 2);

type Item = { image: string; question: string; history: Turn[]; answers: string[] };

/** The reference: dpo.py's functions in Python on the folder's weights (tests/helpers/dpo-logps.py). */
function dpoReference(items: Item[]): SequenceLogprob[][] {
  const out = pythonSync([path.join(ROOT, 'tests', 'helpers', 'dpo-logps.py')], { input: JSON.stringify({ model: POLICY, items }) });
  return JSON.parse(out) as SequenceLogprob[][];
}

const close = (a: number, b: number, rel: number) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));

describe('answer log-probabilities (local)', () => {
  let m: LlavaModel;
  let items: Item[];
  beforeAll(async () => {
    m = await LlavaModel.load(POLICY, { threads: 1 });
    // Each prompt's own sampled answers, a greedy one, a made-up one, a repeat and the empty answer.
    items = [];
    for (const p of [...test5, ...multiturn]) {
      const image = await readImage(p.image);
      const history = p.history ?? [];
      const sampled = await m.sampleMany(image, p.question, [11, 12, 13], { temperature: 0.7, topP: 1, maxNewTokens: 64 }, history);
      const answers = [...sampled.map((s) => s.text), 'There is a purple star in the top left.', sampled[0]!.text, ''];
      items.push({ image: p.image, question: p.question, history, answers });
    }
  });
  afterAll(() => m?.dispose());

  test('equal to what dpo.py computes for DPO (answer tokens and </s>), single- and multi-turn', async () => {
    const ref = dpoReference(items);
    for (const [i, it] of items.entries()) {
      const got = await m.answerLogprobs(await readImage(it.image), it.question, it.history, it.answers);
      got.forEach((g, j) => {
        expect(g).not.toBeInstanceOf(Error);
        const want = ref[i]![j]!;
        const lp = g as SequenceLogprob;
        expect(lp.tokens).toBe(want.tokens);
        expect(close(lp.sum, want.sum, 1e-3), `${it.question} / ${JSON.stringify(it.answers[j])}: ${lp.sum} vs ${want.sum}`).toBe(true);
      });
      // The empty answer is its end-of-sequence token alone.
      expect((got.at(-1) as SequenceLogprob).tokens).toBe(1);
    }
  });

  test('batched across prompts equals one answer at a time', async () => {
    const images = await Promise.all(items.map((it) => readImage(it.image)));
    const batched = await m.imagesAnswerLogprobs(items.map((it, i) => ({ image: images[i]!, question: it.question, history: it.history, answers: it.answers })));
    for (const [i, it] of items.entries()) {
      for (const [j, a] of it.answers.entries()) {
        const [one] = await m.answerLogprobs(images[i]!, it.question, it.history, [a]);
        const b = batched[i]![j] as SequenceLogprob;
        expect(b.tokens).toBe((one as SequenceLogprob).tokens);
        expect(close(b.sum, (one as SequenceLogprob).sum, 1e-5)).toBe(true);
      }
      // A repeated answer gets its first occurrence's numbers.
      expect(batched[i]![4]).toEqual(batched[i]![0]);
    }
  });

  test("an answer the model would never give scores below its own greedy answer", async () => {
    for (const p of test5) {
      const image = await readImage(p.image);
      const [greedy] = await m.sampleMany(image, p.question, [0], { temperature: 0, topP: 1, maxNewTokens: 64 });
      const never = 'Yes no yes the the circle circle purple.';
      const [g, n] = (await m.answerLogprobs(image, p.question, [], [greedy!.text, never])) as SequenceLogprob[];
      expect(n!.sum).toBeLessThan(g!.sum - 10);
    }
  });

  test('the worker op: per-answer and per-image failures are values, the rest is scored', async () => {
    const long = 'There is a red circle. '.repeat(40);
    const out = (await runTask({
      kind: 'answerLogprobs',
      model: POLICY,
      threads: 1,
      items: [
        { imagePath: test5[0]!.image, question: test5[0]!.question, answers: ['There is a red circle.', long] },
        { imagePath: path.join(ROOT, 'no-such-image.png'), question: 'Where is the star?', answers: ['x', 'y'] },
        { imagePath: test5[1]!.image, question: test5[1]!.question, answers: [items[1]!.answers[0]!] },
      ],
    })) as LogprobResult[][];
    expect(out[0]![0]).toMatchObject({ tokens: 7, sum: expect.any(Number) }); // 6 words and </s>
    expect(out[0]![1]).toEqual({ error: expect.stringMatching(/tokens, the model's context is 160/) });
    expect(out[1]).toEqual([{ error: expect.stringMatching(/no-such-image\.png/) }, { error: expect.stringMatching(/no-such-image\.png/) }]);
    const [direct] = await m.answerLogprobs(await readImage(test5[1]!.image), test5[1]!.question, [], [items[1]!.answers[0]!]);
    expect(close((out[2]![0] as SequenceLogprob).sum, (direct as SequenceLogprob).sum, 1e-5)).toBe(true);
  });

  test('LocalSequenceScorer on a two-worker pool: prompts shared out among the workers, results in order', async () => {
    const pool = new WorkerPool(2);
    try {
      const scorer = new LocalSequenceScorer(pool, POLICY);
      const got = await scorer.logprobs(items.map((it) => ({ imagePath: it.image, question: it.question, history: it.history, answers: it.answers })));
      const images = await Promise.all(items.map((it) => readImage(it.image)));
      const direct = await m.imagesAnswerLogprobs(items.map((it, i) => ({ image: images[i]!, question: it.question, history: it.history, answers: it.answers })));
      expect(got.map((row) => row.length)).toEqual(items.map((it) => it.answers.length));
      got.forEach((row, i) => row.forEach((r, j) => expect(close((r as SequenceLogprob).sum, (direct[i]![j] as SequenceLogprob).sum, 1e-5)).toBe(true)));
      expect(await scorer.logprobs([])).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  test('a whole conversation through the chat template: the answer tokens carry the same log-probs', async () => {
    const it = items[0]!;
    const image = await readImage(it.image);
    const answer = it.answers[0]!;
    const conv = await m.conversationLogprobs(image, [...it.history, { role: 'user', content: it.question }, { role: 'assistant', content: answer }], false);
    const [direct] = (await m.answerLogprobs(image, it.question, it.history, [answer])) as SequenceLogprob[];
    const prompt = m.promptIds(it.question, (await m.encodeImage(image)).imageTokens, it.history);
    expect(conv.ids.slice(0, prompt.length)).toEqual([...prompt]);
    expect(conv.ids.slice(prompt.length)).toEqual(m.answerIds(answer));
    const sum = (conv.logprobs.slice(prompt.length) as number[]).reduce((a, b) => a + b, 0);
    expect(close(sum, direct!.sum, 1e-4)).toBe(true);
    expect(conv.logprobs[0]).toBeNull();
  });
});
