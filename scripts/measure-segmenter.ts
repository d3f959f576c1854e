// The shapes segmenter's own accuracy against the truth, per attribute, on the shapes splits' renders (README "Tools").
// npx tsx scripts/measure-segmenter.ts [--json] [--jpeg Q] [split ...]   (default: dev test, and train when it exists)
// --jpeg Q: each render re-encoded as a JPEG of quality Q first (a robustness check: real images are not clean).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ShapesSegmenter } from '../src/tools/index.js';
import { parseTruth } from '../src/shapes/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const jpegAt = process.argv.indexOf('--jpeg');
const jpeg = jpegAt > 0 ? Number(process.argv[jpegAt + 1]) : null;
const args = process.argv.slice(2).filter((a, i, all) => a !== '--json' && a !== '--jpeg' && all[i - 1] !== '--jpeg');
const tmp = mkdtempSync(path.join(tmpdir(), 'segmenter-'));
const splits = args.length ? args : ['dev', 'test', ...(existsSync(path.join(ROOT, 'data/shapes/train/prompts.jsonl')) ? ['train'] : [])];
const tool = new ShapesSegmenter({ name: 'segmenter', shapeHeuristic: true });

const out: Record<string, unknown> = {};
for (const split of splits) {
  const dir = path.join(ROOT, 'data/shapes', split);
  const seen = new Set<string>();
  const f = { images: 0, count_right: 0, objects: 0, found: 0, spurious: 0, color: 0, size: 0, shape: 0 };
  for (const line of readFileSync(path.join(dir, 'prompts.jsonl'), 'utf8').trim().split('\n')) {
    const p = JSON.parse(line) as { image: string; meta: { truth: unknown } };
    if (seen.has(p.image)) continue;
    seen.add(p.image);
    const truth = parseTruth(p.meta.truth); // read here only, to score the tool; the tool gets the file path
    let file = path.join(dir, p.image);
    if (jpeg !== null) {
      const to = path.join(tmp, 'image.jpg');
      await sharp(file).jpeg({ quality: jpeg }).toFile(to);
      file = to;
    }
    const k = await tool.know(file);
    f.images++;
    if (k.objects.length === truth.objects.length) f.count_right++;
    for (const t of truth.objects) {
      f.objects++;
      const o = k.objects.find((x) => x.position === t.position);
      if (!o) continue;
      f.found++;
      if (o.color === t.color) f.color++;
      if (o.size === t.size) f.size++;
      if (o.shape === t.shape) f.shape++;
    }
    f.spurious += k.objects.filter((o) => !truth.objects.some((t) => t.position === o.position)).length;
  }
  out[split] = {
    images: f.images,
    objects: f.objects,
    count: f.count_right / f.images,
    cell: f.found / f.objects,
    spurious: f.spurious,
    color: f.color / f.objects,
    size: f.size / f.objects,
    shape_heuristic: f.shape / f.objects,
  };
}
rmSync(tmp, { recursive: true, force: true });
if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(out) + '\n');
else for (const [s, r] of Object.entries(out)) console.log(s, r);
