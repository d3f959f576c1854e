// A loaded LLaVA model, after transformers.js's `models/llava/modeling_llava.js`: the folder loaded offline through
// transformers.js (onnxruntime-node underneath) and its jobs, each in its own file beside this one.
import { AutoProcessor, env, LlavaForConditionalGeneration, type RawImage } from '@huggingface/transformers';
import type { Turn } from '../../../domain.js';
import type { SequenceLogprob } from '../../types.js';
import { DEFAULT_PLAN, type BatchPlanOptions } from '../batched.js';
import { LlavaGraphs } from '../graphs.js';
import { inspectLlavaFolder, type LlavaFolderInfo } from '../model-folder.js';
import type { SamplingSettings } from '../sampling.js';
import { LlavaImageEncoder, type EncodedImage } from './encoding.js';
import { imagesQuestionLogits, type ImageQuestions } from './first-token.js';
import { lastRow, sampleMany, samplePlain, type Feeds, type Sample } from './generation.js';
import { LlavaImageProcessing, type PixelValues } from './image-processing.js';
import type { LlavaParts } from './parts.js';
import { LlavaPrefixCache } from './prefix-cache.js';
import { LlavaProcessing, type RenderOptions } from './processing.js';
import { conversationLogprobs, imagesAnswerLogprobs, type ImageAnswers } from './sequence-scoring.js';

// Models come from folders on disk only; rlaifv never downloads weights at run time.
env.allowRemoteModels = false;
env.allowLocalModels = true;

/** Options for loading a local model. */
export interface LoadOptions {
  /** onnxruntime intra-op threads for this model's sessions (workers × threads should not exceed cores). */
  threads?: number;
}

/** A loaded LLaVA model: its processor (image processor, tokenizer, chat template) and its three ONNX sessions. */
export class LlavaModel implements LlavaParts {
  /** The same sessions driven directly, for the batched paths. */
  readonly graphs: LlavaGraphs;
  /** The chat template and tokenizer. */
  readonly text: LlavaProcessing;
  /** The image encoder over preprocessed images. */
  readonly encoder: LlavaImageEncoder;
  /** Image-free prompt prefixes run once per model. */
  readonly prefixes: LlavaPrefixCache;
  private readonly pixels: LlavaImageProcessing;

  private constructor(
    readonly info: LlavaFolderInfo,
    private readonly processor: any,
    private readonly model: any,
  ) {
    const s = model.sessions;
    this.graphs = new LlavaGraphs(info, { vision: s.vision_encoder, embed: s.embed_tokens, decoder: s.decoder_model_merged });
    this.pixels = new LlavaImageProcessing(processor.image_processor);
    this.text = new LlavaProcessing(info, processor);
    this.encoder = new LlavaImageEncoder(this.graphs, this.pixels, processor.config);
    this.prefixes = new LlavaPrefixCache(info, this.graphs);
  }

  /** The image processor's exact table, when it has one (tests/backends/image-resize.test.ts checks it is set up). */
  private get pixelTable(): Float32Array | null {
    return this.pixels.pixelTable;
  }

  /** Opens a model folder offline; throws naming the folder and the file when something is missing. */
  static async load(dir: string, opts: LoadOptions = {}): Promise<LlavaModel> {
    const info = inspectLlavaFolder(dir);
    // onnxruntime's intra-op threads spin while they wait for work by default: with more than one thread per worker
    // (--workers below the core count) the spinning threads took cores from the work itself. Not spinning: `rlaifv run
    // --limit 10 --workers 1` on 2 cores 2.1 -> 1.4 s of CPU and 1.4 -> 1.1 s of wall time (docs/testing.md). With one
    // thread per worker (the default) there is no intra-op thread to spin, so nothing changes there.
    const session_options = opts.threads
      ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1, extra: { session: { intra_op: { allow_spinning: '0' } } } }
      : {};
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
    return this.text.vocabulary();
  }

  /** The text of one token id (decoded once per id). */
  tokenText(id: number): string {
    return this.text.tokenText(id);
  }

  /**
   * The chat-template prompt for a conversation ending with a user turn, ending where the assistant starts: the
   * earlier turns (`history`) first, the image in the first user turn.
   */
  prompt(question: string, history: readonly Turn[] = []): string {
    return this.text.prompt(question, history);
  }

  /**
   * A conversation's token ids as a server tokenizes it: its image token expanded to the image's tokens when an image
   * is given, else left as one token; or a text's ids (no template).
   */
  async tokenize(what: { turns: readonly Turn[]; addGenerationPrompt: boolean; image: RawImage | null } | { text: string }, opts: RenderOptions = {}): Promise<number[]> {
    if ('text' in what) return this.text.encode(what.text);
    const imageTokens = what.image ? (await this.encodeImage(what.image)).imageTokens : 1;
    return this.text.idsOf(this.text.render(what.turns, what.addGenerationPrompt, opts), imageTokens);
  }

  /** Processor outputs (input_ids, attention_mask, pixel_values) for one image and question. */
  async inputs(image: RawImage, question: string, history: readonly Turn[] = []): Promise<Feeds> {
    return await this.processor(image, this.text.prompt(question, history));
  }

  /** Logits of the first generated position: one full forward over image and prompt (the plain path). */
  async firstTokenLogits(image: RawImage, question: string): Promise<Float32Array> {
    const out = await this.model.forward(await this.inputs(image, question));
    return lastRow(out.logits);
  }

  /** Pixel values [1, 3, h, w] of one image, as the image processor makes them. */
  async pixelValues(image: RawImage): Promise<PixelValues> {
    return this.pixels.pixelValues(image);
  }

  /** Preprocesses and encodes one image (the image encoder runs once, whatever the number of prompts). */
  async encodeImage(image: RawImage): Promise<EncodedImage> {
    return this.encoder.encodeImage(image);
  }

  /**
   * Preprocesses and encodes several images: images of one pixel size go through the image encoder together, in one
   * run, each getting what {@link encodeImage} gives it. An image the encoder refuses gets the Error in its place (the
   * others of its size are then run one at a time); a graph that takes one image at a time gets one run per image.
   */
  async encodeImages(images: readonly RawImage[]): Promise<(EncodedImage | Error)[]> {
    return this.encoder.encodeImages(images);
  }

  /**
   * Token ids of the full prompt for one question, the image token expanded as LlavaProcessor does (the same ids as
   * {@link inputs}); remembered per question. The returned array is shared: do not change it.
   */
  promptIds(question: string, imageTokens: number, history: readonly Turn[] = []): readonly number[] {
    return this.text.promptIds(question, imageTokens, history);
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
    return imagesQuestionLogits(this, items, plan);
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
    return sampleMany(this, image, question, seeds, s, history);
  }

  /** Samples one answer; the RNG is the sample's own, so concurrent samples stay reproducible from their seeds. */
  async sample(
    image: RawImage,
    question: string,
    s: SamplingSettings & { seed: number; maxNewTokens: number },
    history: readonly Turn[] = [],
  ): Promise<Sample> {
    return samplePlain(this, (f) => this.model.forward(f), await this.inputs(image, question, history), s);
  }

  /**
   * The token ids an answer is scored on: the answer's text after a space, without special tokens, then the
   * end-of-sequence token (scripts/shapes/dpo.py's `encode(tok, " " + answer) + [EOS]`).
   */
  answerIds(answer: string): number[] {
    return this.text.answerIds(answer);
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
    return imagesAnswerLogprobs(this, items, plan);
  }

  /**
   * A whole conversation's token ids through the chat template (its last turn may be the assistant's) and each
   * token's teacher-forced log-probability (null for the first token), in one plain run: what a server returns as
   * prompt log-probs (vLLM's `prompt_logprobs`).
   */
  async conversationLogprobs(image: RawImage, turns: readonly Turn[], addGenerationPrompt: boolean, opts: RenderOptions = {}): Promise<{ ids: number[]; logprobs: (number | null)[] }> {
    return conversationLogprobs(this, image, turns, addGenerationPrompt, opts);
  }

  /** Text of generated ids, special tokens dropped; an answer that ended at once is '' (transformers.js throws on no ids). */
  decode(ids: number[]): string {
    return this.text.decode(ids);
  }

  /** Releases the ONNX sessions. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}
