// The prompt prefix cache of a LLaVA model: the part of a prompt before its first image token does not depend on the
// image, so it is run once per model and kept; prompts continue from it with their image.
import type { ImageFeatures, LlavaGraphs } from '../graphs.js';
import type { LlavaFolderInfo } from '../model-folder.js';
import { countImageTokens, EMPTY_PREFIX, extendPrefix, type SharedPrefix } from '../batched.js';

// Bound of the per-model memo table of image-independent prefixes.
const MAX_FIXED_PREFIXES = 64;

/** Image-free prefix runs kept per model, and prompt runs on top of them. */
export class LlavaPrefixCache {
  private readonly fixedPrefixes = new Map<string, Promise<SharedPrefix>>();

  constructor(
    private readonly info: LlavaFolderInfo,
    private readonly graphs: LlavaGraphs,
  ) {}

  /** Why a prompt cannot be run with this image (as the plain path would fail on it), or null. */
  promptProblem(ids: readonly number[], features: ImageFeatures): Error | null {
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
  async runPrompt(ids: readonly number[], features: ImageFeatures): Promise<SharedPrefix> {
    const img = ids.indexOf(this.info.imageTokenIndex);
    const head = await this.fixedPrefix(img < 0 ? ids : ids.slice(0, img));
    return extendPrefix(this.graphs, head, ids, features);
  }

  /** The run of an image-free prefix, kept per model. */
  fixedPrefix(ids: readonly number[]): Promise<SharedPrefix> {
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
}
