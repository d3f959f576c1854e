// What every prompt reader shares: the prompt record, the image check, the conversation check and the content hash.
import { createHash } from 'node:crypto';
import type { Sharp, SharpOptions } from 'sharp';
import { decodePlainPng } from '../image/png.js';
import { imageSource } from '../image/sources.js';
import { saveImageBytes, sha256Hex } from '../image/store.js';
import type { Turn } from '../domain.js';

export type { Turn };

/** One prompt read from the file, with its image checked and hashed. */
export interface InputPrompt {
  id: string;
  /** The last user turn: the one the policy answers. */
  question: string;
  /** The earlier turns (user first, alternating, ending with an assistant turn); empty for a single-turn prompt. */
  history: Turn[];
  meta: Record<string, unknown> | undefined;
  contentHash: string;
  source: string;
  image: { id: string; path: string; width: number; height: number; bytes: number };
}

/** A line that could not be used, with where it is and why. */
export interface InputProblem {
  source: string;
  reason: string;
}

/** Where prompts may keep images that arrive as bytes (see src/image/store.ts). */
export interface InputOptions {
  /** The folder beside the store for byte-borne images (imageStoreDir of the db). */
  imagesDir: string;
  /** Read the file as LLaVA-style conversations (src/input/llava.ts) whatever its rows look like. */
  format?: 'prompts' | 'llava';
  /** Images the store already holds: their bytes are not decoded again, only held to the limits (see checkImage). */
  known?: KnownImages;
}

/**
 * The store's image of an id, with the size it was checked at when first stored (a resumed round, a loop's next
 * round), or undefined.
 */
export type KnownImages = (id: string) => { width: number; height: number; bytes: number; path?: string } | undefined;

/** Limits on what a prompt may bring. */
export interface InputLimits {
  max_image_bytes: number;
  max_image_pixels: number;
  max_question_chars: number;
  /** An image URL's fetch: time limit per attempt, and extra attempts after server errors and timeouts. */
  fetch_timeout_ms: number;
  fetch_retries: number;
}

const SUPPORTED = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif', 'heif', 'bmp']);

// sharp (0.16 s of CPU to load) and bmp-ts are loaded at the first image checked: a command that refuses its input or
// config before reading an image never loads them.
async function sharp(input: Uint8Array | Buffer, options?: SharpOptions): Promise<Sharp> {
  return (await import('sharp')).default(input, options);
}

/** A BMP file's pixels as PNG bytes (sharp reads no BMP; bmp-ts decodes it). */
async function bmpToPng(bytes: Uint8Array, name: string): Promise<Buffer> {
  let img;
  try {
    const { decode: decodeBmp } = await import('bmp-ts');
    img = decodeBmp(Buffer.from(bytes), { toRGBA: true });
  } catch (e) {
    throw new Error(`image ${name} is corrupt: its bmp data cannot be decoded (${(e as Error).message})`);
  }
  const rgb = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
    rgb[j] = img.data[i]!;
    rgb[j + 1] = img.data[i + 1]!;
    rgb[j + 2] = img.data[i + 2]!;
  }
  return (await sharp(rgb, { raw: { width: img.width, height: img.height, channels: 3 } })).png().toBuffer();
}

/** An image's id: the first 32 hex digits of the SHA-256 of its bytes (the same whether it came as a file or bytes). */
export function imageId(bytes: Uint8Array): string {
  return sha256Hex(bytes).slice(0, 32);
}

/** A checked image: its bytes as the store keeps them (`normalized`: not the bytes it came as), format and size. */
export interface CheckedImage {
  bytes: Uint8Array;
  format: string;
  width: number;
  height: number;
  normalized: boolean;
}

/**
 * Checks an image's bytes (`name` says where they came from in messages): within the byte and pixel limits, a
 * supported format, decodable whole. A BMP and a photo with an EXIF orientation come back as an upright PNG, so every
 * model sees what a person sees.
 */
export async function checkImageBytes(input: Uint8Array, name: string, limits: InputLimits): Promise<CheckedImage> {
  if (input.length > limits.max_image_bytes) {
    throw new Error(`image ${name} is ${input.length} bytes, over limits.max_image_bytes (${limits.max_image_bytes})`);
  }
  const isBmp = input.length > 2 && input[0] === 0x42 && input[1] === 0x4d;
  let bytes: Uint8Array = isBmp ? await bmpToPng(input, name) : input;
  let meta: Awaited<ReturnType<Sharp['metadata']>>;
  try {
    meta = await (await sharp(bytes)).metadata();
  } catch (e) {
    throw new Error(`image ${name} is corrupt or not an image (${(e as Error).message})`);
  }
  if (!meta.format || !SUPPORTED.has(meta.format)) {
    throw new Error(`image ${name} has unsupported format ${meta.format}; supported: png, jpeg, webp, gif (first frame), bmp, tiff, avif, heif`);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > limits.max_image_pixels) {
    throw new Error(`image ${name} is ${w}x${h}, over limits.max_image_pixels (${limits.max_image_pixels})`);
  }
  // The header can be whole while the pixel data is cut short or damaged: decode it all once (after the pixel limit,
  // so an oversized image is never decoded), or the models would meet it later, once per sample.
  // A plain PNG that decodes here (every CRC, the whole inflated stream, every filter) is whole; anything else is
  // decoded by sharp.
  try {
    if (!(meta.format === 'png' && decodePlainPng(bytes))) await (await sharp(bytes, { failOn: 'truncated' })).stats();
  } catch (e) {
    throw new Error(`image ${name} is corrupt: its ${isBmp ? 'bmp' : meta.format} data cannot be decoded (${(e as Error).message})`);
  }
  let [width, height] = [w, h];
  let format: string = isBmp ? 'png' : meta.format;
  if (['tiff', 'avif', 'heif'].includes(format)) {
    // Servers take PNG, JPEG, WebP and GIF as data URLs: the others are kept as PNG, for remote models too.
    bytes = await (await sharp(bytes)).png().toBuffer();
    format = 'png';
  }
  if ((meta.orientation ?? 1) > 1) {
    // A camera's EXIF orientation: the pixels are stored turned; keep them upright.
    bytes = await (await sharp(bytes)).rotate().png().toBuffer();
    format = 'png';
    if ((meta.orientation ?? 1) >= 5) [width, height] = [h, w];
  }
  return { bytes, format, width, height, normalized: bytes !== input };
}

/**
 * Checks the image a prompt names (a file, an http(s) URL or a data: URI; see imageSource) and returns it as the
 * store keeps it: the file itself, or, for fetched, data: and normalized images, a copy in the image folder by content.
 */
export async function checkImage(spec: string, baseDir: string, limits: InputLimits, opts: InputOptions): Promise<InputPrompt['image']> {
  const src = await imageSource(spec, baseDir, {
    imagesDir: opts.imagesDir,
    maxBytes: limits.max_image_bytes,
    timeoutMs: limits.fetch_timeout_ms,
    retries: limits.fetch_retries,
  });
  // Bytes the store holds as they are were checked whole when first stored: decoding them again (a 640x480 JPEG: about
  // 22 ms, its hash 0.15 ms) would be paid by every resumed round and every loop round for every image. The limits,
  // which may have changed since, still apply; an image stored normalized (a BMP, a turned photo) has another id and is
  // checked as new.
  const id = imageId(src.bytes);
  const k = knownAsIs(opts.known, id, src.bytes, limits);
  if (k) return { id, path: src.file, width: k.width, height: k.height, bytes: k.bytes };
  const img = await checkImageBytes(src.bytes, src.shown, limits);
  const file = img.normalized ? await saveImageBytes(opts.imagesDir, img.bytes, img.format) : src.file;
  return { id: img.normalized ? imageId(img.bytes) : id, path: file, width: img.width, height: img.height, bytes: img.bytes.length };
}

/**
 * The store's row for these very bytes, where it holds them as they are (same size) and the limits as they are now
 * pass; else undefined, and the bytes are checked as new. What every reader asks before decoding an image again.
 */
export function knownAsIs(known: KnownImages | undefined, id: string, bytes: Uint8Array, limits: InputLimits): ReturnType<KnownImages> {
  const k = known?.(id);
  return k && k.bytes === bytes.length && bytes.length <= limits.max_image_bytes && k.width * k.height <= limits.max_image_pixels ? k : undefined;
}

/**
 * Why a conversation's earlier turns are not usable (roles alternate user/assistant from a user turn and end with an
 * assistant turn, since the question is the next user turn), as `field history...: reason`; null when they are.
 */
export function historyProblem(history: readonly Turn[]): string | null {
  for (let i = 0; i < history.length; i++) {
    const want = i % 2 === 0 ? 'user' : 'assistant';
    if (history[i]!.role !== want) return `field history.${i}.role: must be ${want} (turns alternate user/assistant, starting with user)`;
  }
  if (history.length % 2 === 1) return 'field history: must end with an assistant turn (the question is the next user turn)';
  return null;
}

/** The prompt's content hash: image, question and meta, and the earlier turns only when there are some (so every single-turn prompt keeps its hash). */
export function promptHash(imageId: string, question: string, meta: unknown, history: readonly Turn[]): string {
  const parts: unknown[] = [imageId, question, meta ?? null];
  if (history.length > 0) parts.push(history);
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** A prompt's fields once its row is read, before its image is checked. */
export interface PromptFields {
  id: string | undefined;
  /** The image path as written in the row (relative to the row's file). */
  image: string;
  question: string;
  history: Turn[];
  meta: Record<string, unknown> | undefined;
}

/** Checks a read row's question, turns and image, and makes the prompt record; or the problem naming the field. */
export async function buildPrompt(
  f: PromptFields,
  dir: string,
  source: string,
  limits: InputLimits,
  opts: InputOptions,
): Promise<{ prompt: InputPrompt } | { problem: InputProblem }> {
  const tooLong = (s: string) => s.length > limits.max_question_chars;
  if (tooLong(f.question)) {
    return { problem: { source, reason: `field question: ${f.question.length} characters, over limits.max_question_chars (${limits.max_question_chars})` } };
  }
  const long = f.history.findIndex((t) => tooLong(t.content));
  if (long >= 0) {
    return { problem: { source, reason: `field history.${long}.content: ${f.history[long]!.content.length} characters, over limits.max_question_chars (${limits.max_question_chars})` } };
  }
  let image: InputPrompt['image'];
  try {
    image = await checkImage(f.image, dir, limits, opts);
  } catch (e) {
    return { problem: { source, reason: `field image: ${(e as Error).message}` } };
  }
  return { prompt: makePrompt(f, image, source) };
}

/** A checked prompt with its content hash (image, question, meta, turns) and its id (given, or made from that hash). */
export function makePrompt(
  v: { id?: string | undefined; question: string; history?: Turn[]; meta?: Record<string, unknown> | undefined },
  image: InputPrompt['image'],
  source: string,
): InputPrompt {
  const history = v.history ?? [];
  const contentHash = promptHash(image.id, v.question, v.meta, history);
  return { id: v.id ?? `p-${contentHash}`, question: v.question, history, meta: v.meta, contentHash, source, image };
}
