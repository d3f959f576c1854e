// The shapes segmenter's pixel work: colour classes, connected components, and what each component measures.
import { COLORS, POSITIONS, type Color, type Position, type Shape, type Size } from '../shapes/vocabulary.js';
import type { Knowledge } from '../shapes/knowledge.js';

/** Decoded pixels, row-major, `channels` bytes a pixel (RGB first). */
export interface Pixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels: number;
}

/** The shapes world's palette (scripts/shapes/world.py COLORS) and background. */
const PALETTE: Record<Color, readonly [number, number, number]> = {
  red: [220, 40, 40],
  green: [40, 165, 60],
  blue: [40, 80, 220],
  yellow: [235, 205, 30],
  purple: [145, 60, 185],
  orange: [245, 135, 20],
};
const BACKGROUND = [245, 245, 245] as const;
// Squared RGB distance within which a pixel counts as a palette colour (half the closest palette pair's distance).
const MAX_COLOR_DIST2 = 45 ** 2;
// At 64×64 a small shape covers at least ~30 pixels; a few stray pixels are not an object.
const MIN_AREA_64 = 8;
// A small shape's box is at most ~11.5 pixels across at 64×64, a large one's at least ~15 (world.py: r 4.5 vs 8.5; 2,000 train images: 12 vs 15).
const LARGE_EXTENT_64 = 13.5;

/** What one found object measures (kept for the tool's tests and the README's accuracy figures). */
export interface Segment {
  color: Color;
  area: number;
  /** Bounding box, inclusive. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
  /** area / box area. */
  fill: number;
  /** Share of the box's bottom row that is the shape's. */
  bottomFill: number;
}

function nearestColor(r: number, g: number, b: number): Color | null {
  const d2 = (c: readonly number[]) => (r - c[0]!) ** 2 + (g - c[1]!) ** 2 + (b - c[2]!) ** 2;
  const bg = d2(BACKGROUND);
  if (bg <= MAX_COLOR_DIST2) return null;
  // An edge pixel blurred by compression is the colour it is nearest to, as long as it is nearer to it than to the background.
  let best: Color | null = null;
  let bestD = bg;
  for (const c of COLORS) {
    const d = d2(PALETTE[c]);
    if (d <= bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** The image's objects as connected regions of one palette colour (8-connected), noise-sized regions dropped. */
export function segments(px: Pixels): Segment[] {
  const { width: w, height: h, channels: ch, data } = px;
  const label = new Int8Array(w * h).fill(-1);
  for (let i = 0; i < w * h; i++) {
    const c = nearestColor(data[i * ch]!, data[i * ch + 1]!, data[i * ch + 2]!);
    if (c !== null) label[i] = COLORS.indexOf(c);
  }
  const seen = new Uint8Array(w * h);
  const minArea = (MIN_AREA_64 * w * h) / 4096;
  const out: Segment[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start]! < 0 || seen[start]) continue;
    const cls = label[start]!;
    const members: number[] = [];
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      members.push(i);
      const x = i % w;
      const y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const j = ny * w + nx;
          if (!seen[j] && label[j] === cls) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    for (const part of splitByCell(members, w, h)) if (part.length >= minArea) out.push(measure(part, w, COLORS[cls]!));
  }
  return out;
}

// No single shape's box is wider than ~20 of 64 pixels: a wider region is two touching shapes of one colour.
const MAX_EXTENT_64 = 21.5;

/** A region wider or taller than one shape can be is cut along the grid's cell lines (one object per cell). */
function splitByCell(members: number[], w: number, h: number): number[][] {
  const { x0, y0, x1, y1 } = box(members, w);
  if (Math.max(x1 - x0 + 1, y1 - y0 + 1) <= (MAX_EXTENT_64 * w) / 64) return [members];
  const parts = new Map<Position, number[]>();
  for (const i of members) {
    const x = i % w;
    const c = cellOf(x + 0.5, (i - x) / w + 0.5, w, h);
    let p = parts.get(c);
    if (!p) parts.set(c, (p = []));
    p.push(i);
  }
  return [...parts.values()];
}

/** The bounding box (inclusive) and the coordinate sums of a region's pixels. */
function box(members: number[], w: number): { x0: number; y0: number; x1: number; y1: number; sx: number; sy: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1, sx = 0, sy = 0;
  for (const i of members) {
    const x = i % w;
    const y = (i - x) / w;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
    sx += x;
    sy += y;
  }
  return { x0, y0, x1, y1, sx, sy };
}

function measure(members: number[], w: number, color: Color): Segment {
  const { x0, y0, x1, y1, sx, sy } = box(members, w);
  const bw = x1 - x0 + 1;
  const bh = y1 - y0 + 1;
  const bottom = members.filter((i) => (i - (i % w)) / w === y1).length;
  return {
    color,
    area: members.length,
    x0, y0, x1, y1,
    cx: sx / members.length + 0.5,
    cy: sy / members.length + 0.5,
    fill: members.length / (bw * bh),
    bottomFill: bottom / bw,
  };
}

/** The grid cell of a point in a w×h image (3×3 grid, as world.py draws it). */
export function cellOf(x: number, y: number, w: number, h: number): Position {
  const col = Math.min(2, Math.max(0, Math.floor((x * 3) / w)));
  const row = Math.min(2, Math.max(0, Math.floor((y * 3) / h)));
  return POSITIONS[row * 3 + col]!;
}

/** A segment's size class by its box's larger side (scaled to the image's width). */
export function sizeOf(s: Segment, w: number): Size {
  const extent = Math.max(s.x1 - s.x0 + 1, s.y1 - s.y0 + 1);
  return extent >= (LARGE_EXTENT_64 * w) / 64 ? 'large' : 'small';
}

/**
 * The shape heuristic (an option): a square fills its box, a circle about π/4 of it, a triangle half with a full
 * bottom row, a star about 0.4 with two tips at the bottom.
 */
export function shapeOf(s: Segment): Shape {
  if (s.fill >= 0.9) return 'square';
  if (s.fill >= 0.64) return 'circle';
  return s.bottomFill >= 0.6 ? 'triangle' : 'star';
}

/** Knowledge from pixels: each segment's colour, size and cell; its shape only with the heuristic. */
export function segmentKnowledge(px: Pixels, opts: { shapeHeuristic: boolean }): Knowledge {
  // One object per cell: of several regions in a cell (a compression fringe of another colour), the largest is it.
  const byCell = new Map<Position, Segment>();
  for (const s of segments(px)) {
    const cell = cellOf(s.cx, s.cy, px.width, px.height);
    if ((byCell.get(cell)?.area ?? 0) < s.area) byCell.set(cell, s);
  }
  return {
    objects: [...byCell.values()].map((s) => ({
      shape: opts.shapeHeuristic ? shapeOf(s) : null,
      color: s.color,
      size: sizeOf(s, px.width),
      position: cellOf(s.cx, s.cy, px.width, px.height),
    })),
  };
}
