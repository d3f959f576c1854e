// The parts of a loaded LLaVA model that its batched jobs (first-token logits, sampling, sequence scoring) run on.
import type { LlavaGraphs } from '../graphs.js';
import type { LlavaFolderInfo } from '../model-folder.js';
import type { LlavaImageEncoder } from './encoding.js';
import type { LlavaPrefixCache } from './prefix-cache.js';
import type { LlavaProcessing } from './processing.js';

/** A loaded model's folder facts, ONNX graphs, chat template and tokenizer, image encoder and prefix cache. */
export interface LlavaParts {
  readonly info: LlavaFolderInfo;
  readonly graphs: LlavaGraphs;
  readonly text: LlavaProcessing;
  readonly encoder: LlavaImageEncoder;
  readonly prefixes: LlavaPrefixCache;
}
