// First-token logits of many questions about many images, as the labeler scores yes/no questions: the images are
// encoded together, the prompt prefix they share is run once as rows of one batch, and the questions continue from
// their own image's row in batches of similar length.
import type { RawImage } from '@huggingface/transformers';
import { commonPrefixLength, continuationLogitsAcross, DEFAULT_PLAN, extendPrefixRows, type BatchPlanOptions, type ContinuationRow } from '../batched.js';
import type { EncodedImage } from './encoding.js';
import type { LlavaParts } from './parts.js';

/** One image and the questions asked about it. */
export interface ImageQuestions {
  image: RawImage;
  questions: readonly string[];
}

/** LlavaModel.imagesQuestionLogits: first-token logits per question per image, errors kept per question. */
export async function imagesQuestionLogits(m: LlavaParts, items: readonly ImageQuestions[], plan: BatchPlanOptions = DEFAULT_PLAN): Promise<(Float32Array | Error)[][]> {
  const encs = await m.encoder.encodeImages(items.map((it) => it.image));
  // Per image, one row per distinct question; rows that can run, by image-token count (their prefix ids agree).
  const results: (Float32Array | Error)[][] = [];
  const rowOf: Map<string, number>[] = [];
  const groups = new Map<number, { item: number; row: number; ids: readonly number[] }[]>();
  items.forEach((it, i) => {
    const enc = encs[i]!;
    const rows = new Map<string, number>();
    const res: (Float32Array | Error)[] = [];
    for (const q of it.questions) {
      if (rows.has(q)) continue;
      const row = res.length;
      rows.set(q, row);
      if (enc instanceof Error) {
        res.push(enc);
        continue;
      }
      const ids = m.text.promptIds(q, enc.imageTokens);
      const bad = m.prefixes.promptProblem(ids, enc.features);
      res.push(bad ?? new Float32Array(0));
      if (bad) continue;
      let g = groups.get(enc.imageTokens);
      if (!g) groups.set(enc.imageTokens, (g = []));
      g.push({ item: i, row, ids });
    }
    results.push(res);
    rowOf.push(rows);
  });
  const features = (i: number) => (encs[i] as EncodedImage).features;
  for (const rows of groups.values()) {
    const prefixIds = rows[0]!.ids.slice(0, commonPrefixLength(rows.map((r) => r.ids)));
    const images = [...new Set(rows.map((r) => r.item))];
    const img = prefixIds.indexOf(m.info.imageTokenIndex);
    const head = await m.prefixes.fixedPrefix(img < 0 ? prefixIds : prefixIds.slice(0, img));
    const prefixRows = await extendPrefixRows(m.graphs, head, prefixIds, images.map(features));
    const prefixOf = new Map(images.map((i, k) => [i, prefixRows[k]!]));
    const conts: ContinuationRow[] = rows.map((r) => ({ ids: r.ids, features: features(r.item), prefix: prefixOf.get(r.item)! }));
    const logits = await continuationLogitsAcross(m.graphs, prefixIds.length, conts, plan);
    rows.forEach((r, k) => (results[r.item]![r.row] = logits[k]!));
  }
  return items.map((it, i) => it.questions.map((q) => results[i]![rowOf[i]!.get(q)!]!));
}
