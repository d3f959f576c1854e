// Images the store already holds are not decoded again at the next ingest (a resumed round, a loop's next round):
// their bytes were checked whole when first stored. The limits still apply to them, and anything that does not match
// what the store holds is checked as new.
import { describe, expect, test } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KnownImages } from '../../src/input/check.js';
import { readPrompts } from '../../src/input/prompts.js';
import { readInput } from '../../src/input/formats.js';
import { writeHfParquet, type HfColumn } from '../helpers/hf-parquet.js';
import { DEV, tempDir } from '../helpers/paths.js';

const limits = { max_image_bytes: 1_000_000, max_image_pixels: 10_000, max_question_chars: 200, fetch_timeout_ms: 5000, fetch_retries: 1 };

async function one(file: string, known?: KnownImages, l = limits) {
  const imagesDir = path.join(tempDir(), 'images');
  for await (const r of readPrompts(file, l, { imagesDir, ...(known ? { known } : {}) })) return r;
  throw new Error('no line read');
}

function promptsFile(image: string): string {
  const dir = tempDir();
  copyFileSync(image, path.join(dir, path.basename(image)));
  const file = path.join(dir, 'prompts.jsonl');
  writeFileSync(file, `${JSON.stringify({ id: 'p1', image: path.basename(image), question: 'Is there a star?' })}\n`);
  return file;
}

describe('images the store already holds', () => {
  test('give the same prompt as a first check, from the stored size', async () => {
    const file = promptsFile(path.join(DEV, 'images', 'dev-0000.png'));
    const first = await one(file);
    if (!('prompt' in first)) throw new Error(`expected a prompt: ${JSON.stringify(first)}`);
    const img = first.prompt.image;
    const asked: string[] = [];
    const again = await one(file, (id) => (asked.push(id), id === img.id ? { width: img.width, height: img.height, bytes: img.bytes } : undefined));
    expect(asked).toEqual([img.id]);
    expect(again).toEqual(first);
  });

  test('are not decoded: bytes the store vouches for pass even where a decode would refuse them', async () => {
    const dir = tempDir();
    const bytes = Buffer.from('these bytes were stored as an image by an earlier check');
    writeFileSync(path.join(dir, 'stored.png'), bytes);
    const file = promptsFile(path.join(dir, 'stored.png'));
    const fresh = await one(file);
    expect(fresh).toMatchObject({ problem: { reason: expect.stringMatching(/^field image: image .*stored\.png is corrupt or not an image/) } });
    const known = await one(file, () => ({ width: 8, height: 8, bytes: bytes.length }));
    expect(known).toMatchObject({ prompt: { image: { width: 8, height: 8, bytes: bytes.length } } });
  });

  test('are held to the limits as they are now, and checked as new when the store holds other bytes under the id', async () => {
    const file = promptsFile(path.join(DEV, 'images', 'dev-0000.png'));
    const first = await one(file);
    if (!('prompt' in first)) throw new Error('expected a prompt');
    const img = first.prompt.image;
    // The pixel limit lowered since the image was stored: refused as a new image would be.
    const lower = await one(file, () => ({ width: img.width, height: img.height, bytes: img.bytes }), { ...limits, max_image_pixels: img.width * img.height - 1 });
    expect(lower).toMatchObject({ problem: { reason: expect.stringMatching(/over limits\.max_image_pixels/) } });
    // A stored row that does not match these bytes (another size): decoded, and the decode's size is what comes back.
    const other = await one(file, () => ({ width: 1, height: 1, bytes: img.bytes + 1 }));
    expect(other).toEqual(first);
  });
});

// Data-set rows (Parquet, RLAIF-V rows): image bytes the store holds, with their file, are neither decoded nor written
// again; a path in a row goes through the same check as a JSONL image.
describe('data-set rows whose images the store already holds', () => {
  const garbage = Buffer.from('these bytes were stored as an image by an earlier check');

  async function rows(file: string, format: string, known?: KnownImages, l = limits, imagesDir = path.join(tempDir(), 'images')) {
    const out = [];
    for await (const r of readInput(file, format, l, { imagesDir, ...(known ? { known } : {}) })) out.push(r);
    return out;
  }

  test('Parquet image bytes: the stored row and file come back, no decode; a lowered limit or a missing file checks them as new', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'train.parquet');
    const cols: HfColumn[] = [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }];
    await writeHfParquet(file, cols, [{ id: 'p1', image: { bytes: garbage, path: null }, question: 'Is there a star?' }]);
    // A fresh read decodes the bytes and refuses them.
    const [fresh] = await rows(file, 'parquet');
    expect(fresh).toMatchObject({ problem: { source: `${file}:row 1`, reason: expect.stringMatching(/^field image: image .* is corrupt or not an image/) } });
    // The store vouches for these bytes, and its file is there with their size: accepted as stored.
    const stored = path.join(dir, 'stored.png');
    writeFileSync(stored, garbage);
    const asked: string[] = [];
    const known: KnownImages = (id) => (asked.push(id), { width: 8, height: 8, bytes: garbage.length, path: stored });
    const [again] = await rows(file, 'parquet', known);
    expect(again).toMatchObject({ prompt: { id: 'p1', image: { path: stored, width: 8, height: 8, bytes: garbage.length } } });
    expect(asked).toHaveLength(1);
    // The pixel limit lowered since: refused as new bytes would be.
    const [lower] = await rows(file, 'parquet', known, { ...limits, max_image_pixels: 63 });
    expect(lower).toMatchObject({ problem: { reason: expect.stringMatching(/corrupt or not an image/) } });
    // The stored file gone (or another size): checked as new.
    writeFileSync(stored, Buffer.concat([garbage, garbage]));
    const [moved] = await rows(file, 'parquet', known);
    expect(moved).toMatchObject({ problem: { reason: expect.stringMatching(/corrupt or not an image/) } });
  });

  test('a real image read again from Parquet gives the same prompt as its first read', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'train.parquet');
    const png = readFileSync(path.join(DEV, 'images', 'dev-0000.png'));
    const cols: HfColumn[] = [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }];
    await writeHfParquet(file, cols, [{ id: 'p1', image: { bytes: png, path: null }, question: 'Is there a star?' }]);
    const imagesDir = path.join(dir, 'images');
    const [first] = await rows(file, 'parquet', undefined, limits, imagesDir);
    if (!first || !('prompt' in first)) throw new Error(`expected a prompt: ${JSON.stringify(first)}`);
    const img = first.prompt.image;
    const [again] = await rows(file, 'parquet', (id) => (id === img.id ? { ...img } : undefined), limits, imagesDir);
    expect(again).toEqual(first);
  });

  test('RLAIF-V rows with an image path pass the store\'s images on to the file check', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'stored.png'), garbage);
    const file = path.join(dir, 'rlaifv.jsonl');
    writeFileSync(file, `${JSON.stringify({ idx: 1, image: { bytes: null, path: 'stored.png' }, question: 'Is there a star?' })}\n`);
    const [fresh] = await rows(file, 'rlaifv');
    expect(fresh).toMatchObject({ problem: { reason: expect.stringMatching(/corrupt or not an image/) } });
    const [known] = await rows(file, 'rlaifv', () => ({ width: 8, height: 8, bytes: garbage.length }));
    expect(known).toMatchObject({ prompt: { image: { width: 8, height: 8, bytes: garbage.length } } });
  });
});
