// Writing pairs in a format to a file descriptor or a stream: streamed row by row (Parquet: row group by row group),
// every byte counted and hashed so a delivery records exactly what it wrote.
import { createHash } from 'node:crypto';
import { fsyncSync, readFileSync, writeSync } from 'node:fs';
import type { ExportPair } from '../store/deliveries.js';
import type { Container, Format } from './formats.js';
import { ExportInputError } from './errors.js';

const FLUSH_BYTES = 1 << 20;
// Rows per Parquet row group: a group is held in memory with its images, so keep it small (as `datasets` does for
// image columns).
const PARQUET_ROW_GROUP = 100;

/** A stream error as the user sees it: a reader that went away (`| head`) is named as such. */
function closed(e: Error): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== 'EPIPE' && code !== 'ERR_STREAM_DESTROYED') return e;
  return new Error(`the output was closed by its reader before every pair was written (${code}); nothing was recorded as delivered.`);
}

/** Where bytes go: a file descriptor (written synchronously, fsynced at the end) or a stream such as stdout. */
export type Sink = { fd: number } | { stream: NodeJS.WritableStream };

/** A buffered, counting, hashing writer over a sink. */
export class Output {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private chunks: Buffer[] = [];
  private buffered = 0;
  private streamError: Error | null = null;
  private readonly onError = (e: Error) => {
    this.streamError = e;
  };

  constructor(private readonly sink: Sink) {
    // A closed pipe (EPIPE) must fail the write, not crash the process with an unhandled 'error' event.
    if ('stream' in sink) sink.stream.on('error', this.onError);
  }

  /** Appends bytes (a string is written as UTF-8). */
  async write(chunk: string | Uint8Array): Promise<void> {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    this.hash.update(b);
    this.bytes += b.length;
    this.chunks.push(b);
    this.buffered += b.length;
    if (this.buffered >= FLUSH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const b = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    if ('fd' in this.sink) {
      for (let off = 0; off < b.length; ) off += writeSync(this.sink.fd, b, off, b.length - off);
      return;
    }
    if (this.streamError) throw closed(this.streamError);
    const stream = this.sink.stream;
    await new Promise<void>((resolve, reject) => stream.write(b, (e) => (e ? reject(closed(e)) : resolve())));
  }

  /** Writes what is buffered and makes it durable (fsync for a file; the last write's callback for a stream). */
  async finish(): Promise<{ bytes: number; sha256: string }> {
    try {
      await this.flush();
      if ('fd' in this.sink) fsyncSync(this.sink.fd);
      else if (this.streamError) throw closed(this.streamError);
    } finally {
      if ('stream' in this.sink) this.sink.stream.off('error', this.onError);
    }
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}

/**
 * An image's bytes for a Parquet row, checked against the id it was stored under (sha256 of the bytes), so the file
 * carries the very image the answers were made from.
 */
function imageBytes(p: ExportPair): Uint8Array {
  let bytes: Buffer;
  try {
    bytes = readFileSync(p.image_path);
  } catch (e) {
    throw new ExportInputError(
      `image ${p.image_path} of prompt ${p.prompt_id} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); ` +
        'Parquet outputs carry the image bytes: put the image back, or export JSON Lines (image paths).',
    );
  }
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  if (id !== p.image_id) {
    throw new ExportInputError(
      `image ${p.image_path} of prompt ${p.prompt_id} changed since the round read it (sha256 ${id}…, stored ${p.image_id}…).`,
    );
  }
  return bytes;
}

// hyparquet-writer 0.17 writes an empty thrift list without a struct element type; a file without row groups then
// has `row_groups` typed as a list of something else, which readers built on arrow-rs (parquet-wasm, DataFusion)
// refuse. The list header right after `num_rows = 0` (compact protocol: 0x16 0x00 = field 3 i64 zero, 0x19 = field 4
// list) is made "0 elements of struct" (0x0C). Only applied to a file with no rows, whose footer has nothing else of
// that shape before it (the schema before it holds only our fixed ASCII column names).
function fixEmptyRowGroups(bytes: Uint8Array): void {
  for (let i = 4; i + 3 < bytes.length; i++) {
    if (bytes[i] === 0x16 && bytes[i + 1] === 0x00 && bytes[i + 2] === 0x19 && bytes[i + 3]! >> 4 === 0) {
      bytes[i + 3] = 0x0c;
      return;
    }
  }
  throw new Error('Parquet writer: the footer of an empty file has an unexpected layout (row_groups not found).');
}

/**
 * hyparquet-writer's writer, flushing each finished row group to an Output, with its row writer. The library (and
 * hyparquet under it, about 120 modules) is loaded here only, so a pull or export to JSONL or JSON never loads it.
 */
async function parquetWriter(out: Output, isEmpty: () => boolean) {
  const { ByteWriter, parquetWriteRows } = await import('hyparquet-writer');
  class OutputWriter extends ByteWriter {
    constructor() {
      super(1 << 20);
    }

    flush(): Promise<void> {
      const b = this.getBytes().slice();
      this.index = 0;
      return out.write(b);
    }

    override finish(): Promise<void> {
      if (isEmpty()) fixEmptyRowGroups(this.getBytes());
      return this.flush();
    }
  }
  return { writer: new OutputWriter(), parquetWriteRows };
}

/**
 * Writes pairs in a format and container to an Output; returns the pair ids in file order.
 * @example await writePairs(iterateKeptPairs(db, [1]), getFormat('trl'), 'jsonl', new Output({ fd }))
 */
export async function writePairs(source: Iterable<ExportPair>, format: Format, container: Container, out: Output): Promise<string[]> {
  // A store cursor keeps its statement busy until closed: close it however writing ends.
  const it = source[Symbol.iterator]();
  const rows: Iterable<ExportPair> = { [Symbol.iterator]: () => it };
  try {
    return await write(rows, format, container, out);
  } finally {
    it.return?.();
  }
}

async function write(rows: Iterable<ExportPair>, format: Format, container: Container, out: Output): Promise<string[]> {
  const ids: string[] = [];
  if (container === 'parquet') {
    const pq = format.parquet;
    if (!pq) throw new ExportInputError(`Format ${format.name} has no Parquet variant.`);
    let lastImage: { id: string; bytes: Uint8Array } | null = null;
    function* parquetRows() {
      for (const p of rows) {
        // Pairs of one prompt come together and share its image: read it once.
        if (lastImage?.id !== p.image_id) lastImage = { id: p.image_id, bytes: imageBytes(p) };
        ids.push(p.pair_id);
        yield pq!.row(p, lastImage.bytes);
      }
    }
    const { writer, parquetWriteRows } = await parquetWriter(out, () => ids.length === 0);
    await parquetWriteRows({
      writer,
      rows: parquetRows(),
      columns: pq.columns.map((name) => ({ name })),
      schema: pq.schema,
      rowGroupSize: PARQUET_ROW_GROUP,
      kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features: pq.features } }) }],
      createdBy: 'rlaifv',
    });
    return ids;
  }
  if (container === 'json') await out.write('[');
  for (const p of rows) {
    const line = JSON.stringify(format.record(p));
    if (container === 'json') await out.write(ids.length === 0 ? `\n${line}` : `,\n${line}`);
    else await out.write(line + '\n');
    ids.push(p.pair_id);
  }
  if (container === 'json') await out.write(ids.length === 0 ? ']\n' : '\n]\n');
  return ids;
}
