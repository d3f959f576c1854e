// Reads a Parquet file with an independent implementation (parquet-wasm: arrow-rs compiled to WebAssembly) into plain
// JS values, so tests check our writer's files the way other tools will read them.
import { readFileSync } from 'node:fs';
import { readParquet } from 'parquet-wasm';
import { tableFromIPC, Vector } from 'apache-arrow';

/** Arrow values as plain JS: lists as arrays, structs as objects, binary as Buffer. */
function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (v instanceof Vector) return [...v].map(plain);
  if (typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return Object.fromEntries(Object.entries((v as { toJSON(): Record<string, unknown> }).toJSON()).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

/** The rows, the Arrow schema's field names and the key-value metadata of a Parquet file. */
export function readParquetFile(file: string): { rows: Record<string, unknown>[]; columns: string[]; metadata: Map<string, string> } {
  const table = tableFromIPC(readParquet(readFileSync(file)).intoIPCStream());
  return {
    rows: table.toArray().map((r) => plain(r) as Record<string, unknown>),
    columns: table.schema.fields.map((f) => f.name),
    metadata: table.schema.metadata,
  };
}
