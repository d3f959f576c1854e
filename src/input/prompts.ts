// Reading a prompts JSONL file as a stream: one object per line, each checked and reported by file:line.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import sharp from 'sharp';
import { decodePlainPng } from '../image/png.js';
import { imageSource } from '../image/sources.js';
import { saveImageBytes, sha256Hex } from '../image/store.js';
import { decode as decodeBmp } from 'bmp-ts';
import { z } from 'zod';

const line = z.strictObject({
  id: z.string().min(1, 'must not be empty').max(200, 'at most 200 characters').optional(),
  image: z.string().min(1, 'must not be empty'),
  question: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** One prompt read from the file, with its image checked and hashed. */
export interface InputPrompt {
  id: string;
  question: string;
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
}

/** Limits on what a prompt may bring. */
export interface InputLimits {
  max_image_bytes: number;
  max_image_pixels: number;
  max_question_chars: number;
  /** An image URL's fetch: time limit per attempt, and extra attempts after server errors and timeouts. */
  fetch_timeout_ms: number;
  fetch_retries: number;
}

const FIELDS = 'id, image, question, meta';
const EXPECTED: Record<string, string> = { string: 'a string', object: 'an object', record: 'an object' };

/** The JSON type of a value as a user would name it. */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** One schema issue as a reason that names the field and says what it must be. */
function describeIssue(i: z.core.$ZodIssue, json: unknown): string {
  if (i.code === 'unrecognized_keys') return `unknown field ${i.keys.join(', ')} (allowed: ${FIELDS})`;
  const field = i.path.join('.');
  if (i.code === 'invalid_type') {
    const value = i.path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as any)[k] : undefined), json);
    const want = EXPECTED[i.expected] ?? i.expected;
    if (!field) return `the line must be a JSON object with fields ${FIELDS}, got ${jsonType(value)}`;
    if (value === undefined) return `field ${field}: missing (required: ${want})`;
    return `field ${field}: must be ${want}, got ${jsonType(value)}`;
  }
  return `field ${field || '(line)'}: ${i.message}`;
}

const SUPPORTED = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif', 'heif', 'bmp']);

/** A BMP file's pixels as PNG bytes (sharp reads no BMP; bmp-ts decodes it). */
async function bmpToPng(bytes: Uint8Array, name: string): Promise<Buffer> {
  let img;
  try {
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
  return sharp(rgb, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
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
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
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
    if (!(meta.format === 'png' && decodePlainPng(bytes))) await sharp(bytes, { failOn: 'truncated' }).stats();
  } catch (e) {
    throw new Error(`image ${name} is corrupt: its ${isBmp ? 'bmp' : meta.format} data cannot be decoded (${(e as Error).message})`);
  }
  let [width, height] = [w, h];
  let format: string = isBmp ? 'png' : meta.format;
  if (['tiff', 'avif', 'heif'].includes(format)) {
    // Servers take PNG, JPEG, WebP and GIF as data URLs: the others are kept as PNG, for remote models too.
    bytes = await sharp(bytes).png().toBuffer();
    format = 'png';
  }
  if ((meta.orientation ?? 1) > 1) {
    // A camera's EXIF orientation: the pixels are stored turned; keep them upright.
    bytes = await sharp(bytes).rotate().png().toBuffer();
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
  const img = await checkImageBytes(src.bytes, src.shown, limits);
  const file = img.normalized ? await saveImageBytes(opts.imagesDir, img.bytes, img.format) : src.file;
  return { id: imageId(img.bytes), path: file, width: img.width, height: img.height, bytes: img.bytes.length };
}

/** A checked prompt with its content hash (image, question, meta) and its id (given, or made from that hash). */
export function makePrompt(
  v: { id?: string; question: string; meta?: Record<string, unknown> },
  image: InputPrompt['image'],
  source: string,
): InputPrompt {
  const contentHash = createHash('sha256')
    .update(JSON.stringify([image.id, v.question, v.meta ?? null]))
    .digest('hex')
    .slice(0, 16);
  return { id: v.id ?? `p-${contentHash}`, question: v.question, meta: v.meta, contentHash, source, image };
}

/**
 * Streams prompts from a JSONL file. Each line yields either a prompt or a problem naming file:line and the field;
 * the caller decides whether a problem stops the run.
 */
export async function* readPrompts(
  file: string,
  limits: InputLimits,
  opts: InputOptions,
): AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }> {
  try {
    await stat(file);
  } catch {
    throw new Error(`Prompts file ${file} does not exist.`);
  }
  const dir = path.dirname(path.resolve(file));
  const rl = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    const source = `${file}:${n}`;
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      // A byte-order mark (editors on Windows add one) is not part of the first object.
      json = JSON.parse(n === 1 ? text.replace(/^\uFEFF/, '') : text);
    } catch (e) {
      yield { problem: { source, reason: `malformed JSON (${(e as Error).message})` } };
      continue;
    }
    const p = line.safeParse(json);
    if (!p.success) {
      yield { problem: { source, reason: p.error.issues.map((i) => describeIssue(i, json)).join('; ') } };
      continue;
    }
    const v = p.data;
    if (v.question.length > limits.max_question_chars) {
      yield { problem: { source, reason: `field question: ${v.question.length} characters, over limits.max_question_chars (${limits.max_question_chars})` } };
      continue;
    }
    let image: InputPrompt['image'];
    try {
      image = await checkImage(v.image, dir, limits, opts);
    } catch (e) {
      yield { problem: { source, reason: `field image: ${(e as Error).message}` } };
      continue;
    }
    yield { prompt: makePrompt(v, image, source) };
  }
}
