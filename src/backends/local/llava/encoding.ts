// Image encoding for a LLaVA model: images of one pixel size go through the image encoder together, chunked to a
// memory bound, with a fallback to one run per image when the graph or an image refuses a batch.
import type { RawImage } from '@huggingface/transformers';
import type { ImageFeatures, LlavaGraphs } from '../graphs.js';
import type { LlavaImageProcessing } from './image-processing.js';

/** An image encoded once: how many image tokens its prompts hold, and the features those tokens are replaced by. */
export interface EncodedImage {
  imageTokens: number;
  features: ImageFeatures;
}

/** Most images, and most floats of pixel values (64 MB), in one image-encoder run. */
const MAX_IMAGES_PER_ENCODE = 16;
const MAX_PIXEL_FLOATS = 16 * 1024 * 1024;

/** The processor's image-token settings (LlavaProcessor's config). */
export interface ImageTokenConfig {
  patch_size: number;
  num_additional_image_tokens?: number;
}

/** A model's image encoder run over preprocessed images. */
export class LlavaImageEncoder {
  /** Set when the image encoder refused a batch of several images. */
  private singleImageEncoder = false;

  constructor(
    private readonly graphs: LlavaGraphs,
    private readonly pixels: LlavaImageProcessing,
    private readonly config: ImageTokenConfig,
  ) {}

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
    const pxs = await Promise.all(images.map((im) => this.pixels.pixelValues(im)));
    const { patch_size, num_additional_image_tokens } = this.config;
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
}
