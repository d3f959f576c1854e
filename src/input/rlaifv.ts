// RLAIF-V-Dataset rows (REFERENCE §7) as prompts, from Parquet or JSON Lines (rlaifv's own `export --format rlaifv`
// writes both): question and image make the prompt; ds_name, idx, origin_*, chosen/rejected and the rest go to meta.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import type { InputLimits, InputProblem, InputPrompt } from './prompts.js';
import { readParquetPrompts } from './parquet.js';
import { DEFAULT_COLUMNS, rowToPrompt } from './rows.js';
import { InputFileError, type ReaderOptions } from './reader.js';

/** Streams RLAIF-V-Dataset rows as prompts: a `.parquet` file row group by row group, anything else as JSON Lines. */
export async function* readRlaifvPrompts(
  file: string,
  limits: InputLimits,
  opts?: ReaderOptions,
): AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }> {
  if (/\.parquet$/i.test(file)) {
    yield* readParquetPrompts(file, limits, opts);
    return;
  }
  try {
    await stat(file);
  } catch {
    throw new InputFileError(`Prompts file ${file} does not exist.`);
  }
  const ctx = { dir: path.dirname(path.resolve(file)), limits, imagesDir: opts?.imagesDir, known: opts?.known, cols: { ...DEFAULT_COLUMNS, ...opts?.columns } };
  const rl = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    const source = `${file}:${++n}`;
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(n === 1 ? text.replace(/^\uFEFF/, '') : text);
    } catch (e) {
      yield { problem: { source, reason: `malformed JSON (${(e as Error).message})` } };
      continue;
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      yield { problem: { source, reason: 'the line must be a JSON object (an RLAIF-V-Dataset row)' } };
      continue;
    }
    yield await rowToPrompt(json as Record<string, unknown>, { ...ctx, source });
  }
}
