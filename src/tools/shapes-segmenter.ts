// The shapes segmenter tool: the objects of a shapes-world render from its pixels alone (src/tools/segment.ts).
import { readFile } from 'node:fs/promises';
import { decodePlainPng } from '../image/png.js';
import type { Knowledge } from '../shapes/knowledge.js';
import { segmentKnowledge, type Pixels } from './segment.js';
import type { Tool } from './types.js';

/** Reads an image file's RGB(A) pixels: plain PNGs directly, anything else through sharp. */
export async function readPixels(imagePath: string): Promise<Pixels> {
  const bytes = await readFile(imagePath);
  const png = decodePlainPng(bytes);
  if (png) return png;
  // sharp only for an image that is not a plain PNG (loaded here: 0.16 s of CPU a process otherwise pays at start).
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Finds the shapes' pixels and reports the object count and each object's colour, size and cell; the shape only with
 * `shapeHeuristic` (else null, as class-free masks leave it). Reads the image file and nothing else.
 * @example await new ShapesSegmenter({ name: 'shapes-segmenter', shapeHeuristic: false }).know('data/shapes/dev/images/dev-0000.png')
 */
export class ShapesSegmenter implements Tool {
  readonly name: string;
  readonly id: string;
  private readonly shapeHeuristic: boolean;

  constructor(opts: { name: string; shapeHeuristic: boolean }) {
    this.name = opts.name;
    this.shapeHeuristic = opts.shapeHeuristic;
    this.id = `shapes-segmenter@1${opts.shapeHeuristic ? '+shape-heuristic' : ''}`;
  }

  async know(imagePath: string): Promise<Knowledge> {
    return segmentKnowledge(await readPixels(imagePath), { shapeHeuristic: this.shapeHeuristic });
  }
}
