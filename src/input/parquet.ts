// Reading prompts from Parquet as Hugging Face `datasets` writes it, one row group at a time so memory stays flat:
// an image column (the Image feature's {bytes, path} struct, plain bytes or a path), a question column, an optional
// id column; every other column goes to meta. Rows are named `file.parquet:row N` (1-based).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FileMetaData } from 'hyparquet';
import type { InputLimits, InputProblem, InputPrompt } from './prompts.js';
import { DEFAULT_COLUMNS, rowToPrompt, type ColumnMap } from './rows.js';
import { InputFileError, type ReaderOptions } from './reader.js';

// hyparquet decodes Snappy (pyarrow's and so `datasets`' default) itself; Node's zlib adds gzip and Brotli. ZSTD has no
// decoder in Node 20: such a file is refused with the codec named.
const COMPRESSORS = {
  GZIP: (b: Uint8Array) => new Uint8Array(gunzipSync(b)),
  BROTLI: (b: Uint8Array) => new Uint8Array(brotliDecompressSync(b)),
};

const FLAGS: Record<keyof ColumnMap, string> = { image: '--image-column', question: '--question-column', id: '--id-column' };

/** The column the `datasets` features mark as the one Image column, when there is exactly one. */
function featureImageColumn(meta: FileMetaData): string | undefined {
  const hf = meta.key_value_metadata?.find((kv) => kv.key === 'huggingface')?.value;
  try {
    const features = (JSON.parse(hf ?? '{}') as { info?: { features?: Record<string, { _type?: string }> } }).info?.features ?? {};
    const images = Object.entries(features).filter(([, f]) => f?._type === 'Image').map(([k]) => k);
    return images.length === 1 ? images[0] : undefined;
  } catch {
    return undefined;
  }
}

/** The columns to read, checked against the file's: a missing one names what the file has and the flag to map it. */
function resolveColumns(file: string, meta: FileMetaData, given: Partial<ColumnMap>, parquetSchema: typeof import('hyparquet').parquetSchema): ColumnMap {
  const have = parquetSchema(meta).children.map((c) => c.element.name);
  const cols: ColumnMap = { ...DEFAULT_COLUMNS, ...given };
  if (!given.image && !have.includes(cols.image)) cols.image = featureImageColumn(meta) ?? cols.image;
  for (const k of ['image', 'question', 'id'] as const) {
    if (have.includes(cols[k]) || (k === 'id' && !given.id)) continue;
    throw new InputFileError(
      `${file}: no ${k} column "${cols[k]}" (its columns: ${have.join(', ')}); ` +
        `name the ${k} column with ${FLAGS[k]} COLUMN (config input_columns.${k})`,
    );
  }
  return cols;
}

/** Streams prompts from a Parquet file, row group by row group; each bad row yields a problem naming file:row N. */
export async function* readParquetPrompts(
  file: string,
  limits: InputLimits,
  opts?: ReaderOptions,
): AsyncGenerator<{ prompt: InputPrompt } | { problem: InputProblem }> {
  try {
    await stat(file);
  } catch {
    throw new InputFileError(`Prompts file ${file} does not exist.`);
  }
  // Loaded here, not at the top: a command that reads no Parquet file (or refuses its input first) never loads it.
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import('hyparquet');
  const buf = await asyncBufferFromFile(file);
  let meta: FileMetaData;
  try {
    meta = await parquetMetadataAsync(buf);
  } catch (e) {
    throw new InputFileError(`${file} is not a readable Parquet file (${(e as Error).message})`);
  }
  const cols = resolveColumns(file, meta, opts?.columns ?? {}, parquetSchema);
  const ctx = { dir: path.dirname(path.resolve(file)), limits, imagesDir: opts?.imagesDir, known: opts?.known, cols };
  let start = 0;
  for (const [g, group] of meta.row_groups.entries()) {
    const end = start + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      // utf8: false keeps un-annotated binary (image bytes) as bytes; UTF8 columns still come as strings.
      rows = await parquetReadObjects({ file: buf, metadata: meta, rowStart: start, rowEnd: end, utf8: false, compressors: COMPRESSORS });
    } catch (e) {
      throw new InputFileError(`${file}: row group ${g + 1} (rows ${start + 1}-${end}) cannot be read (${(e as Error).message})`);
    }
    for (const [i, row] of rows.entries()) yield await rowToPrompt(row, { ...ctx, source: `${file}:row ${start + i + 1}` });
    start = end;
  }
}
