// Data-set rows (Parquet, RLAIF-V JSONL) as prompts: mapped columns give the image, question and id; every other
// column goes to meta so nothing of the row is lost. Images that arrive as bytes are checked, then stored once.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { saveImageBytes } from '../image/store.js';
import { checkImage, checkImageBytes, historyProblem, imageId, knownAsIs, makePrompt, type InputLimits, type InputProblem, type InputPrompt, type KnownImages, type Turn } from './check.js';

/** Which columns hold the image, the question and the (optional) id. */
export interface ColumnMap {
  image: string;
  question: string;
  id: string;
}

/** The column names `datasets` users mostly have (RLAIF-V-Dataset's too). */
export const DEFAULT_COLUMNS: ColumnMap = { image: 'image', question: 'question', id: 'id' };

/** Where a row is and what it may bring. */
export interface RowContext {
  /** `file:row N` or `file:N`, for messages. */
  source: string;
  /** The data-set file's folder: image paths are relative to it. */
  dir: string;
  limits: InputLimits;
  /** The folder beside the store for byte-borne images. */
  imagesDir: string | undefined;
  cols: ColumnMap;
  /** Images the store already holds (ReaderOptions.known): not decoded or written again. */
  known?: KnownImages | undefined;
}

type Result = { prompt: InputPrompt } | { problem: InputProblem };

const text = (v: unknown): unknown => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v);
const typeOf = (v: unknown): string =>
  v === null || v === undefined ? 'null' : v instanceof Uint8Array ? 'bytes' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** A Parquet/JSON value as plain JSON: bigints as numbers (or strings past 2^53), bytes as base64, dates as ISO. */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}

/**
 * A row's image bytes as the store already holds them (a resumed round, a loop's next round over the same data set):
 * the stored row and its file, where the file is still there with those bytes' size, and the limits as they are now
 * still pass. Otherwise undefined, and the bytes are checked and stored as new (as checkImage does for files).
 */
async function storedAsIs(id: string, bytes: Uint8Array, ctx: RowContext): Promise<InputPrompt['image'] | undefined> {
  const k = knownAsIs(ctx.known, id, bytes, ctx.limits);
  if (!k?.path) return undefined;
  const size = await stat(k.path).then((s) => s.size, () => -1);
  return size === bytes.length ? { id, path: k.path, width: k.width, height: k.height, bytes: k.bytes } : undefined;
}

/** The image of a row: bytes (checked, then stored once by content) or a path (checked like a JSONL image). */
async function rowImage(v: unknown, ctx: RowContext): Promise<InputPrompt['image']> {
  // The `datasets` Image feature is a struct {bytes, path}; bytes win, as `datasets` decodes them.
  const struct = v && typeof v === 'object' && !(v instanceof Uint8Array) && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const bytes = v instanceof Uint8Array ? v : struct?.bytes instanceof Uint8Array ? struct.bytes : null;
  const file = typeof v === 'string' ? v : typeof struct?.path === 'string' && struct.path ? struct.path : null;
  if (!ctx.imagesDir) throw new Error('image bytes need a folder to be stored in (InputOptions.imagesDir)');
  if (bytes) {
    const id = imageId(bytes);
    const known = await storedAsIs(id, bytes, ctx);
    if (known) return known;
    const img = await checkImageBytes(bytes, ctx.source, ctx.limits);
    const stored = await saveImageBytes(ctx.imagesDir, img.bytes, img.format === 'jpeg' ? 'jpg' : img.format);
    return { id: img.normalized ? imageId(img.bytes) : id, path: stored, width: img.width, height: img.height, bytes: img.bytes.length };
  }
  if (file) return checkImage(file, ctx.dir, ctx.limits, { imagesDir: ctx.imagesDir, ...(ctx.known ? { known: ctx.known } : {}) });
  throw new Error(`must be image bytes, a path, or a {bytes, path} struct with one of them set, got ${typeOf(v)}`);
}

/** One row as a prompt, or a problem naming its source and the column at fault. */
export async function rowToPrompt(row: Record<string, unknown>, ctx: RowContext): Promise<Result> {
  const { cols, source, limits } = ctx;
  const problem = (field: string, reason: string): Result => ({ problem: { source, reason: `field ${field}: ${reason}` } });
  const question = text(row[cols.question]);
  if (typeof question !== 'string') return problem(cols.question, `must be a string, got ${typeOf(question)}`);
  if (question.trim() === '') return problem(cols.question, 'must not be empty');
  if (question.length > limits.max_question_chars) {
    return problem(cols.question, `${question.length} characters, over limits.max_question_chars (${limits.max_question_chars})`);
  }
  const rawId = text(row[cols.id]);
  let id: string | undefined;
  if (rawId !== null && rawId !== undefined) {
    if (!['string', 'number', 'bigint'].includes(typeof rawId)) return problem(cols.id, `must be a string or a number, got ${typeOf(rawId)}`);
    id = String(rawId);
    if (id.length < 1 || id.length > 200) return problem(cols.id, 'must be 1 to 200 characters');
  }
  let image: InputPrompt['image'];
  try {
    image = await rowImage(row[cols.image], ctx);
  } catch (e) {
    return problem(cols.image, (e as Error).message);
  }
  // A `history` column of {role, content} turns (rlaifv's own export writes one) is the conversation before the question.
  const turns = row.history;
  let history: Turn[] = [];
  if (Array.isArray(turns)) {
    const ok = turns.every((t) => t && typeof t === 'object' && ['user', 'assistant'].includes((t as Turn).role) && typeof (t as Turn).content === 'string');
    if (!ok) return problem('history', 'must be a list of {role: user|assistant, content} turns');
    history = turns.map((t) => ({ role: (t as Turn).role, content: String(text((t as Turn).content)) }));
    const bad = historyProblem(history);
    if (bad) return { problem: { source, reason: bad } };
  }
  const rest = Object.entries(row).filter(([k]) => k !== cols.image && k !== cols.question && k !== cols.id && !(k === 'history' && Array.isArray(turns)));
  const meta = rest.length ? (jsonSafe(Object.fromEntries(rest)) as Record<string, unknown>) : undefined;
  return { prompt: makePrompt({ id, question, history, meta }, image, source) };
}
