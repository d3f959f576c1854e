// One LLaVA-layout model folder run in-process through transformers.js (onnxruntime-node underneath).
//
// Two ways to run it: the plain path (`firstTokenLogits`, `sample`: one transformers.js forward over image and prompt,
// as a per-question script would) and the batched path rlaifv uses (`questionLogits`, `sampleMany`): the image is
// encoded once, the prompt prefix it shares with its other prompts is run once, and the questions or samples continue
// from that prefix's key/value cache in batches. `imagesQuestionLogits` does the same for several images at once,
// batched across them (one encoder run, one prefix run with a row per image, continuations of different images side
// by side). All give the same numbers (tests/backends/batched*.test.ts).
import { readFileSync } from 'node:fs';
import {
  AutoProcessor,
  ImageProcessor,
  LlavaForConditionalGeneration,
  RawImage,
  Tensor,
  env,
} from '@huggingface/transformers';
import { inspectLlavaFolder, type LlavaFolderInfo } from './model-folder.js';
import { decodePlainPng } from '../../image/png.js';
import type { SequenceLogprob } from '../types.js';
import type { Turn } from '../../domain.js';

export { decodePlainPng };
import { sampleToken, seededRng, type SamplingSettings } from './sampling.js';
import { LlavaGraphs, type ImageFeatures } from './graphs.js';
import {
  commonPrefixLength,
  continuationLogitsAcross,
  continuationTokenLogprobs,
  countImageTokens,
  DEFAULT_PLAN,
  EMPTY_PREFIX,
  extendPrefix,
  extendPrefixRows,
  rowsWithinCacheBudget,
  sampleRows,
  type BatchPlanOptions,
  type ContinuationRow,
  type PrefixRow,
  type SampledIds,
  type SharedPrefix,
} from './batched.js';

// Models come from folders on disk only; rlaifv never downloads weights at run time.
env.allowRemoteModels = false;
env.allowLocalModels = true;

/** Options for loading a local model. */
export interface LoadOptions {
  /** onnxruntime intra-op threads for this model's sessions (workers × threads should not exceed cores). */
  threads?: number;
}

/** How a sampled answer ended, in OpenAI's words. */
export type FinishReason = 'stop' | 'length';

/** One sampled answer with its provenance. */
export interface Sample {
  text: string;
  tokenIds: number[];
  promptTokens: number;
  finishReason: FinishReason;
}

/** An image encoded once: how many image tokens its prompts hold, and the features those tokens are replaced by. */
export interface EncodedImage {
  imageTokens: number;
  features: ImageFeatures;
}

type Feeds = Record<string, Tensor>;

// Bounds of the per-model memo tables (prompt ids by question, image-independent prefixes).
const MAX_PROMPT_IDS = 16_384;
const MAX_FIXED_PREFIXES = 64;
/** Most images, and most floats of pixel values (64 MB), in one image-encoder run. */
const MAX_IMAGES_PER_ENCODE = 16;
const MAX_PIXEL_FLOATS = 16 * 1024 * 1024;

/** One image and the questions asked about it. */
export interface ImageQuestions {
  image: RawImage;
  questions: readonly string[];
}

/** One image, a conversation ending with a user turn, and answers to that turn whose log-probabilities are wanted. */
export interface ImageAnswers {
  image: RawImage;
  question: string;
  history?: readonly Turn[];
  answers: readonly string[];
}

/** A loaded LLaVA model: its processor (image processor, tokenizer, chat template) and its three ONNX sessions. */
export class LlavaModel {
  /** The same sessions driven directly, for the batched paths. */
  readonly graphs: LlavaGraphs;
  private readonly texts = new Map<number, string>();
  private readonly promptIdsMemo = new Map<string, number[]>();
  private readonly fixedPrefixes = new Map<string, Promise<SharedPrefix>>();
  /** The chat template around the question, when it inserts the question verbatim (checked once). */
  private templateParts: { before: string; after: string } | null | undefined;
  /** When the image processor only converts to RGB, rescales and normalises: its output per byte and channel. */
  private readonly pixelTable: Float32Array | null;
  /** The one image size the processor's resize and crop leave as it is (null: it neither resizes nor crops). */
  private readonly plainSize: [number, number] | null;
  /** Set when the image encoder refused a batch of several images. */
  private singleImageEncoder = false;

  private constructor(
    readonly info: LlavaFolderInfo,
    private readonly processor: any,
    private readonly model: any,
  ) {
    const s = model.sessions;
    this.graphs = new LlavaGraphs(info, { vision: s.vision_encoder, embed: s.embed_tokens, decoder: s.decoder_model_merged });
    this.pixelTable = isPlainPixelProcessor(processor.image_processor) ? plainPixelTable(processor.image_processor) : null;
    this.plainSize = this.pixelTable ? identitySize(processor.image_processor) : null;
  }

  /** Opens a model folder offline; throws naming the folder and the file when something is missing. */
  static async load(dir: string, opts: LoadOptions = {}): Promise<LlavaModel> {
    const info = inspectLlavaFolder(dir);
    const session_options = opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {};
    try {
      const processor = await AutoProcessor.from_pretrained(info.dir, { local_files_only: true });
      const model = await LlavaForConditionalGeneration.from_pretrained(info.dir, {
        dtype: 'fp32',
        device: 'cpu',
        local_files_only: true,
        session_options,
      });
      return new LlavaModel(info, processor, model);
    } catch (e) {
      throw new Error(`Could not load model folder ${dir}: ${(e as Error).message}`);
    }
  }

  /** The model's vocabulary as (token text, id) pairs. */
  vocabulary(): [string, number][] {
    const v = this.processor.tokenizer.get_vocab();
    return v instanceof Map ? [...v.entries()] : Object.entries(v as Record<string, number>);
  }

  /** The text of one token id (decoded once per id). */
  tokenText(id: number): string {
    let t = this.texts.get(id);
    if (t === undefined) this.texts.set(id, (t = this.processor.tokenizer.decode([id], { skip_special_tokens: false }) as string));
    return t;
  }

  /**
   * The chat-template prompt for a conversation ending with a user turn, ending where the assistant starts: the
   * earlier turns (`history`) first, the image in the first user turn.
   */
  prompt(question: string, history: readonly Turn[] = []): string {
    return this.render([...history, { role: 'user', content: question }], true);
  }

  /**
   * A conversation (first turn the user's, holding the image) through the chat template: the model's own, or another
   * one (`opts.template`, given every message as a list of parts as vLLM gives such templates). `continueFinal` ends
   * the text right after the last message's content, as transformers' continue_final_message does.
   */
  private render(turns: readonly Turn[], addGenerationPrompt: boolean, opts: RenderOptions = {}): string {
    const messages = turns.map((t, i) =>
      i === 0
        ? { role: 'user', content: [{ type: 'image' }, { type: 'text', text: t.content }] }
        : opts.template
          ? { role: t.role, content: [{ type: 'text', text: t.content }] }
          : { role: t.role, content: t.content },
    );
    const text: string = this.processor.apply_chat_template(messages, {
      add_generation_prompt: addGenerationPrompt,
      tokenize: false,
      ...(opts.template ? { chat_template: opts.template } : {}),
    });
    if (!opts.continueFinal) return text;
    const last = turns.at(-1)!.content;
    const at = text.lastIndexOf(last);
    if (at < 0) throw new Error('continue_final_message: the last message is not in the rendered conversation');
    return text.slice(0, at + last.length);
  }

  /**
   * A conversation's token ids as a server tokenizes it: its image token expanded to the image's tokens when an image
   * is given, else left as one token; or a text's ids (no template).
   */
  async tokenize(what: { turns: readonly Turn[]; addGenerationPrompt: boolean; image: RawImage | null } | { text: string }, opts: RenderOptions = {}): Promise<number[]> {
    if ('text' in what) return this.processor.tokenizer.encode(what.text) as number[];
    const imageTokens = what.image ? (await this.encodeImage(what.image)).imageTokens : 1;
    return this.idsOf(this.render(what.turns, what.addGenerationPrompt, opts), imageTokens);
  }

  /** Token ids of a templated text, its image token expanded to `imageTokens` as LlavaProcessor does. */
  private idsOf(text: string, imageTokens: number): number[] {
    const tok = this.processor.config.image_token as string;
    return this.processor.tokenizer.encode(text.replace(tok, tok.repeat(imageTokens))) as number[];
  }

  /** Processor outputs (input_ids, attention_mask, pixel_values) for one image and question. */
  async inputs(image: RawImage, question: string, history: readonly Turn[] = []): Promise<Feeds> {
    return await this.processor(image, this.prompt(question, history));
  }

  /** Logits of the first generated position: one full forward over image and prompt (the plain path). */
  async firstTokenLogits(image: RawImage, question: string): Promise<Float32Array> {
    const out = await this.model.forward(await this.inputs(image, question));
    return lastRow(out.logits);
  }

  /** Pixel values [1, 3, h, w] of one image, as the image processor makes them. */
  async pixelValues(image: RawImage): Promise<{ data: Float32Array; dims: number[] }> {
    // Images already at the model's size skip resize and crop exactly as the processor does (it returns them as they
    // are), so the table gives its output; any other size is resized by the processor itself.
    if (this.pixelTable && (this.plainSize === null || (image.width === this.plainSize[0] && image.height === this.plainSize[1]))) {
      return plainPixelValues(this.pixelTable, image);
    }
    const { pixel_values } = await this.processor.image_processor(image);
    return { data: pixel_values.data as Float32Array, dims: pixel_values.dims as number[] };
  }

  /** Preprocesses and encodes one image (the image encoder runs once, whatever the number of prompts). */
  async encodeImage(image: RawImage): Promise<EncodedImage> {
    const [enc] = await this.encodeImages([image]);
    if (enc instanceof Error) throw enc;
    return enc!;
  }

  /**
   * Preprocesses and encodes several images: images of one pixel size go through the image encoder together, in one
   * run, each getting what {@link encodeImage} gives it. An image the encoder refuses gets the Error in its place (the
   * others of its size are then run one at a time); a graph that takes one image at a time gets one run per image.
   */
  async encodeImages(images: readonly RawImage[]): Promise<(EncodedImage | Error)[]> {
    const pxs = await Promise.all(images.map((im) => this.pixelValues(im)));
    const { patch_size, num_additional_image_tokens } = this.processor.config;
    const out = new Array<EncodedImage | Error>(images.length);
    const bySize = new Map<string, number[]>();
    pxs.forEach((px, i) => {
      const key = px.dims.join('x');
      const list = bySize.get(key);
      if (list) list.push(i);
      else bySize.set(key, [i]);
    });
    for (const list of bySize.values()) {
      const dims = pxs[list[0]!]!.dims;
      const [height, width] = dims.slice(-2) as [number, number];
      // As LlavaProcessor counts them: one token per patch, plus any extra ones.
      const imageTokens = Math.floor(height / patch_size) * Math.floor(width / patch_size) + (num_additional_image_tokens ?? 0);
      const per = pxs[list[0]!]!.data.length;
      const chunk = Math.max(1, Math.min(MAX_IMAGES_PER_ENCODE, Math.floor(MAX_PIXEL_FLOATS / per)));
      for (let at = 0; at < list.length; at += chunk) {
        const part = list.slice(at, at + chunk);
        const feats = await this.encodePixels(part.map((i) => pxs[i]!.data), dims);
        part.forEach((i, k) => {
          const f = feats[k]!;
          out[i] = f instanceof Error ? f : { imageTokens, features: f };
        });
      }
    }
    return out;
  }

  /**
   * Features of images of one size ([1, 3, h, w] each): one encoder run for all; when that run fails, one run each
   * (an image the encoder refuses gets its Error; if none is refused, the graph takes one image at a time).
   */
  private async encodePixels(pixels: Float32Array[], dims: readonly number[]): Promise<(ImageFeatures | Error)[]> {
    if (pixels.length > 1 && !this.singleImageEncoder) {
      const per = pixels[0]!.length;
      const all = new Float32Array(per * pixels.length);
      pixels.forEach((p, i) => all.set(p, i * per));
      try {
        return await this.graphs.encodeImages(all, [pixels.length, ...dims.slice(1)]);
      } catch {
        // One run each below.
      }
    }
    const out: (ImageFeatures | Error)[] = [];
    for (const p of pixels) out.push(await this.graphs.encodeImage(p, dims).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))));
    if (pixels.length > 1 && out.every((f) => !(f instanceof Error))) this.singleImageEncoder = true;
    return out;
  }

  /**
   * Token ids of the full prompt for one question, the image token expanded as LlavaProcessor does (the same ids as
   * {@link inputs}); remembered per question. The returned array is shared: do not change it.
   */
  promptIds(question: string, imageTokens: number, history: readonly Turn[] = []): readonly number[] {
    const key = `${imageTokens}\u0000${question}${history.length ? `\u0000${JSON.stringify(history)}` : ''}`;
    let ids = this.promptIdsMemo.get(key);
    if (!ids) {
      ids = this.idsOf(this.templated(question, history), imageTokens);
      if (this.promptIdsMemo.size >= MAX_PROMPT_IDS) this.promptIdsMemo.delete(this.promptIdsMemo.keys().next().value!);
      this.promptIdsMemo.set(key, ids);
    }
    return ids;
  }

  /**
   * Logits of the first generated position for each question about one image, equal (within float noise) to
   * {@link firstTokenLogits} per question: the image is encoded once, the prefix the prompts share (chat template and
   * image tokens) is run once, and the questions continue from its cache in batches of similar length. A question
   * that cannot be run (too long for the context, or holding image tokens of its own) gets an Error in its place.
   */
  async questionLogits(image: RawImage, questions: readonly string[], plan: BatchPlanOptions = DEFAULT_PLAN): Promise<(Float32Array | Error)[]> {
    return (await this.imagesQuestionLogits([{ image, questions }], plan))[0]!;
  }

  /**
   * {@link questionLogits} for several images at once, batched across them: the images go through the image encoder
   * together, the prompt prefix they share (chat template and image tokens, the same ids for images with as many image
   * tokens) is run once for all of them as rows of one batch, and the questions of all the images continue from their
   * own image's row of that run in batches of similar length, rows of different images side by side. Each row's
   * logits are what a run of its image and question alone gives; errors stay per question.
   */
  async imagesQuestionLogits(items: readonly ImageQuestions[], plan: BatchPlanOptions = DEFAULT_PLAN): Promise<(Float32Array | Error)[][]> {
    const encs = await this.encodeImages(items.map((it) => it.image));
    // Per image, one row per distinct question; rows that can run, by image-token count (their prefix ids agree).
    const results: (Float32Array | Error)[][] = [];
    const rowOf: Map<string, number>[] = [];
    const groups = new Map<number, { item: number; row: number; ids: readonly number[] }[]>();
    items.forEach((it, i) => {
      const enc = encs[i]!;
      const rows = new Map<string, number>();
      const res: (Float32Array | Error)[] = [];
      for (const q of it.questions) {
        if (rows.has(q)) continue;
        const row = res.length;
        rows.set(q, row);
        if (enc instanceof Error) {
          res.push(enc);
          continue;
        }
        const ids = this.promptIds(q, enc.imageTokens);
        const bad = this.promptProblem(ids, enc.features);
        res.push(bad ?? new Float32Array(0));
        if (bad) continue;
        let g = groups.get(enc.imageTokens);
        if (!g) groups.set(enc.imageTokens, (g = []));
        g.push({ item: i, row, ids });
      }
      results.push(res);
      rowOf.push(rows);
    });
    const features = (i: number) => (encs[i] as EncodedImage).features;
    for (const rows of groups.values()) {
      const prefixIds = rows[0]!.ids.slice(0, commonPrefixLength(rows.map((r) => r.ids)));
      const images = [...new Set(rows.map((r) => r.item))];
      const img = prefixIds.indexOf(this.info.imageTokenIndex);
      const head = await this.fixedPrefix(img < 0 ? prefixIds : prefixIds.slice(0, img));
      const prefixRows = await extendPrefixRows(this.graphs, head, prefixIds, images.map(features));
      const prefixOf = new Map(images.map((i, k) => [i, prefixRows[k]!]));
      const conts: ContinuationRow[] = rows.map((r) => ({ ids: r.ids, features: features(r.item), prefix: prefixOf.get(r.item)! }));
      const logits = await continuationLogitsAcross(this.graphs, prefixIds.length, conts, plan);
      rows.forEach((r, k) => (results[r.item]![r.row] = logits[k]!));
    }
    return items.map((it, i) => it.questions.map((q) => results[i]![rowOf[i]!.get(q)!]!));
  }

  /**
   * Samples one answer per seed for one prompt: the image is encoded once, the prompt is run once, and all seeds
   * continue from its cache in one batch. Each answer equals what {@link sample} gives for its seed.
   */
  async sampleMany(
    image: RawImage,
    question: string,
    seeds: readonly number[],
    s: SamplingSettings & { maxNewTokens: number },
    history: readonly Turn[] = [],
  ): Promise<Sample[]> {
    const enc = await this.encodeImage(image);
    const ids = this.promptIds(question, enc.imageTokens, history);
    const promptTokens = ids.length;
    const budget = Math.min(s.maxNewTokens, this.info.maxPositions - promptTokens);
    if (budget <= 0) throw new Error(`prompt is ${promptTokens} tokens, the model's context is ${this.info.maxPositions}`);
    const bad = this.promptProblem(ids, enc.features);
    if (bad) throw bad;
    if (seeds.length === 0) return [];
    const prompt = await this.runPrompt(ids, enc.features);
    let rows: SampledIds[];
    if (s.temperature <= 0 || s.topK === 1) {
      // Greedy: the seed is never drawn from, so every seed gives the first one's answer.
      const [one] = await sampleRows(this.graphs, prompt, seeds.slice(0, 1), s, budget);
      rows = seeds.map(() => ({ tokenIds: [...one!.tokenIds], finishReason: one!.finishReason }));
    } else {
      // As many rows at once as the cache budget allows at the longest answer (all of them for small models).
      const per = rowsWithinCacheBudget(this.graphs, promptTokens + budget);
      rows = [];
      for (let i = 0; i < seeds.length; i += per) rows.push(...(await sampleRows(this.graphs, prompt, seeds.slice(i, i + per), s, budget)));
    }
    return rows.map((r) => ({ text: this.decode(r.tokenIds), tokenIds: r.tokenIds, promptTokens, finishReason: r.finishReason }));
  }

  /** Samples one answer; the RNG is the sample's own, so concurrent samples stay reproducible from their seeds. */
  async sample(
    image: RawImage,
    question: string,
    s: SamplingSettings & { seed: number; maxNewTokens: number },
    history: readonly Turn[] = [],
  ): Promise<Sample> {
    const rng = seededRng(s.seed);
    const inputs = await this.inputs(image, question, history);
    const promptTokens = inputs.input_ids!.dims[1]!;
    // Never past the decoder's context: the answer then ends with finish reason "length".
    const budget = Math.min(s.maxNewTokens, this.info.maxPositions - promptTokens);
    if (budget <= 0) throw new Error(`prompt is ${promptTokens} tokens, the model's context is ${this.info.maxPositions}`);
    let out = await this.model.forward(inputs);
    const ids: number[] = [];
    for (let step = 0; step < budget; step++) {
      const tok = sampleToken(lastRow(out.logits), s, rng, ids);
      if (tok === this.info.eosTokenId) {
        return { text: this.decode(ids), tokenIds: ids, promptTokens, finishReason: 'stop' };
      }
      ids.push(tok);
      if (step + 1 === budget) break;
      const total = promptTokens + ids.length;
      out = await this.model.forward({
        input_ids: new Tensor('int64', BigInt64Array.of(BigInt(tok)), [1, 1]),
        attention_mask: new Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
        past_key_values: presentToPast(out),
      });
    }
    return { text: this.decode(ids), tokenIds: ids, promptTokens, finishReason: 'length' };
  }

  /**
   * The token ids an answer is scored on: the answer's text after a space, without special tokens, then the
   * end-of-sequence token (scripts/shapes/dpo.py's `encode(tok, " " + answer) + [EOS]`).
   */
  answerIds(answer: string): number[] {
    const ids = this.processor.tokenizer.encode(' ' + answer, { add_special_tokens: false }) as number[];
    return [...ids, this.info.eosTokenId];
  }

  /**
   * Teacher-forced log-probabilities of answers to one prompt: see {@link imagesAnswerLogprobs}.
   * @example const [a] = await m.answerLogprobs(image, 'How many shapes are there?', [], ['There are two shapes.']) // { sum: -1.3, tokens: 6 }
   */
  async answerLogprobs(
    image: RawImage,
    question: string,
    history: readonly Turn[],
    answers: readonly string[],
    plan: BatchPlanOptions = DEFAULT_PLAN,
  ): Promise<(SequenceLogprob | Error)[]> {
    return (await this.imagesAnswerLogprobs([{ image, question, history, answers }], plan))[0]!;
  }

  /**
   * Each answer's summed token log-probability (its tokens and the end-of-sequence token, {@link answerIds}) given its
   * image and conversation, as scripts/shapes/dpo.py computes it for DPO: the images go through the encoder together,
   * each prompt is run once, and the answers continue from their prompt's cache in batches of similar length, rows of
   * all the prompts side by side (prompts of one length share runs); equal answers of a prompt are scored once. An
   * image, prompt or answer that cannot be run gets an Error in its place.
   */
  async imagesAnswerLogprobs(items: readonly ImageAnswers[], plan: BatchPlanOptions = DEFAULT_PLAN): Promise<(SequenceLogprob | Error)[][]> {
    const encs = await this.encodeImages(items.map((it) => it.image));
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
      const ids = this.promptIds(it.question, enc.imageTokens, it.history ?? []);
      const bad = this.promptProblem(ids, enc.features);
      if (bad) {
        fail(bad);
        continue;
      }
      let prefix: PrefixRow;
      try {
        const prompt = await this.runPrompt(ids, enc.features);
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
        const a = this.answerIds(text);
        const problem = a.includes(this.info.imageTokenIndex)
          ? new Error('an answer may not hold the image token')
          : // The last token is never fed, so a row may be one token longer than the context.
            ids.length + a.length > this.info.maxPositions + 1
            ? new Error(`prompt and answer are ${ids.length + a.length} tokens, the model's context is ${this.info.maxPositions}`)
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
      const lps = await continuationTokenLogprobs(this.graphs, p, rows.map((r) => r.row), rows.map(() => p), plan);
      rows.forEach((r, k) => {
        const lp = lps[k]!;
        let sum = 0;
        for (const v of lp) sum += v;
        for (const j of r.answers) out[r.item]![j] = { sum, tokens: lp.length, perToken: Array.from(lp) };
      });
    }
    return out;
  }

  /**
   * A whole conversation's token ids through the chat template (its last turn may be the assistant's) and each
   * token's teacher-forced log-probability (null for the first token), in one plain run: what a server returns as
   * prompt log-probs (vLLM's `prompt_logprobs`).
   */
  async conversationLogprobs(image: RawImage, turns: readonly Turn[], addGenerationPrompt: boolean, opts: RenderOptions = {}): Promise<{ ids: number[]; logprobs: (number | null)[] }> {
    if (turns[0]?.role !== 'user') throw new Error('a conversation starts with a user turn');
    const enc = await this.encodeImage(image);
    const ids = this.idsOf(this.render(turns, addGenerationPrompt, opts), enc.imageTokens);
    const bad = this.promptProblem(ids, enc.features);
    if (bad) throw bad;
    const [lp] = await continuationTokenLogprobs(this.graphs, 0, [{ ids, features: enc.features, prefix: { cache: null, row: 0, lastLogits: null } }], [1]);
    return { ids, logprobs: [null, ...lp!] };
  }

  /** Text of generated ids, special tokens dropped; an answer that ended at once is '' (transformers.js throws on no ids). */
  decode(ids: number[]): string {
    if (ids.length === 0) return '';
    return this.processor.tokenizer.decode(ids, { skip_special_tokens: true }).trim();
  }

  /** Releases the ONNX sessions. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }

  /** Why a prompt cannot be run with this image (as the plain path would fail on it), or null. */
  private promptProblem(ids: readonly number[], features: ImageFeatures): Error | null {
    if (ids.length > this.info.maxPositions) {
      return new Error(`prompt is ${ids.length} tokens with the image, the model's context is ${this.info.maxPositions}`);
    }
    const k = countImageTokens(this.graphs, ids);
    if (k !== features.tokens) return new Error(`Number of tokens and features do not match: tokens: ${k}, features ${features.tokens}`);
    return null;
  }

  /**
   * Runs a prompt (or prefix) as one row: the part before its first image token does not depend on the image and
   * is run once per model; the rest runs on that part's cache.
   */
  private async runPrompt(ids: readonly number[], features: ImageFeatures): Promise<SharedPrefix> {
    const img = ids.indexOf(this.info.imageTokenIndex);
    const head = await this.fixedPrefix(img < 0 ? ids : ids.slice(0, img));
    return extendPrefix(this.graphs, head, ids, features);
  }

  /** The run of an image-free prefix, kept per model. */
  private fixedPrefix(ids: readonly number[]): Promise<SharedPrefix> {
    if (ids.length === 0) return Promise.resolve(EMPTY_PREFIX);
    const key = ids.join(',');
    let p = this.fixedPrefixes.get(key);
    if (!p) {
      if (this.fixedPrefixes.size >= MAX_FIXED_PREFIXES) this.fixedPrefixes.delete(this.fixedPrefixes.keys().next().value!);
      p = extendPrefix(this.graphs, EMPTY_PREFIX, ids, null);
      this.fixedPrefixes.set(key, p);
      p.catch(() => this.fixedPrefixes.delete(key));
    }
    return p;
  }

  /**
   * The chat-template prompt for a question by string concatenation, when the template inserts the question
   * verbatim (checked once with two probe texts); else the template itself.
   */
  private templated(question: string, history: readonly Turn[]): string {
    // Earlier turns go through the template itself (the fast path is for the single-turn shape it was probed with).
    if (history.length > 0) return this.prompt(question, history);
    if (this.templateParts === undefined) {
      const a = '\u{E000}';
      const b = ' x\u{E001}y \n';
      const pa = this.prompt(a);
      const i = pa.indexOf(a);
      const parts = { before: pa.slice(0, i), after: pa.slice(i + a.length) };
      this.templateParts = i >= 0 && pa.indexOf(a, i + 1) < 0 && this.prompt(b) === parts.before + b + parts.after ? parts : null;
    }
    const t = this.templateParts;
    return t ? t.before + question + t.after : this.prompt(question);
  }
}

/** Another chat template than the model's own, and whether the last message is continued (see LlavaModel.render). */
export interface RenderOptions {
  template?: string;
  continueFinal?: boolean;
}

/**
 * Reads an image file; the error names the file when it is missing, corrupt or of an unsupported type. Plain 8-bit
 * PNGs (grey, RGB, RGBA, not interlaced, no colour-management chunks) are decoded here, to the same pixels sharp
 * gives; everything else goes through transformers.js (sharp).
 */
export async function readImage(file: string): Promise<RawImage> {
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(file);
  } catch {
    // RawImage.read below names the problem.
  }
  const png = bytes ? decodePlainPng(bytes) : null;
  if (png) return new RawImage(png.data, png.width, png.height, png.channels as 1 | 3 | 4);
  try {
    return await RawImage.read(file);
  } catch (e) {
    throw new Error(`Cannot read image ${file}: ${(e as Error).message}`);
  }
}

/**
 * Whether an image processor is transformers.js's base one configured to convert to RGB, rescale and normalise only
 * (no resize, crop, pad, thumbnail or channel flip): then {@link plainPixelValues} gives its exact output.
 */
function isPlainPixelProcessor(ip: any): boolean {
  const base = ImageProcessor.prototype as any;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const nums = (v: unknown) => num(v) || (Array.isArray(v) && v.length === 3 && v.every(num));
  return (
    ip instanceof ImageProcessor &&
    ip.preprocess === base.preprocess &&
    (ip as any)._call === base._call &&
    ip.rescale === base.rescale &&
    !!ip.do_convert_rgb &&
    !ip.do_crop_margin &&
    (!(ip.do_resize || ip.do_center_crop) || identitySize(ip) !== null) &&
    !ip.do_thumbnail &&
    !ip.do_pad &&
    !ip.do_flip_channel_order &&
    (!ip.do_rescale || num(ip.rescale_factor)) &&
    (!ip.do_normalize || (nums(ip.image_mean) && nums(ip.image_std)))
  );
}

/**
 * For a processor that resizes and/or centre-crops: the size (width, height) that both leave unchanged (the crop size,
 * when resizing an image of that size gives that size), or null when there is none.
 */
function identitySize(ip: any): [number, number] | null {
  if (!ip.do_resize && !ip.do_center_crop) return null;
  const crop = ip.do_center_crop ? (Number.isInteger(ip.crop_size) ? [ip.crop_size, ip.crop_size] : [ip.crop_size?.width, ip.crop_size?.height]) : null;
  const target: [number, number] | null = crop ? [crop[0], crop[1]] : ip.size?.width && ip.size?.height ? [ip.size.width, ip.size.height] : null;
  if (!target || !target.every((n) => Number.isInteger(n) && n > 0)) return null;
  if (ip.do_resize) {
    const [w, h] = ip.get_resize_output_image_size({ size: target }, ip.size) as [number, number];
    if (w !== target[0] || h !== target[1]) return null;
  }
  return target;
}

/**
 * The value ImageProcessor.preprocess gives each byte of each RGB channel for a plain processor: the same float32
 * operations in the same order (rescale, then normalise), so a table of 3 × 256 values gives its exact output.
 */
function plainPixelTable(ip: any): Float32Array {
  const f = ip.do_rescale ? (ip.rescale_factor as number) : null;
  const per = (v: unknown, c: number) => (Array.isArray(v) ? (v[c] as number) : (v as number));
  const table = new Float32Array(3 * 256);
  for (let c = 0; c < 3; c++) {
    for (let byte = 0; byte < 256; byte++) {
      let v = byte;
      if (f !== null) v = Math.fround(f * v);
      if (ip.do_normalize) v = Math.fround((v - per(ip.image_mean, c)) / per(ip.image_std, c));
      table[c * 256 + byte] = v;
    }
  }
  return table;
}

/** Pixel values [1, 3, h, w] of an image through a plain processor's table (see {@link plainPixelTable}). */
function plainPixelValues(table: Float32Array, image: RawImage): { data: Float32Array; dims: number[] } {
  const img = image.rgb();
  const { width, height } = img;
  const data = img.data;
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const o = c * plane;
    const t = c * 256;
    for (let i = 0; i < plane; i++) out[o + i] = table[t + data[i * 3 + c]!]!;
  }
  return { data: out, dims: [1, 3, height, width] };
}

function lastRow(logits: Tensor): Float32Array {
  const [, seq, vocab] = logits.dims as [number, number, number];
  const data = logits.data as Float32Array;
  return data.slice((seq - 1) * vocab, seq * vocab);
}

function presentToPast(out: Record<string, Tensor>): Feeds {
  const past: Feeds = {};
  for (const [k, v] of Object.entries(out)) {
    if (k.startsWith('present.')) past[k.replace('present.', 'past_key_values.')] = v;
  }
  return past;
}
