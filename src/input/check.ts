// What every prompt reader shares: the prompt record, the image check, the conversation check and the content hash.
import { stat, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { decodePlainPng } from '../image/png.js';
import type { Turn } from '../backends/types.js';

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
}

/** Limits on what a prompt may bring. */
export interface InputLimits {
  max_image_bytes: number;
  max_image_pixels: number;
  max_question_chars: number;
}

const SUPPORTED = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif', 'heif']);

/** Checks an image file against the limits (existence, size, format, pixels, whole data) and hashes it. */
export async function checkImage(file: string, limits: InputLimits): Promise<InputPrompt['image']> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new Error(`image file ${file} does not exist`);
  }
  if (size > limits.max_image_bytes) {
    throw new Error(`image ${file} is ${size} bytes, over limits.max_image_bytes (${limits.max_image_bytes})`);
  }
  const bytes = await readFile(file);
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch (e) {
    throw new Error(`image ${file} is corrupt or not an image (${(e as Error).message})`);
  }
  if (!meta.format || !SUPPORTED.has(meta.format)) {
    throw new Error(`image ${file} has unsupported format ${meta.format}; supported: ${[...SUPPORTED].join(', ')}`);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > limits.max_image_pixels) {
    throw new Error(`image ${file} is ${w}x${h}, over limits.max_image_pixels (${limits.max_image_pixels})`);
  }
  // The header can be whole while the pixel data is cut short or damaged: decode it all once (after the pixel limit,
  // so an oversized image is never decoded), or the models would meet it later, once per sample.
  // A plain PNG that decodes here (every CRC, the whole inflated stream, every filter) is whole; anything else is
  // decoded by sharp.
  try {
    if (!(meta.format === 'png' && decodePlainPng(bytes))) await sharp(bytes).stats();
  } catch (e) {
    throw new Error(`image ${file} is corrupt: its ${meta.format} data cannot be decoded (${(e as Error).message})`);
  }
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { id, path: file, width: w, height: h, bytes: size };
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
    image = await checkImage(path.resolve(dir, f.image), limits);
  } catch (e) {
    return { problem: { source, reason: `field image: ${(e as Error).message}` } };
  }
  const contentHash = promptHash(image.id, f.question, f.meta, f.history);
  return { prompt: { id: f.id ?? `p-${contentHash}`, question: f.question, history: f.history, meta: f.meta, contentHash, source, image } };
}
