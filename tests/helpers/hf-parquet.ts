// Writes Parquet files in the exact layout Hugging Face `datasets` writes (the Image feature's {bytes, path} struct,
// the `huggingface` key-value metadata with the features), with hyparquet-writer and the exporter's schema pieces.
import type { SchemaElement } from 'hyparquet-writer';
import { fileWriter, parquetWriteRows } from 'hyparquet-writer';
import { parquetColumns } from '../../src/export/formats.js';

/** A column: an Image struct, a string, plain binary, or a 64-bit integer (values as bigint). */
export interface HfColumn {
  name: string;
  type: 'image' | 'string' | 'binary' | 'int';
}

const FEATURES = {
  image: { _type: 'Image' },
  string: { dtype: 'string', _type: 'Value' },
  binary: { dtype: 'binary', _type: 'Value' },
  int: { dtype: 'int64', _type: 'Value' },
};

function schemaOf(c: HfColumn): SchemaElement[] {
  if (c.type === 'image') return parquetColumns.imageStruct(c.name);
  if (c.type === 'string') return [parquetColumns.string(c.name)];
  if (c.type === 'binary') return [{ name: c.name, type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }];
  return [{ name: c.name, type: 'INT64', repetition_type: 'OPTIONAL' }];
}

/** Writes rows (any iterable, pulled one row group at a time) to a `datasets`-layout Parquet file (Snappy, or `codec`). */
export async function writeHfParquet(
  file: string,
  columns: HfColumn[],
  rows: Iterable<Record<string, unknown>>,
  rowGroupSize = 100,
  codec?: { name: 'GZIP' | 'BROTLI'; compress(b: Uint8Array): Uint8Array },
): Promise<void> {
  await parquetWriteRows({
    writer: fileWriter(file),
    rows,
    columns: columns.map((c) => ({ name: c.name })),
    schema: [{ name: 'root', num_children: columns.length }, ...columns.flatMap(schemaOf)],
    rowGroupSize,
    ...(codec ? { codec: codec.name, compressors: { [codec.name]: codec.compress } } : {}),
    kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features: Object.fromEntries(columns.map((c) => [c.name, FEATURES[c.type]])) } }) }],
  });
}
