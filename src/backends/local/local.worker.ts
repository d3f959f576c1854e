// Piscina entry point: CPU work only (model inference, dividing). Never touches the store.
import type { LlavaModel, Sample } from './llava.js';
import { topIndices, yesNoFromLogits, yesNoTokenIds } from '../../feedback/yes-no.js';
import { divideRules } from '../../divide/rules.js';
import { cutWords } from '../../feedback/words.js';
import { claimSpan, locateSentences } from '../../feedback/claim-spans.js';
import type { Decoding, DivideOutput, GenerateResult, LabelResult, SequenceLogprob, SequenceScoreItem } from '../types.js';
import type { Turn } from '../../domain.js';

/** A task for a worker thread. */
export type WorkerTask =
  | { kind: 'generate'; model: string; threads: number; imagePath: string; question: string; history?: Turn[]; samples: { index: number; seed: number }[]; decoding: Decoding }
  | { kind: 'label'; model: string; threads: number; imagePath: string; questions: string[]; suffix: string }
  | { kind: 'labelImages'; model: string; threads: number; items: { imagePath: string; questions: string[] }[]; suffix: string }
  | { kind: 'answerLogprobs'; model: string; threads: number; items: SequenceScoreItem[] }
  | { kind: 'conversationLogprobs'; model: string; threads: number; imagePath: string; turns: Turn[]; addGenerationPrompt: boolean; template?: string; continueFinal?: boolean }
  | { kind: 'tokenize'; model: string; threads: number; imagePath?: string | null; turns?: Turn[]; text?: string; addGenerationPrompt?: boolean; template?: string; continueFinal?: boolean }
  | { kind: 'detokenize'; model: string; threads: number; ids: number[] }
  | { kind: 'tokenIds'; model: string; threads: number; tokens: string[] }
  | { kind: 'divide'; items: { question: string; answer: string }[]; maxWords: number | null }
  | { kind: 'info'; model: string; threads: number }
  | { kind: 'top'; model: string; threads: number; imagePath: string; text: string; k: number }
  | { kind: 'cached' };

/** What a thread holds ('cached' task): its models' folders and stamps (null: loaded without a lease), and its process's RSS. */
export interface CachedModels {
  models: { dir: string; stamp: string | null }[];
  rss: number;
}

/** The model folders a pool has leased now, each with its stamp (WorkerPool.run adds it to a task). */
export type Live = Record<string, string>;

/** An answer's log-probability, or why it has none (errors cross the thread boundary as text). */
export type LogprobResult = SequenceLogprob | { error: string };

/** A conversation's token ids and texts with each token's log-probability (null for the first), as a server lists them. */
export interface ConversationLogprobs {
  ids: number[];
  tokens: string[];
  logprobs: (number | null)[];
}

/** The first generated position's top tokens with log-probabilities (full-vocabulary log-softmax), as a server lists them. */
export interface TopResult {
  top: { token: string; logprob: number }[];
  promptTokens: number;
}

// Each thread loads a model once and keeps it while it is used. `stamp` is the folder's stamp when it was loaded under
// a pool's lease (null: loaded with no lease, kept for the thread's life).
const models = new Map<string, { stamp: string | null; model: Promise<LlavaModel> }>();
// The model code (transformers.js, onnxruntime, sharp), imported at the thread's first model task: a thread that only
// divides (the rules divider beside served models, `rlaifv claims`) never loads it.
let llava: Promise<typeof import('./llava.js')> | undefined;
const llavaModule = () => (llava ??= import('./llava.js'));
const readImage = async (file: string) => (await llavaModule()).readImage(file);
const yesNoIds = new Map<string, { yes: number[]; no: number[] }>();
// The leases of the task being run (piscina runs one task at a time per thread).
let live: Live | undefined;

function forget(dir: string): void {
  const e = models.get(dir);
  models.delete(dir);
  yesNoIds.delete(dir);
  // A model that failed to load has nothing to release.
  void e?.model.then((m) => m.dispose()).catch(() => {});
}

/**
 * Drops the models loaded under a lease that no lease holds any more, or whose folder changed since: a loop's old
 * checkpoints leave the thread's memory at the first task after their round ended. `keep` is the task's own model.
 */
function evict(keep: string | undefined): void {
  if (!live) return;
  for (const [dir, e] of models) {
    if (e.stamp !== null && live[dir] !== e.stamp && dir !== keep) forget(dir);
  }
}

function model(dir: string, threads: number): Promise<LlavaModel> {
  const want = live?.[dir] ?? null;
  let e = models.get(dir);
  // A folder leased with another stamp was written again since this thread loaded it.
  if (e && want !== null && e.stamp !== want) {
    forget(dir);
    e = undefined;
  }
  if (!e) {
    const m = llavaModule().then(({ LlavaModel }) => LlavaModel.load(dir, { threads }));
    e = { stamp: want, model: m };
    models.set(dir, e);
    m.catch(() => {
      if (models.get(dir)?.model === m) models.delete(dir);
    });
  }
  return e.model;
}

async function generate(t: Extract<WorkerTask, { kind: 'generate' }>): Promise<GenerateResult[]> {
  const m = await model(t.model, t.threads);
  const image = await readImage(t.imagePath);
  // Every sample of the prompt in one batch on one run of the prompt; each still equals its seed's one-row answer.
  let samples: Sample[];
  try {
    samples = await m.sampleMany(
      image,
      t.question,
      t.samples.map((s) => s.seed),
      {
        temperature: t.decoding.temperature,
        topP: t.decoding.top_p,
        maxNewTokens: t.decoding.max_new_tokens,
        ...(t.decoding.top_k !== undefined ? { topK: t.decoding.top_k } : {}),
        ...(t.decoding.min_p !== undefined ? { minP: t.decoding.min_p } : {}),
        ...(t.decoding.repetition_penalty !== undefined ? { repetitionPenalty: t.decoding.repetition_penalty } : {}),
      },
      t.history ?? [],
    );
  } catch (e) {
    return t.samples.map((s) => ({ index: s.index, seed: s.seed, error: (e as Error).message }));
  }
  return t.samples.map((s, k) => {
    const r = samples[k]!;
    return {
      index: s.index,
      seed: s.seed,
      text: r.text,
      finishReason: r.finishReason,
      promptTokens: r.promptTokens,
      completionTokens: r.tokenIds.length + (r.finishReason === 'stop' ? 1 : 0),
    };
  });
}

/** The labeler model of a task and its yes/no token ids. */
async function labeler(dir: string, threads: number): Promise<{ m: LlavaModel; yesNo: { yes: number[]; no: number[] } }> {
  const m = await model(dir, threads);
  let ids = yesNoIds.get(dir);
  if (!ids) yesNoIds.set(dir, (ids = yesNoTokenIds(m.vocabulary())));
  return { m, yesNo: ids };
}

function labelResult(m: LlavaModel, yesNo: { yes: number[]; no: number[] }, l: Float32Array | Error): LabelResult {
  if (l instanceof Error) return { pYes: null, pNo: null, top: [], boundUsed: false, error: l.message };
  const r = yesNoFromLogits(l, yesNo, (i) => m.tokenText(i), 5);
  return { pYes: r.pYes, pNo: r.pNo, top: r.top, boundUsed: false };
}

async function label(t: Extract<WorkerTask, { kind: 'label' }>): Promise<LabelResult[]> {
  const { m, yesNo } = await labeler(t.model, t.threads);
  const image = await readImage(t.imagePath);
  // The image is encoded once and its prompt prefix run once; the questions continue from it in batches.
  const logits = await m.questionLogits(image, t.questions.map((q) => q + t.suffix));
  return logits.map((l) => labelResult(m, yesNo, l));
}

async function labelImages(t: Extract<WorkerTask, { kind: 'labelImages' }>): Promise<LabelResult[][]> {
  const { m, yesNo } = await labeler(t.model, t.threads);
  // An image that cannot be read fails its own questions only.
  const images = await Promise.all(t.items.map((it) => readImage(it.imagePath).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))));
  const ok = t.items.flatMap((it, i) => {
    const image = images[i]!;
    return image instanceof Error ? [] : [{ image, questions: it.questions.map((q) => q + t.suffix) }];
  });
  // All images through the encoder at once, their shared prompt prefix run once as rows of one batch, and every
  // question continuing from its own image's row, batched across images.
  const logits = await m.imagesQuestionLogits(ok);
  let k = 0;
  return t.items.map((it, i) => {
    const image = images[i]!;
    if (image instanceof Error) return it.questions.map(() => labelResult(m, yesNo, image));
    return logits[k++]!.map((l) => labelResult(m, yesNo, l));
  });
}

async function top(t: Extract<WorkerTask, { kind: 'top' }>): Promise<TopResult> {
  const m = await model(t.model, t.threads);
  const image = await readImage(t.imagePath);
  const inputs = await m.inputs(image, t.text);
  const logits = await m.firstTokenLogits(image, t.text);
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  const logZ = max + Math.log(sum);
  const top = topIndices(logits, Math.min(t.k, logits.length)).map((i) => ({ token: m.tokenText(i), logprob: logits[i]! - logZ }));
  return { top, promptTokens: inputs.input_ids!.dims[1]! };
}

async function answerLogprobs(t: Extract<WorkerTask, { kind: 'answerLogprobs' }>): Promise<LogprobResult[][]> {
  const m = await model(t.model, t.threads);
  // An image that cannot be read fails its own answers only.
  const images = await Promise.all(t.items.map((it) => readImage(it.imagePath).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))));
  const ok = t.items.flatMap((it, i) => {
    const image = images[i]!;
    return image instanceof Error ? [] : [{ image, question: it.question, history: it.history ?? [], answers: it.answers }];
  });
  // All images through the encoder at once, each prompt run once, every answer continuing from its prompt's cache.
  const scored = await m.imagesAnswerLogprobs(ok);
  let k = 0;
  return t.items.map((it, i) => {
    const image = images[i]!;
    const row = image instanceof Error ? it.answers.map(() => image) : scored[k++]!;
    return row.map((r) => (r instanceof Error ? { error: r.message } : r));
  });
}

/** Another chat template and continue_final_message, as a task asks (the test server's mimic of a real model). */
function renderOptions(t: { template?: string; continueFinal?: boolean }) {
  return { ...(t.template ? { template: t.template } : {}), ...(t.continueFinal ? { continueFinal: true } : {}) };
}

async function conversationLogprobs(t: Extract<WorkerTask, { kind: 'conversationLogprobs' }>): Promise<ConversationLogprobs> {
  const m = await model(t.model, t.threads);
  const r = await m.conversationLogprobs(await readImage(t.imagePath), t.turns, t.addGenerationPrompt, renderOptions(t));
  return { ...r, tokens: r.ids.map((id) => m.tokenText(id)) };
}

/** Token ids and texts of a conversation (its image expanded when given) or of a text, as a server's /tokenize. */
async function tokenize(t: Extract<WorkerTask, { kind: 'tokenize' }>): Promise<{ ids: number[]; tokens: string[] }> {
  const m = await model(t.model, t.threads);
  const ids =
    t.turns !== undefined
      ? await m.tokenize({ turns: t.turns, addGenerationPrompt: t.addGenerationPrompt ?? false, image: t.imagePath ? await readImage(t.imagePath) : null }, renderOptions(t))
      : await m.tokenize({ text: t.text ?? '' });
  return { ids, tokens: ids.map((id) => m.tokenText(id)) };
}

function divide(t: Extract<WorkerTask, { kind: 'divide' }>): DivideOutput[] {
  return t.items.map(({ question, answer }) => {
    // A prefix of the answer, so the claims' offsets index the answer itself.
    const { text, truncated } = cutWords(answer, t.maxWords);
    const r = divideRules(text, { question });
    const located = locateSentences(text, r.claims.map((c) => c.sentence));
    const claims = r.claims.map((c, i) => {
      const span = claimSpan(c, located[i] ?? null, text.length);
      return { sentence: c.sentence, claim: c.claim, question: c.question, start: span?.start ?? null, end: span?.end ?? null };
    });
    return { claims, skipped: r.skipped, truncated };
  });
}

/** Runs one task (with the pool's leases when it has any). */
export default async function run(t: WorkerTask & { live?: Live }): Promise<unknown> {
  live = t.live;
  evict('model' in t ? t.model : undefined);
  switch (t.kind) {
    case 'cached':
      // What this thread holds (tests and memory checks): each cached model's folder and stamp, and the RSS.
      return { models: [...models].map(([dir, e]) => ({ dir, stamp: e.stamp })), rss: process.memoryUsage().rss } satisfies CachedModels;
    case 'generate':
      return generate(t);
    case 'label':
      return label(t);
    case 'labelImages':
      return labelImages(t);
    case 'answerLogprobs':
      return answerLogprobs(t);
    case 'conversationLogprobs':
      return conversationLogprobs(t);
    case 'tokenize':
      return tokenize(t);
    case 'detokenize': {
      const m = await model(t.model, t.threads);
      return { text: t.ids.map((id) => m.tokenText(id)).join('') };
    }
    case 'tokenIds': {
      // The ids of token texts as the vocabulary has them (-1 for a text that is no token).
      const m = await model(t.model, t.threads);
      const ids = new Map(m.vocabulary());
      return { ids: t.tokens.map((x) => ids.get(x) ?? -1) };
    }
    case 'divide':
      return divide(t);
    case 'top':
      return top(t);
    case 'info': {
      const m = await model(t.model, t.threads);
      return m.info;
    }
  }
}
