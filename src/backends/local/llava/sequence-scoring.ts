// Teacher-forced log-probabilities of whole answers and conversations (the DPO reference and a server's prompt
// log-probs): each prompt is run once and answers continue from its cache in batches, rows of all prompts side by side.
import type { RawImage } from '@huggingface/transformers';
import type { Turn } from '../../../domain.js';
import type { SequenceLogprob } from '../../types.js';
import { continuationTokenLogprobs, DEFAULT_PLAN, type BatchPlanOptions, type ContinuationRow, type PrefixRow } from '../batched.js';
import type { LlavaParts } from './parts.js';
import type { RenderOptions } from './processing.js';

/** One image, a conversation ending with a user turn, and answers to that turn whose log-probabilities are wanted. */
export interface ImageAnswers {
  image: RawImage;
  question: string;
  history?: readonly Turn[];
  answers: readonly string[];
}

/** LlavaModel.imagesAnswerLogprobs: each answer's summed token log-probability, errors kept per answer. */
export async function imagesAnswerLogprobs(m: LlavaParts, items: readonly ImageAnswers[], plan: BatchPlanOptions = DEFAULT_PLAN): Promise<(SequenceLogprob | Error)[][]> {
  const encs = await m.encoder.encodeImages(items.map((it) => it.image));
  const out: (SequenceLogprob | Error)[][] = items.map((it) => it.answers.map(() => new Error('not scored')));
  // Rows by prompt length: their positions agree, so rows of different prompts share decoder runs.
  const groups = new Map<number, { item: number; answers: number[]; row: ContinuationRow }[]>();
  for (const [i, it] of items.entries()) {
    const enc = encs[i]!;
    const fail = (e: unknown) => (out[i] = it.answers.map(() => (e instanceof Error ? e : new Error(String(e)))));
    if (enc instanceof Error) {
      fail(enc);
      continue;
    }
    const ids = m.text.promptIds(it.question, enc.imageTokens, it.history ?? []);
    const bad = m.prefixes.promptProblem(ids, enc.features);
    if (bad) {
      fail(bad);
      continue;
    }
    let prefix: PrefixRow;
    try {
      const prompt = await m.prefixes.runPrompt(ids, enc.features);
      prefix = { cache: prompt.cache, row: 0, lastLogits: prompt.lastLogits };
    } catch (e) {
      fail(e);
      continue;
    }
    const byText = new Map<string, number[]>();
    it.answers.forEach((a, j) => {
      const same = byText.get(a);
      if (same) same.push(j);
      else byText.set(a, [j]);
    });
    for (const [text, js] of byText) {
      const a = m.text.answerIds(text);
      const problem = a.includes(m.info.imageTokenIndex)
        ? new Error('an answer may not hold the image token')
        : // The last token is never fed, so a row may be one token longer than the context.
          ids.length + a.length > m.info.maxPositions + 1
          ? new Error(`prompt and answer are ${ids.length + a.length} tokens, the model's context is ${m.info.maxPositions}`)
          : null;
      if (problem) {
        for (const j of js) out[i]![j] = problem;
        continue;
      }
      let g = groups.get(ids.length);
      if (!g) groups.set(ids.length, (g = []));
      g.push({ item: i, answers: js, row: { ids: [...ids, ...a], features: enc.features, prefix } });
    }
  }
  for (const [p, rows] of groups) {
    const lps = await continuationTokenLogprobs(m.graphs, p, rows.map((r) => r.row), rows.map(() => p), plan);
    rows.forEach((r, k) => {
      const lp = lps[k]!;
      let sum = 0;
      for (const v of lp) sum += v;
      for (const j of r.answers) out[r.item]![j] = { sum, tokens: lp.length, perToken: Array.from(lp) };
    });
  }
  return out;
}

/** LlavaModel.conversationLogprobs: a conversation's token ids and each token's log-probability, in one plain run. */
export async function conversationLogprobs(m: LlavaParts, image: RawImage, turns: readonly Turn[], addGenerationPrompt: boolean, opts: RenderOptions = {}): Promise<{ ids: number[]; logprobs: (number | null)[] }> {
  if (turns[0]?.role !== 'user') throw new Error('a conversation starts with a user turn');
  const enc = await m.encoder.encodeImage(image);
  const ids = m.text.idsOf(m.text.render(turns, addGenerationPrompt, opts), enc.imageTokens);
  const bad = m.prefixes.promptProblem(ids, enc.features);
  if (bad) throw bad;
  const [lp] = await continuationTokenLogprobs(m.graphs, 0, [{ ids, features: enc.features, prefix: { cache: null, row: 0, lastLogits: null } }], [1]);
  return { ids, logprobs: [null, ...lp!] };
}
