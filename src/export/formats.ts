// The trainer formats (REFERENCE §7): one JSON record per kept pair, and for Parquet the schema, the row with the
// image bytes, and the Hugging Face `datasets` features that make the image columns decode as images.
import type { SchemaElement } from 'hyparquet-writer';
import type { ExportPair } from '../store/deliveries.js';
import type { Turn } from '../domain.js';
import { ExportInputError } from './errors.js';

/** The formats, as `--format` names them. */
export const FORMATS = ['trl', 'llamafactory', 'openrlhf', 'rlaifv'] as const;
/** A format name. */
export type FormatName = (typeof FORMATS)[number];
/** How the records are laid out in the file. */
export type Container = 'jsonl' | 'json' | 'parquet';

/** A trainer format. */
export interface Format {
  name: FormatName;
  /** The text container used when the output is not a `.parquet` file. */
  text: 'jsonl' | 'json';
  /** The record of one pair in the text container (images as paths). */
  record(p: ExportPair): unknown;
  /** The Parquet variant (images as bytes), when the format has one. */
  parquet?: {
    schema: SchemaElement[];
    columns: string[];
    /** The `huggingface` key-value metadata: `datasets` features, so image columns load as images. */
    features: Record<string, unknown>;
    row(p: ExportPair, image: Uint8Array): Record<string, unknown>;
  };
}

const string = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
const list = (name: string, element: SchemaElement[], elementChildren: number): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: elementChildren },
  ...element,
];
// An image as the `datasets` Image feature stores it: a struct of the encoded bytes and the path.
const imageStruct = (name: string): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', num_children: 2 },
  { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
  string('path'),
];
// A chat message list: [{role, content: [{type, text}]}].
const messages = (name: string): SchemaElement[] => list(name, [string('role'), ...list('content', [string('type'), string('text')], 2)], 2);

const value = { dtype: 'string', _type: 'Value' };
const messagesFeature = [{ role: value, content: [{ type: value, text: value }] }];

/** The claim spans of a pair when the export asked for them (extra columns; only rlaifv's shapes trainer reads them). */
const spans = (p: ExportPair) => (p.chosen_spans ? { chosen_spans: p.chosen_spans, rejected_spans: p.rejected_spans ?? [] } : {});

/**
 * The reference log-probs of a pair when the export asked for them, under TRL's names (its precomputed reference
 * columns, which OpenRLHF's and the shapes trainer read too): each side's summed token log-prob.
 */
const refLogps = (p: ExportPair) => (p.ref_chosen && p.ref_rejected ? { ref_chosen_logps: p.ref_chosen.sum, ref_rejected_logps: p.ref_rejected.sum } : {});

/**
 * The same under RLAIF-V's names (muffin/data/datasets.py, muffin/train/trainers.py): win is chosen, rej rejected;
 * the sum, the mean per token and each token's value. The per-token list covers the answer's tokens and its end token
 * only (RLAIF-V's own covers every position of its tokenized conversation).
 */
const rlaifvRefLogps = (p: ExportPair) =>
  p.ref_chosen && p.ref_rejected
    ? {
        ref_win_logp: p.ref_chosen.sum,
        ref_win_avg_logp: p.ref_chosen.sum / p.ref_chosen.tokens,
        ref_win_per_token_logp: p.ref_chosen.per_token,
        ref_rej_logp: p.ref_rejected.sum,
        ref_rej_avg_logp: p.ref_rejected.sum / p.ref_rejected.tokens,
        ref_rej_per_token_logp: p.ref_rejected.per_token,
      }
    : {};

/** Every user/assistant turn of a pair's prompt: the earlier turns (from the store), then the instruction. */
function turns(p: ExportPair): Turn[] {
  return [...(p.history_json ? (JSON.parse(p.history_json) as Turn[]) : []), { role: 'user', content: p.instruction }];
}

/** TRL's conversational vision DPO rows: every turn of the prompt (the image in the first user message), one-message answers. */
function trlMessages(p: ExportPair) {
  return {
    prompt: turns(p).map((t, i) => ({
      role: t.role,
      content: i === 0 ? [{ type: 'image' }, { type: 'text', text: t.content }] : [{ type: 'text', text: t.content }],
    })),
    chosen: [{ role: 'assistant', content: [{ type: 'text', text: p.chosen }] }],
    rejected: [{ role: 'assistant', content: [{ type: 'text', text: p.rejected }] }],
  };
}

// Parquet structs always carry every field; an image part's text is null, as `datasets` writes it.
const withText = (m: { role: string; content: { type: string; text?: string }[] }[]) =>
  m.map((x) => ({ role: x.role, content: x.content.map((c) => ({ type: c.type, text: c.text ?? null })) }));

const trl: Format = {
  name: 'trl',
  text: 'jsonl',
  record: (p) => ({ images: [p.image_path], ...trlMessages(p), ...spans(p), ...refLogps(p) }),
  parquet: {
    schema: [{ name: 'root', num_children: 4 }, ...list('images', imageStruct('element').slice(1), 2), ...messages('prompt'), ...messages('chosen'), ...messages('rejected')],
    columns: ['images', 'prompt', 'chosen', 'rejected'],
    features: {
      images: { feature: { _type: 'Image' }, _type: 'Sequence' },
      prompt: messagesFeature,
      chosen: messagesFeature,
      rejected: messagesFeature,
    },
    row: (p, image) => {
      const m = trlMessages(p);
      return {
        images: [{ bytes: image, path: p.image_path }],
        prompt: withText(m.prompt),
        chosen: withText(m.chosen),
        rejected: withText(m.rejected),
      };
    },
  },
};

/** LLaMA-Factory's sharegpt ranking rows; `<image>` marks where the image goes, as its multimodal data requires. */
const llamafactory: Format = {
  name: 'llamafactory',
  text: 'json',
  record: (p) => ({
    conversations: turns(p).map((t, i) => ({ from: t.role === 'user' ? 'human' : 'gpt', value: i === 0 ? `<image>${t.content}` : t.content })),
    chosen: { from: 'gpt', value: p.chosen },
    rejected: { from: 'gpt', value: p.rejected },
    images: [p.image_path],
    ...spans(p),
    ...refLogps(p),
  }),
};

/** OpenRLHF's preference rows: whole conversations (the prompt is chosen[:-1]) and the score margin. */
const openrlhf: Format = {
  name: 'openrlhf',
  text: 'jsonl',
  record: (p) => ({
    chosen: [...turns(p), { role: 'assistant', content: p.chosen }],
    rejected: [...turns(p), { role: 'assistant', content: p.rejected }],
    margin: p.margin,
    images: [p.image_path],
    ...spans(p),
    ...refLogps(p),
  }),
};

/** origin_split of an RLAIF-V-Dataset row: a JSON string with the models that made the pair, and where it came from. */
function originSplit(p: ExportPair): string {
  let meta: Record<string, unknown> | null = null;
  try {
    meta = p.meta_json ? (JSON.parse(p.meta_json) as Record<string, unknown>) : null;
  } catch {
    meta = null;
  }
  const type = meta && typeof meta === 'object' ? (meta.type ?? meta.kind ?? null) : null;
  return JSON.stringify({
    model: p.policy_model,
    feedback_model: p.labeler_model,
    type,
    round: p.round,
    method: p.method,
    prompt_id: p.prompt_id,
    chosen_score: p.chosen_score,
    rejected_score: p.rejected_score,
    margin: p.margin,
  });
}

/**
 * A correction pair's kind, editor and edit list (JSON rows of the rlaifv format; a rank pair's row is as before):
 * edits are [{sentence, old, new, claim_ids, source_id?}], new null for a dropped sentence.
 */
const correction = (p: ExportPair) =>
  p.kind === 'correction' ? { kind: p.kind, editor: p.editor ?? null, edits: JSON.parse(p.edits_json ?? '[]') as unknown } : {};

/** The prompts file a pair's prompt came from (its `file:line` without the line). */
const sourceFile = (p: ExportPair) => p.prompt_source.replace(/:\d+$/, '');

/** An RLAIF-V row; `history` (the turns before `question`) is in every Parquet row, and in JSONL rows when there are turns. */
function rlaifvRecord(p: ExportPair, image: { bytes: Uint8Array | null; path: string }, alwaysHistory = false) {
  const history = turns(p).slice(0, -1);
  return {
    ...(alwaysHistory || history.length > 0 ? { history } : {}),
    ds_name: 'rlaifv',
    image,
    question: p.instruction,
    chosen: p.chosen,
    rejected: p.rejected,
    origin_dataset: sourceFile(p),
    origin_split: originSplit(p),
    idx: p.pair_id,
    image_path: p.image_path,
  };
}

const RLAIFV_COLUMNS = ['ds_name', 'image', 'question', 'chosen', 'rejected', 'origin_dataset', 'origin_split', 'idx', 'image_path', 'history'];

/** RLAIF-V-Dataset rows (openbmb/RLAIF-V-Dataset's columns); in JSONL the image is its path, bytes null. */
const rlaifv: Format = {
  name: 'rlaifv',
  text: 'jsonl',
  record: (p) => ({ ...rlaifvRecord(p, { bytes: null, path: p.image_path }), ...correction(p), ...spans(p), ...rlaifvRefLogps(p) }),
  parquet: {
    schema: [
      { name: 'root', num_children: RLAIFV_COLUMNS.length },
      string('ds_name'),
      ...imageStruct('image'),
      ...['question', 'chosen', 'rejected', 'origin_dataset', 'origin_split', 'idx', 'image_path'].map(string),
      ...list('history', [string('role'), string('content')], 2),
    ],
    columns: RLAIFV_COLUMNS,
    features: Object.fromEntries(
      RLAIFV_COLUMNS.map((c) => [c, c === 'image' ? { _type: 'Image' } : c === 'history' ? [{ role: value, content: value }] : value]),
    ),
    row: (p, image) => rlaifvRecord(p, { bytes: image, path: p.image_path }, true),
  },
};

const REGISTRY: Record<FormatName, Format> = { trl, llamafactory, openrlhf, rlaifv };

/** A format by name; the error lists the valid names. */
export function getFormat(name: string): Format {
  if (!(FORMATS as readonly string[]).includes(name)) {
    throw new ExportInputError(`Unsupported format: ${name}. Must be one of [${FORMATS.join(', ')}].`);
  }
  return REGISTRY[name as FormatName];
}

/**
 * The container an output gets: Parquet for a `.parquet` file (formats with a Parquet variant), else the format's
 * text container (JSON Lines; one JSON array for llamafactory).
 * @example containerFor(getFormat('trl'), 'pairs.parquet') // 'parquet'
 */
export function containerFor(f: Format, out: string): Container {
  if (/\.parquet$/i.test(out)) {
    if (!f.parquet) {
      throw new ExportInputError(`Format ${f.name} has no Parquet variant; write it to a .${f.text} file (Parquet: trl, rlaifv).`);
    }
    return 'parquet';
  }
  return f.text;
}

/** The schema pieces of `datasets`-style Parquet (a string column, an Image struct), for other writers of it. */
export const parquetColumns = { string, imageStruct };
