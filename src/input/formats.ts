// The input readers by name: the prompts file's format comes from its extension or from `input_format`.
import { ConfigError } from '../config/load.js';
import { readParquetPrompts } from './parquet.js';
import { readPrompts, type InputLimits, type InputProblem, type InputPrompt } from './prompts.js';
import { INPUT_FORMATS } from '../config/input-formats.js';
import type { ReaderOptions } from './reader.js';
import { readRlaifvPrompts } from './rlaifv.js';
import { readLlavaPrompts } from './llava.js';

export { INPUT_FORMATS };
/** An input format name. */
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** A reader: streams a file's prompts, each bad line or row a problem naming where it is (as readPrompts does). */
export type InputReader = (
  file: string,
  limits: InputLimits,
  opts: ReaderOptions,
) => AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }>;

const READERS: Record<Exclude<InputFormat, 'auto'>, InputReader> = {
  jsonl: readPrompts,
  parquet: readParquetPrompts,
  rlaifv: readRlaifvPrompts,
  llava: readLlavaPrompts,
};

const BY_EXTENSION: Record<string, Exclude<InputFormat, 'auto'>> = { '.jsonl': 'jsonl', '.json': 'llava', '.parquet': 'parquet' };

/**
 * The format a prompts file is read as: the one named, or for 'auto' the one its extension says (.jsonl, .json: llava,
 * .parquet; anything else JSONL).
 * @example inputFormatFor('train.parquet', 'auto') // 'parquet'
 */
export function inputFormatFor(file: string, format: string): Exclude<InputFormat, 'auto'> {
  if (!(INPUT_FORMATS as readonly string[]).includes(format)) {
    throw new ConfigError(`Unknown input format ${format}; valid: ${INPUT_FORMATS.join(', ')}.`);
  }
  if (format !== 'auto') return format as Exclude<InputFormat, 'auto'>;
  const ext = /\.[^./\\]+$/.exec(file)?.[0]?.toLowerCase() ?? '';
  // Any other extension reads as JSONL, as every prompts file did before the other formats came.
  return BY_EXTENSION[ext] ?? 'jsonl';
}

/** Streams a prompts file's prompts through the reader its format names. */
export function readInput(file: string, format: string, limits: InputLimits, opts: ReaderOptions): ReturnType<InputReader> {
  return READERS[inputFormatFor(file, format)](file, limits, opts);
}
