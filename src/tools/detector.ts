// The detector tool: a zero-shot object detector (OWL-ViT layout) a user brings as a folder, run through
// transformers.js's zero-shot-object-detection pipeline; its boxes read into a knowledge record. No such model ships.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COLORS, SHAPES, type Color, type Shape } from '../shapes/vocabulary.js';
import type { Knowledge } from '../shapes/knowledge.js';
import { cellOf } from './segment.js';
import type { Tool } from './types.js';
import { zeroShotDetector, type Detection } from '../backends/local/zero-shot-detector.js';

/** The model types transformers.js runs as zero-shot object detectors (its MODEL_FOR_ZERO_SHOT_OBJECT_DETECTION). */
export const DETECTOR_MODEL_TYPES = ['owlvit', 'owlv2', 'grounding-dino'] as const;

export type { Detection };

/** The queries the detector is asked: every colour–shape phrase of the shapes world ("red circle"). */
export const DETECTOR_LABELS: readonly string[] = COLORS.flatMap((c) => SHAPES.map((s) => `${c} ${s}`));

/**
 * Checks a detector folder has what the pipeline loads offline: config.json of a zero-shot detection model type,
 * preprocessor_config.json, tokenizer.json and onnx/model.onnx (or model_quantized.onnx). Throws naming the folder
 * and everything missing.
 */
export function inspectDetectorFolder(dir: string): { dtype: 'fp32' | 'q8' } {
  if (!existsSync(dir)) throw new Error(`detector folder ${dir} does not exist`);
  const problems: string[] = [];
  const config = path.join(dir, 'config.json');
  if (!existsSync(config)) problems.push('config.json');
  else {
    let type: unknown;
    try {
      type = (JSON.parse(readFileSync(config, 'utf8')) as { model_type?: unknown }).model_type;
    } catch (e) {
      problems.push(`a readable config.json (${(e as Error).message})`);
    }
    if (type !== undefined && !(DETECTOR_MODEL_TYPES as readonly unknown[]).includes(type)) {
      problems.push(`a zero-shot detection model_type in config.json (got ${JSON.stringify(type)}; allowed: ${DETECTOR_MODEL_TYPES.join(', ')})`);
    }
  }
  for (const f of ['preprocessor_config.json', 'tokenizer.json']) if (!existsSync(path.join(dir, f))) problems.push(f);
  const fp32 = existsSync(path.join(dir, 'onnx', 'model.onnx'));
  const q8 = existsSync(path.join(dir, 'onnx', 'model_quantized.onnx'));
  if (!fp32 && !q8) problems.push('onnx/model.onnx (or onnx/model_quantized.onnx)');
  if (problems.length) {
    throw new Error(`detector folder ${dir} lacks what transformers.js's zero-shot-object-detection pipeline needs: ${problems.join(', ')} (an OWL-ViT export in the Xenova/owlvit-base-patch32 layout has them all)`);
  }
  return { dtype: fp32 ? 'fp32' : 'q8' };
}

function iou(a: Detection['box'], b: Detection['box']): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const area = (x: Detection['box']) => (x.xmax - x.xmin) * (x.ymax - x.ymin);
  return inter / (area(a) + area(b) - inter);
}

// At 64×64 a small shape's box is at most ~12 px across, a large one's at least ~15 (as the segmenter measures).
const LARGE_EXTENT_64 = 13.5;

/**
 * Detections to knowledge: kept when they reach `threshold`, overlapping boxes (IoU ≥ 0.5, whatever their label)
 * suppressed in favour of the highest score, each box an object whose colour and shape come from its label's words
 * (null where the label names none), its cell from the box centre and its size from the box's larger side.
 * @example detectionsToKnowledge([{ score: 0.4, label: 'red circle', box: { xmin: 2, ymin: 2, xmax: 19, ymax: 19 } }], 64, 64, 0.1)
 */
export function detectionsToKnowledge(dets: readonly Detection[], width: number, height: number, threshold: number): Knowledge {
  const kept: Detection[] = [];
  for (const d of [...dets].filter((x) => x.score >= threshold).sort((a, b) => b.score - a.score)) {
    if (kept.every((k) => iou(k.box, d.box) < 0.5)) kept.push(d);
  }
  return {
    objects: kept.map((d) => {
      const words = d.label.toLowerCase().split(/[^a-z]+/);
      const extent = Math.max(d.box.xmax - d.box.xmin, d.box.ymax - d.box.ymin);
      return {
        shape: (SHAPES as readonly string[]).find((s) => words.includes(s)) as Shape | undefined ?? null,
        color: (COLORS as readonly string[]).find((c) => words.includes(c)) as Color | undefined ?? null,
        size: extent >= (LARGE_EXTENT_64 * width) / 64 ? 'large' : 'small',
        position: cellOf((d.box.xmin + d.box.xmax) / 2, (d.box.ymin + d.box.ymax) / 2, width, height),
      };
    }),
  };
}

/** A zero-shot detector folder as a knowledge tool (loaded on first use, offline). */
export class DetectorTool implements Tool {
  readonly name: string;
  readonly id: string;
  private readonly detect: ReturnType<typeof zeroShotDetector>;

  constructor(private readonly opts: { name: string; model: string; threshold: number }) {
    this.name = opts.name;
    this.detect = zeroShotDetector(opts.model, inspectDetectorFolder(opts.model).dtype);
    this.id = `detector:${path.basename(opts.model)}@${opts.threshold}`;
  }

  async know(imagePath: string): Promise<Knowledge> {
    const { detections, width, height } = await this.detect(imagePath, [...DETECTOR_LABELS], this.opts.threshold);
    return detectionsToKnowledge(detections, width, height, this.opts.threshold);
  }
}
