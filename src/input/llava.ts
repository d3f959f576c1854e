// LLaVA-style conversation input: rows {id?, image, conversations: [{from: 'human'|'gpt', value}]}, as LLaVA's
// instruction-tuning files are written. The last human turn is the question the policy answers; the turns before it
// are the history; a gpt turn after it is kept as the reference answer (meta.reference).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { buildPrompt, type InputLimits, type InputOptions, type InputPrompt, type InputProblem, type PromptFields, type Turn } from './check.js';
import { InputFileError } from './reader.js';

/** True for a parsed row that is LLaVA-style (it has a `conversations` field). */
export function isLlavaRow(json: unknown): boolean {
  return !!json && typeof json === 'object' && !Array.isArray(json) && 'conversations' in json;
}

const ROLE: Record<string, Turn['role']> = { human: 'user', gpt: 'assistant' };

/** A turn's text without the `<image>` token (it only marks where the image goes; the image is the row's). */
function stripImageToken(s: string): string {
  return s.replace(/\n?<image>\n?/g, ' ').trim();
}

/** A LLaVA row's prompt fields, or the reason (naming the field) it cannot be used. */
export function llavaFields(json: unknown): PromptFields | { problem: string } {
  const row = json as Record<string, unknown>;
  if (row.id !== undefined && (typeof row.id !== 'string' || row.id.length === 0 || row.id.length > 200)) {
    return { problem: 'field id: must be a non-empty string of at most 200 characters' };
  }
  if (typeof row.image !== 'string' || row.image.length === 0) return { problem: 'field image: must be a non-empty string' };
  if (row.meta !== undefined && (typeof row.meta !== 'object' || row.meta === null || Array.isArray(row.meta))) {
    return { problem: 'field meta: must be an object' };
  }
  const conv = row.conversations;
  if (!Array.isArray(conv) || conv.length === 0) return { problem: 'field conversations: must be a non-empty array of {from, value}' };
  const turns: Turn[] = [];
  for (let i = 0; i < conv.length; i++) {
    const t = conv[i] as { from?: unknown; value?: unknown } | null;
    const role = typeof t?.from === 'string' ? ROLE[t.from] : undefined;
    if (!role) return { problem: `field conversations.${i}.from: must be human or gpt, got ${JSON.stringify(t?.from ?? null)}` };
    const text = typeof t!.value === 'string' ? stripImageToken(t!.value) : '';
    if (!text) return { problem: `field conversations.${i}.value: must be a non-empty string (besides <image>)` };
    turns.push({ role, content: text });
  }
  const last = turns.map((t) => t.role).lastIndexOf('user');
  if (last < 0) return { problem: 'field conversations: no human turn (the last human turn is the question the policy answers)' };
  for (let i = 0; i < turns.length; i++) {
    const want = i % 2 === 0 ? 'human' : 'gpt';
    if (turns[i]!.role !== ROLE[want]) return { problem: `field conversations.${i}.from: must be ${want} (turns alternate human/gpt, starting with human)` };
  }
  const meta = { ...(row.meta as Record<string, unknown> | undefined) };
  if (last + 1 < turns.length) meta.reference = turns[last + 1]!.content;
  return {
    id: row.id as string | undefined,
    image: row.image,
    question: turns[last]!.content,
    history: turns.slice(0, last),
    meta: Object.keys(meta).length > 0 ? meta : undefined,
  };
}

/**
 * Streams prompts from LLaVA-style input with readPrompts' contract: a `.jsonl` file holds one row per line, any
 * other file (`.json`) one JSON array of rows. Each row yields a prompt or a problem naming file:line and the field.
 */
export async function* readLlavaPrompts(
  file: string,
  limits: InputLimits,
  opts: InputOptions,
): AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }> {
  try {
    await stat(file);
  } catch {
    throw new InputFileError(`Prompts file ${file} does not exist.`);
  }
  const dir = path.dirname(path.resolve(file));
  const rows = file.toLowerCase().endsWith('.jsonl') ? jsonlRows(file) : arrayRows(file);
  for await (const r of rows) {
    const source = `${file}:${r.line}`;
    if ('error' in r) {
      yield { problem: { source, reason: r.error } };
      continue;
    }
    const fields = isLlavaRow(r.json) ? llavaFields(r.json) : { problem: 'field conversations: missing (required: an array of {from, value})' };
    if ('problem' in fields) yield { problem: { source, reason: fields.problem } };
    else yield await buildPrompt(fields, dir, source, limits, opts);
  }
}

type Row = { line: number; json: unknown } | { line: number; error: string };

async function* jsonlRows(file: string): AsyncGenerator<Row> {
  const rl = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim() === '') continue;
    try {
      yield { line: n, json: JSON.parse(n === 1 ? text.replace(/^\uFEFF/, '') : text) };
    } catch (e) {
      yield { line: n, error: `malformed JSON (${(e as Error).message})` };
    }
  }
}

/**
 * The elements of a JSON array file, each with the line it starts on. The file is read whole (no streaming JSON
 * parser is a dependency), but elements are cut out and parsed one at a time, so a broken row fails alone.
 */
async function* arrayRows(file: string): AsyncGenerator<Row> {
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const open = text.search(/\S/);
  if (open < 0 || text[open] !== '[') {
    yield { line: 1, error: 'a .json LLaVA file must be a JSON array of rows (use .jsonl for one row per line)' };
    return;
  }
  let line = 1 + countNewlines(text, 0, open);
  let depth = 0;
  let inString = false;
  let start = -1;
  let startLine = line;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (start < 0 && depth === 0 && /\S/.test(c) && c !== ',' && c !== ']') [start, startLine] = [i, line];
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (depth <= 0 && start >= 0 && (c === ',' || depth < 0 || i === text.length - 1)) {
      const end = c === ',' || depth < 0 ? i : i + 1;
      yield parseRow(text.slice(start, end), startLine);
      start = -1;
    }
    if (depth < 0) return;
  }
  if (depth >= 0) yield { line, error: 'the JSON array is not closed (the file ends inside it)' };
}

function parseRow(s: string, line: number): Row {
  try {
    return { line, json: JSON.parse(s) };
  } catch (e) {
    return { line, error: `malformed JSON (${(e as Error).message})` };
  }
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s[i] === '\n') n++;
  return n;
}
