// Reading a prompts JSONL file as a stream: one object per line, each checked and reported by file:line.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { z } from 'zod';
import { buildPrompt, historyProblem, type InputLimits, type InputOptions, type InputPrompt, type InputProblem, type PromptFields } from './check.js';
import { isLlavaRow, llavaFields, readLlavaPrompts } from './llava.js';
import { InputFileError } from './reader.js';

export type { InputLimits, InputOptions, InputPrompt, InputProblem, Turn } from './check.js';
export { checkImage, checkImageBytes, imageId, makePrompt } from './check.js';

const turn = z.strictObject({
  role: z.enum(['user', 'assistant'], { error: 'must be user or assistant' }),
  content: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
});

const line = z.strictObject({
  id: z.string().min(1, 'must not be empty').max(200, 'at most 200 characters').optional(),
  image: z.string().min(1, 'must not be empty'),
  question: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
  history: z.array(turn).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

const FIELDS = 'id, image, question, history, meta';
const EXPECTED: Record<string, string> = { string: 'a string', object: 'an object', record: 'an object', array: 'an array' };

/** The JSON type of a value as a user would name it. */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** One schema issue as a reason that names the field and says what it must be. */
function describeIssue(i: z.core.$ZodIssue, json: unknown): string {
  if (i.code === 'unrecognized_keys') {
    // The only nested strict object is a history turn.
    if (i.path.length > 0) return `field ${i.path.join('.')}: unknown field ${i.keys.join(', ')} (allowed: role, content)`;
    return `unknown field ${i.keys.join(', ')} (allowed: ${FIELDS})`;
  }
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

/**
 * Streams prompts from a JSONL file. Each line yields either a prompt or a problem naming file:line and the field;
 * the caller decides whether a problem stops the run. A line with a `conversations` field is a LLaVA-style row, and
 * a `.json` file holding a JSON array (or any file with `opts.format: 'llava'`) is read as LLaVA-style input entirely
 * (src/input/llava.ts).
 */
export async function* readPrompts(
  file: string,
  limits: InputLimits,
  opts: InputOptions,
): AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }> {
  try {
    await stat(file);
  } catch {
    throw new InputFileError(`Prompts file ${file} does not exist.`);
  }
  if (opts?.format === 'llava' || (file.toLowerCase().endsWith('.json') && (await opensArray(file)))) {
    yield* readLlavaPrompts(file, limits, opts);
    return;
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
    const fields = isLlavaRow(json) ? llavaFields(json) : promptFields(json);
    if ('problem' in fields) yield { problem: { source, reason: fields.problem } };
    else yield await buildPrompt(fields, dir, source, limits, opts);
  }
}

/** True when a file's first non-blank character opens a JSON array (a .json file of JSONL lines stays JSONL). */
async function opensArray(file: string): Promise<boolean> {
  const h = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await h.read(Buffer.alloc(4096), 0, 4096, 0);
    return /^\uFEFF?\s*\[/.test(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await h.close();
  }
}

/** A prompts-format row's fields, or the reason (naming the field) it cannot be used. */
function promptFields(json: unknown): PromptFields | { problem: string } {
  const p = line.safeParse(json);
  if (!p.success) return { problem: p.error.issues.map((i) => describeIssue(i, json)).join('; ') };
  const v = p.data;
  const history = v.history ?? [];
  const bad = historyProblem(history);
  if (bad) return { problem: bad };
  return { id: v.id, image: v.image, question: v.question, history, meta: v.meta };
}
