// Image preprocessing for a LLaVA model, after transformers.js's `models/<type>/image_processing_<type>.js`: reading an
// image file, and a fast path that gives the image processor's pixel values exactly when it only converts to RGB,
// rescales and normalises (images already at the model's size).
import { readFileSync } from 'node:fs';
import { ImageProcessor, RawImage } from '@huggingface/transformers';
import { decodePlainPng } from '../../../image/png.js';

/** Pixel values [1, 3, h, w] of one image. */
export interface PixelValues {
  data: Float32Array;
  dims: number[];
}

/** A model's image processor, with the exact table fast path when the processor allows it. */
export class LlavaImageProcessing {
  /** When the image processor only converts to RGB, rescales and normalises: its output per byte and channel. */
  readonly pixelTable: Float32Array | null;
  /** The one image size the processor's resize and crop leave as it is (null: it neither resizes nor crops). */
  private readonly plainSize: [number, number] | null;

  constructor(private readonly imageProcessor: any) {
    this.pixelTable = isPlainPixelProcessor(imageProcessor) ? plainPixelTable(imageProcessor) : null;
    this.plainSize = this.pixelTable ? identitySize(imageProcessor) : null;
  }

  /** Pixel values [1, 3, h, w] of one image, as the image processor makes them. */
  async pixelValues(image: RawImage): Promise<PixelValues> {
    // Images already at the model's size skip resize and crop exactly as the processor does (it returns them as they
    // are), so the table gives its output; any other size is resized by the processor itself.
    if (this.pixelTable && (this.plainSize === null || (image.width === this.plainSize[0] && image.height === this.plainSize[1]))) {
      return plainPixelValues(this.pixelTable, image);
    }
    const { pixel_values } = await this.imageProcessor(image);
    return { data: pixel_values.data as Float32Array, dims: pixel_values.dims as number[] };
  }
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
