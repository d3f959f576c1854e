// The shapes segmenter on real renders: it gets image files only (copied where no prompts file or truth is near), and
// its knowledge is compared with the truth afterwards.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ShapesSegmenter } from '../../src/tools/index.js';
import { checkKnown, checkStatement, parseTruth, type Truth } from '../../src/shapes/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'rlaifv-segmenter-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Row {
  id: string;
  image: string;
  meta: { truth: unknown };
}
function split(name: string): { file: string; truth: Truth }[] {
  const dir = path.join(ROOT, 'data/shapes', name);
  const rows = readFileSync(path.join(dir, 'prompts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
  const seen = new Set<string>();
  const out: { file: string; truth: Truth }[] = [];
  for (const r of rows) {
    if (seen.has(r.image)) continue;
    seen.add(r.image);
    // The truth stays here; the tool sees a copy of the image under an anonymous name.
    const file = path.join(tmp, `${name}-${out.length}.png`);
    copyFileSync(path.join(dir, r.image), file);
    out.push({ file, truth: parseTruth(r.meta.truth) });
  }
  return out;
}

const sorted = (objs: readonly object[]) => objs.map((o) => JSON.stringify(o)).sort();

describe('shapes-segmenter', () => {
  const withShapes = new ShapesSegmenter({ name: 'segmenter', shapeHeuristic: true });
  const masks = new ShapesSegmenter({ name: 'masks', shapeHeuristic: false });

  it('finds every object of the 500 test images with its colour, size, cell and (heuristic) shape', async () => {
    const images = split('test');
    expect(images).toHaveLength(500);
    let wrong = 0;
    for (const { file, truth } of images) {
      const k = await withShapes.know(file);
      if (JSON.stringify(sorted(k.objects)) !== JSON.stringify(sorted(truth.objects))) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('leaves the shape unknown without the heuristic, and still counts', async () => {
    const [{ file, truth }] = split('dev').slice(0, 1) as [{ file: string; truth: Truth }];
    const k = await masks.know(file);
    expect(k.objects).toHaveLength(truth.objects.length);
    expect(k.objects.every((o) => o.shape === null)).toBe(true);
    expect(sorted(k.objects.map(({ shape: _s, ...o }) => o))).toEqual(sorted(truth.objects.map(({ shape: _s, ...o }) => o)));
    const n = truth.objects.length;
    const say = n === 1 ? 'There is one shape.' : `There are ${['', '', 'two', 'three', 'four'][n]} shapes.`;
    expect(checkKnown(k, say)).toBe('true');
    expect(checkKnown(k, `There are ${n === 4 ? 'three' : 'four'} shapes.`)).toBe('false');
    // Any object may be the circle, and none surely is.
    expect(checkKnown(k, 'Is there a circle?')).toBe('unknown');
  });

  it('splits two touching shapes of one colour (test-0061: two large red ones, bottom center and right)', async () => {
    const [img] = split('test').filter((_, i) => i === 61);
    const k = await withShapes.know(img!.file);
    expect(img!.truth.objects.filter((o) => o.color === 'red')).toHaveLength(2);
    expect(sorted(k.objects)).toEqual(sorted(img!.truth.objects));
    expect(checkKnown(k, 'There are two red shapes.')).toBe(checkStatement(img!.truth, 'There are two red shapes.'));
  });

  it('reads a JPEG through sharp (not a plain PNG) and still finds the objects', async () => {
    const [img] = split('dev').slice(3, 4);
    const jpeg = path.join(tmp, 'dev-3.jpg');
    await sharp(img!.file).jpeg({ quality: 95 }).toFile(jpeg);
    const k = await withShapes.know(jpeg);
    expect(k.objects).toHaveLength(img!.truth.objects.length);
    expect(sorted(k.objects.map((o) => ({ color: o.color, position: o.position })))).toEqual(
      sorted(img!.truth.objects.map((o) => ({ color: o.color, position: o.position }))),
    );
  });

  it('fails with the file named on an image it cannot read', async () => {
    await expect(withShapes.know(path.join(tmp, 'missing.png'))).rejects.toThrow(/missing\.png/);
  });
});
