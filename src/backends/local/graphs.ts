// The three ONNX graphs of a LLaVA folder driven directly: image encoder, token embeddings, decoder with a KV cache.
// The sessions are transformers.js's own (same files, same thread settings); only the feeds are built here.
import * as ort from 'onnxruntime-node';
import type { LlavaFolderInfo } from './model-folder.js';

/** The three inference sessions of a loaded LLaVA model. */
export interface LlavaSessions {
  vision: ort.InferenceSession;
  embed: ort.InferenceSession;
  decoder: ort.InferenceSession;
}

/**
 * A decoder key/value cache: per past input (`past_key_values.{i}.key/value`, in the decoder's input order) one
 * [rows, heads, length, headDim] block, row-major.
 */
export interface KvCache {
  rows: number;
  length: number;
  data: Float32Array[];
}

/** One decoder run's outputs: logits [rows, seq, vocab] and, when asked for, the cache including this run. */
export interface DecoderOut {
  logits: Float32Array;
  seq: number;
  vocab: number;
  cache: KvCache | null;
}

/** Feeds of one decoder run, all row-major. */
export interface DecoderFeeds {
  rows: number;
  seq: number;
  /** [rows, seq, hidden] */
  embeds: Float32Array;
  /** [rows, past + seq]: 1 for a real position, 0 for padding */
  mask: BigInt64Array;
  /** [rows, seq] */
  positions: BigInt64Array;
  /** the cache to continue from (its rows must equal `rows`), or null for none */
  past: KvCache | null;
}

/** Image features of one image: [tokens, hidden], row-major. */
export interface ImageFeatures {
  data: Float32Array;
  tokens: number;
}

// Embedding rows are kept per token id up to this many floats (64 MB); past it, ids not kept are looked up each time.
const MAX_KEPT_EMBED_FLOATS = 16 * 1024 * 1024;

/** Runs the graphs of one LLaVA model with plain typed arrays in and out. */
export class LlavaGraphs {
  readonly pastNames: string[];
  readonly presentNames: string[];
  readonly hidden: number;
  /** Floats one row's cache holds per position (every key and value block). */
  readonly cacheFloatsPerToken: number;
  private readonly heads: number;
  private readonly headDim: number;
  /** Embedding row of each token id seen so far (the embedding graph is a per-token lookup). */
  private readonly embedRows = new Map<number, Float32Array>();

  constructor(
    readonly info: LlavaFolderInfo,
    readonly sessions: LlavaSessions,
  ) {
    this.pastNames = sessions.decoder.inputNames.filter((n) => n.startsWith('past_key_values.'));
    this.presentNames = this.pastNames.map((n) => n.replace('past_key_values.', 'present.'));
    for (const n of this.presentNames) {
      if (!sessions.decoder.outputNames.includes(n)) throw new Error(`${info.dir}: the decoder has ${n.replace('present.', 'past_key_values.')} but no ${n} output.`);
    }
    for (const n of ['inputs_embeds', 'attention_mask', 'position_ids']) {
      if (!sessions.decoder.inputNames.includes(n)) throw new Error(`${info.dir}: the decoder has no ${n} input.`);
    }
    this.heads = info.numKvHeads;
    this.headDim = info.headDim;
    this.hidden = info.hiddenSize;
    this.cacheFloatsPerToken = this.pastNames.length * this.heads * this.headDim;
  }

  /** Image features [tokens, hidden] of one preprocessed image ([1, 3, h, w] pixel values). */
  async encodeImage(pixels: Float32Array, dims: readonly number[]): Promise<ImageFeatures> {
    return (await this.encodeImages(pixels, dims))[0]!;
  }

  /**
   * Image features [tokens, hidden] of each of n preprocessed images of one size ([n, 3, h, w] pixel values), in one
   * run of the image encoder (each image's features are what a run on it alone gives: the encoder is per image).
   */
  async encodeImages(pixels: Float32Array, dims: readonly number[]): Promise<ImageFeatures[]> {
    const s = this.sessions.vision;
    const n = dims[0]!;
    const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', pixels, dims) });
    const t = out[s.outputNames[0]!]!;
    const d = t.dims;
    if (d[0] !== n || d.at(-1) !== this.hidden) throw new Error(`${this.info.dir}: the image encoder gave dims [${d.join(', ')}], want [${n}, n, ${this.hidden}].`);
    const tokens = d.length === 3 ? d[1]! : 1;
    const data = t.data as Float32Array;
    if (n === 1) return [{ data, tokens }];
    const per = tokens * this.hidden;
    return Array.from({ length: n }, (_, i) => ({ data: data.subarray(i * per, (i + 1) * per), tokens }));
  }

  /** Token embeddings [rows, seq, hidden] of ids [rows, seq], from the embedding graph. */
  async embed(ids: BigInt64Array, rows: number, seq: number): Promise<Float32Array> {
    const s = this.sessions.embed;
    const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('int64', ids, [rows, seq]) });
    return out[s.outputNames[0]!]!.data as Float32Array;
  }

  /**
   * Embedding rows of the given token ids, by id. Ids met before come from memory; the others are looked up with
   * one run of the embedding graph (the same values it gives inside any batch: it is a per-token lookup).
   */
  async embedRowsOf(ids: Iterable<number>): Promise<Map<number, Float32Array>> {
    const rows = new Map<number, Float32Array>();
    const wanted = new Set<number>();
    for (const id of ids) {
      if (rows.has(id)) continue;
      const r = this.embedRows.get(id);
      if (r) rows.set(id, r);
      else wanted.add(id);
    }
    if (wanted.size > 0) {
      const missing = [...wanted];
      const h = this.hidden;
      const data = await this.embed(BigInt64Array.from(missing, BigInt), 1, missing.length);
      missing.forEach((id, k) => {
        const r = data.slice(k * h, (k + 1) * h);
        rows.set(id, r);
        if ((this.embedRows.size + 1) * h <= MAX_KEPT_EMBED_FLOATS) this.embedRows.set(id, r);
      });
    }
    return rows;
  }

  /** One decoder run; `withCache` also returns the present key/values (else only the logits are fetched). */
  async decode(f: DecoderFeeds, withCache: boolean): Promise<DecoderOut> {
    const pastLen = f.past ? f.past.length : 0;
    if (f.past && f.past.rows !== f.rows) throw new Error(`cache has ${f.past.rows} rows, the batch ${f.rows}`);
    const feeds: Record<string, ort.Tensor> = {
      inputs_embeds: new ort.Tensor('float32', f.embeds, [f.rows, f.seq, this.hidden]),
      attention_mask: new ort.Tensor('int64', f.mask, [f.rows, pastLen + f.seq]),
      position_ids: new ort.Tensor('int64', f.positions, [f.rows, f.seq]),
    };
    const pastDims = [f.rows, this.heads, pastLen, this.headDim];
    this.pastNames.forEach((n, i) => {
      feeds[n] = new ort.Tensor('float32', f.past ? f.past.data[i]! : new Float32Array(0), pastDims);
    });
    const fetch = withCache ? ['logits', ...this.presentNames] : ['logits'];
    const out = await this.sessions.decoder.run(feeds, fetch);
    const logits = out.logits!;
    const cache = withCache
      ? { rows: f.rows, length: pastLen + f.seq, data: this.presentNames.map((n) => out[n]!.data as Float32Array) }
      : null;
    return { logits: logits.data as Float32Array, seq: logits.dims[1]!, vocab: logits.dims[2]!, cache };
  }
}

/** A one-row cache repeated to `rows` rows (the shared prefix of a batch). */
export function repeatRows(c: KvCache, rows: number): KvCache {
  if (c.rows !== 1) throw new Error(`repeatRows wants a one-row cache, got ${c.rows} rows`);
  if (rows === 1) return c;
  return {
    rows,
    length: c.length,
    data: c.data.map((d) => {
      const out = new Float32Array(d.length * rows);
      for (let r = 0; r < rows; r++) out.set(d, r * d.length);
      return out;
    }),
  };
}

/** The cache of the given rows only, in that order (finished rows leave a batch). */
export function keepRows(c: KvCache, keep: readonly number[]): KvCache {
  if (keep.length === c.rows && keep.every((r, i) => r === i)) return c;
  return {
    rows: keep.length,
    length: c.length,
    data: c.data.map((d) => {
      const per = d.length / c.rows;
      const out = new Float32Array(per * keep.length);
      keep.forEach((r, i) => out.set(d.subarray(r * per, (r + 1) * per), i * per));
      return out;
    }),
  };
}

/** The logits of row `row` at position `pos` of a [rows, seq, vocab] block (a copy). */
export function logitsAt(o: DecoderOut, row: number, pos: number): Float32Array {
  const at = (row * o.seq + pos) * o.vocab;
  return o.logits.slice(at, at + o.vocab);
}
