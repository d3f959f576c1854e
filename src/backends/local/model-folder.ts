// Checks a local model folder before any runtime touches it, so a missing file is named plainly.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Files a LLaVA-layout folder must hold for transformers.js to load it offline. */
export const LLAVA_FILES = [
  'config.json',
  'preprocessor_config.json',
  'processor_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'generation_config.json',
  'onnx/vision_encoder.onnx',
  'onnx/embed_tokens.onnx',
  'onnx/decoder_model_merged.onnx',
] as const;

/** What rlaifv reads from a model folder's config.json. */
export interface LlavaFolderInfo {
  dir: string;
  /** A stable id for provenance: `_name_or_path` from config.json, else the folder name. */
  modelId: string;
  imageTokenIndex: number;
  numLayers: number;
  numKvHeads: number;
  headDim: number;
  hiddenSize: number;
  eosTokenId: number;
  /** The longest sequence (prompt + answer) the decoder was built for. */
  maxPositions: number;
}

/** Validates a LLaVA model folder and reads its shape; throws an Error naming the folder and the missing or bad file. */
export function inspectLlavaFolder(dir: string): LlavaFolderInfo {
  const abs = path.resolve(dir);
  if (!existsSync(abs)) throw new Error(`Model folder ${dir} does not exist (resolved to ${abs}).`);
  const missing = LLAVA_FILES.filter((f) => !existsSync(path.join(abs, f)));
  if (missing.length > 0) {
    throw new Error(
      `Model folder ${dir} is missing ${missing.join(', ')}; a LLaVA folder needs: ${LLAVA_FILES.join(', ')}.`,
    );
  }
  let cfg: Record<string, any>;
  try {
    cfg = JSON.parse(readFileSync(path.join(abs, 'config.json'), 'utf8'));
  } catch (e) {
    throw new Error(`Model folder ${dir}: config.json is not valid JSON (${(e as Error).message}).`);
  }
  if (cfg.model_type !== 'llava') {
    throw new Error(`Model folder ${dir}: config.json has model_type ${JSON.stringify(cfg.model_type)}; must be "llava".`);
  }
  const t = cfg.text_config ?? {};
  const need = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new Error(`Model folder ${dir}: config.json field ${field} must be a number.`);
    }
    return v;
  };
  const heads = need(t.num_attention_heads, 'text_config.num_attention_heads');
  const hidden = need(t.hidden_size, 'text_config.hidden_size');
  return {
    dir: abs,
    modelId: typeof cfg._name_or_path === 'string' && cfg._name_or_path ? cfg._name_or_path : path.basename(abs),
    imageTokenIndex: need(cfg.image_token_index ?? cfg.image_token_id, 'image_token_index'),
    numLayers: need(t.num_hidden_layers, 'text_config.num_hidden_layers'),
    numKvHeads: need(t.num_key_value_heads ?? heads, 'text_config.num_key_value_heads'),
    headDim: need(t.head_dim ?? hidden / heads, 'text_config.head_dim'),
    hiddenSize: hidden,
    eosTokenId: need(t.eos_token_id ?? cfg.eos_token_id, 'eos_token_id'),
    maxPositions: need(t.max_position_embeddings ?? 4096, 'text_config.max_position_embeddings'),
  };
}
