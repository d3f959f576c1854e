// `rlaifv claims`: how the configured divider divides any answers, line by line, without a store or a round.
// A file of any size streams through: lines are read, divided in batches (a few in flight) and written in input order.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import readline from 'node:readline';
import type { Config } from '../config/schema.js';
import type { Divider, DivideOutput } from '../backends/types.js';
import { WorkerPool } from '../backends/local/pool.js';
import { FatalBackendError } from '../backends/errors.js';
import { createDivider, InputError } from './round.js';

/** One input line's division, or why it has none; `id` is the line's own id or its 1-based line number. */
export type ClaimsLine =
  | {
      id: string | number;
      claims: { claim: string; question: string; sentence: string; start: number | null; end: number | null }[];
      skipped: { sentence: string; reason: string }[];
      /** Only when divide.max_words cut the answer: its words after that were not divided. */
      truncated?: true;
    }
  | { id: string | number; error: string };

/** What a preview did: lines read and lines that gave an error (bad input or a failed division). */
export interface ClaimsSummary {
  lines: number;
  failed: number;
}

/** Answers divided per call to the divider (as the divide stage batches them). */
const BATCH = 64;

type Parsed = { line: number; id: string | number } & ({ question: string; answer: string } | { error: string });

/**
 * One JSONL line as `{"id"?, "question"?, "answer"}`, or the reason it is not one.
 * @example parseClaimsLine('{"answer": "A dog."}', 3) // { line: 3, id: 3, question: '', answer: 'A dog.' }
 */
export function parseClaimsLine(text: string, line: number): Parsed {
  // A UTF-8 byte-order mark (some editors write one) is not part of the first line's JSON.
  const json = line === 1 ? text.replace(/^\uFEFF/, '') : text;
  if (json.trim() === '') return { line, id: line, error: `line ${line}: empty line` };
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    return { line, id: line, error: `line ${line}: not JSON (${(e as Error).message})` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { line, id: line, error: `line ${line}: not a JSON object` };
  const o = v as Record<string, unknown>;
  const hasId = o.id !== undefined && o.id !== null;
  if (hasId && typeof o.id !== 'string' && typeof o.id !== 'number') return { line, id: line, error: `line ${line}: "id" must be a string or a number` };
  const id = hasId ? (o.id as string | number) : line;
  if (o.question !== undefined && o.question !== null && typeof o.question !== 'string') return { line, id, error: `line ${line}: "question" must be a string, got ${typeName(o.question)}` };
  if (o.answer === undefined) return { line, id, error: `line ${line}: "answer" is missing` };
  if (typeof o.answer !== 'string') return { line, id, error: `line ${line}: "answer" must be a string, got ${typeName(o.answer)}` };
  return { line, id, question: (o.question as string | undefined) ?? '', answer: o.answer };
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** The output line of one input line from its division. */
function toLine(p: Parsed, out: DivideOutput | undefined): ClaimsLine {
  if ('error' in p) return { id: p.id, error: p.error };
  if (!out) return { id: p.id, error: `line ${p.line}: the divider gave no result` };
  if ('error' in out) return { id: p.id, error: `line ${p.line}: ${out.error}` };
  return {
    id: p.id,
    claims: out.claims.map((c) => ({ claim: c.claim, question: c.question, sentence: c.sentence, start: c.start, end: c.end })),
    skipped: out.skipped.map((s) => ({ sentence: s.sentence, reason: s.reason })),
    ...(out.truncated ? { truncated: true as const } : {}),
  };
}

/** Divides one batch; a divider call that fails fails its answers only (a fatal backend error ends the preview). */
async function divideBatch(divider: Divider, batch: Parsed[]): Promise<ClaimsLine[]> {
  const good = batch.filter((p): p is Extract<Parsed, { answer: string }> => !('error' in p));
  let outs: DivideOutput[] = [];
  if (good.length) {
    try {
      outs = await divider.divide(good.map((p) => ({ question: p.question, answer: p.answer })));
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      outs = good.map(() => ({ error: (e as Error).message }));
    }
  }
  let k = 0;
  return batch.map((p) => toLine(p, 'error' in p ? undefined : outs[k++]));
}

/**
 * Divides every line of `lines` with `divider` and hands each result to `emit` in input order. At most `inFlight`
 * batches are divided at once, so memory does not grow with the input.
 */
export async function divideLines(
  divider: Divider,
  lines: AsyncIterable<string>,
  emit: (l: ClaimsLine) => void | Promise<void>,
  inFlight = 2,
): Promise<ClaimsSummary> {
  const summary: ClaimsSummary = { lines: 0, failed: 0 };
  const window: Promise<ClaimsLine[]>[] = [];
  const drain = async () => {
    for (const l of await window.shift()!) {
      if ('error' in l) summary.failed++;
      await emit(l);
    }
  };
  let batch: Parsed[] = [];
  const send = async () => {
    const b = batch;
    batch = [];
    const p = divideBatch(divider, b);
    p.catch(() => {}); // awaited in order by drain; an early rejection must not be unhandled meanwhile
    window.push(p);
    if (window.length >= inFlight) await drain();
  };
  for await (const text of lines) {
    summary.lines++;
    batch.push(parseClaimsLine(text, summary.lines));
    if (batch.length >= BATCH) await send();
  }
  if (batch.length) await send();
  while (window.length) await drain();
  return summary;
}

/** The lines of a JSONL file, streamed; a file that is missing, a folder or unreadable is an input error naming it. */
export async function readLines(file: string): Promise<AsyncIterable<string>> {
  try {
    if ((await stat(file)).isDirectory()) throw new Error('it is a folder');
    const input = createReadStream(file, 'utf8');
    // Opening is asynchronous: wait for it so an unreadable file is this error, not a failure halfway through.
    await new Promise<void>((resolve, reject) => input.once('open', () => resolve()).once('error', reject));
    // The iterator is made now: it buffers the lines read before its caller starts (opening --out, say), which
    // readline would otherwise emit to no one.
    const lines = readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
    return { [Symbol.asyncIterator]: () => lines };
  } catch (e) {
    throw new InputError(`--in ${file}: cannot read it (${(e as Error).message})`);
  }
}

/**
 * Previews the configured divider on lines of answers (see readLines): builds it as a round does, divides, closes it.
 * @example await previewClaims(config, await readLines('answers.jsonl'), (l) => console.log(JSON.stringify(l)))
 */
export async function previewClaims(config: Config, lines: AsyncIterable<string>, emit: (l: ClaimsLine) => void | Promise<void>): Promise<ClaimsSummary> {
  const pool = config.divide.backend.type === 'rules' ? new WorkerPool(config.workers) : null;
  const divider = createDivider(config, pool);
  try {
    return await divideLines(divider, lines, emit, (pool?.size.workers ?? 1) * 2);
  } finally {
    await divider.close();
    await pool?.close();
  }
}
