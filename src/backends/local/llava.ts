// One LLaVA-layout model folder run in-process through transformers.js (onnxruntime-node underneath).
import {
  AutoProcessor,
  LlavaForConditionalGeneration,
  RawImage,
  Tensor,
  env,
} from '@huggingface/transformers';
import { inspectLlavaFolder, type LlavaFolderInfo } from './model-folder.js';
import { sampleToken, seededRng, type SamplingSettings } from './sampling.js';

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

type Feeds = Record<string, Tensor>;

/** A loaded LLaVA model: its processor (image processor, tokenizer, chat template) and its three ONNX sessions. */
export class LlavaModel {
  private constructor(
    readonly info: LlavaFolderInfo,
    private readonly processor: any,
    private readonly model: any,
  ) {}

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

  /** The text of one token id. */
  tokenText(id: number): string {
    return this.processor.tokenizer.decode([id], { skip_special_tokens: false });
  }

  /** The chat-template prompt for one user turn with an image, ending where the assistant starts. */
  prompt(question: string): string {
    const messages = [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: question }] }];
    return this.processor.apply_chat_template(messages, { add_generation_prompt: true, tokenize: false });
  }

  /** Processor outputs (input_ids, attention_mask, pixel_values) for one image and question. */
  async inputs(image: RawImage, question: string): Promise<Feeds> {
    return await this.processor(image, this.prompt(question));
  }

  /** Logits of the first generated position: one full forward over image and prompt (the plain path). */
  async firstTokenLogits(image: RawImage, question: string): Promise<Float32Array> {
    const out = await this.model.forward(await this.inputs(image, question));
    return lastRow(out.logits);
  }

  /** Samples one answer; the RNG is the sample's own, so concurrent samples stay reproducible from their seeds. */
  async sample(
    image: RawImage,
    question: string,
    s: SamplingSettings & { seed: number; maxNewTokens: number },
  ): Promise<Sample> {
    const rng = seededRng(s.seed);
    const inputs = await this.inputs(image, question);
    const promptTokens = inputs.input_ids!.dims[1]!;
    // Never past the decoder's context: the answer then ends with finish reason "length".
    const budget = Math.min(s.maxNewTokens, this.info.maxPositions - promptTokens);
    if (budget <= 0) throw new Error(`prompt is ${promptTokens} tokens, the model's context is ${this.info.maxPositions}`);
    let out = await this.model.forward(inputs);
    const ids: number[] = [];
    for (let step = 0; step < budget; step++) {
      const tok = sampleToken(lastRow(out.logits), s, rng);
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

  /** Text of generated ids, special tokens dropped. */
  decode(ids: number[]): string {
    return this.processor.tokenizer.decode(ids, { skip_special_tokens: true }).trim();
  }

  /** Releases the ONNX sessions. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

/** Reads an image file; the error names the file when it is missing, corrupt or of an unsupported type. */
export async function readImage(file: string): Promise<RawImage> {
  try {
    return await RawImage.read(file);
  } catch (e) {
    throw new Error(`Cannot read image ${file}: ${(e as Error).message}`);
  }
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
