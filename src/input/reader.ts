// What every input reader takes and the error a whole unreadable input file raises.
import { InputError } from '../errors.js';
import type { KnownImages } from './check.js';

// The list lives in config/ (its schema validates input_format); readers take it from there.

/** Options every input reader takes (readPrompts' InputOptions plus the column mapping of data-set files). */
export interface ReaderOptions {
  /** The folder beside the store for byte-borne images (imageStoreDir of the db). */
  imagesDir: string;
  /** Column names where a data set's differ from image / question / id. */
  columns?: { image?: string; question?: string; id?: string };
  /** Images the store already holds (InputOptions.known): no reader decodes them again. */
  known?: KnownImages;
}

/** A whole input file cannot be read (missing, not Parquet, a column missing): the CLI exits 2, whatever on_error. */
export class InputFileError extends InputError {
  override name = 'InputFileError';
}
