// Images the store already holds are not decoded again at the next ingest (a resumed round, a loop's next round):
// their bytes were checked whole when first stored. The limits still apply to them, and anything that does not match
// what the store holds is checked as new.
import { describe, expect, test } from 'vitest';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KnownImages } from '../../src/input/check.js';
import { readPrompts } from '../../src/input/prompts.js';
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
