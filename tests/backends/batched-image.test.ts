// The batched paths read and preprocess each image once, without sharp for plain PNGs: the pixels and pixel values
// must be exactly those transformers.js (sharp + its image processor) gives.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { RawImage } from '@huggingface/transformers';
import { LlavaModel, decodePlainPng, readImage } from '../../src/backends/local/llava.js';
import { DEV, LABELER, TEST, tempDir } from '../helpers/paths.js';

const images = [
  ...readdirSync(path.join(TEST, 'images')).map((f) => path.join(TEST, 'images', f)),
  ...readdirSync(path.join(DEV, 'images')).map((f) => path.join(DEV, 'images', f)),
].sort();

function expectSameImage(a: RawImage, b: RawImage): void {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
}

describe('image reading', () => {
  test(`every committed image (${images.length}) decodes to sharp's pixels`, async () => {
    expect(images.length).toBeGreaterThan(600);
    for (const f of images) {
      expect(decodePlainPng(readFileSync(f))).not.toBeNull(); // the fast path is taken
      expectSameImage(await readImage(f), await RawImage.read(f));
    }
  });

  test('grey, RGBA, palette, grey+alpha, 16-bit, interlaced PNGs and JPEG: the same pixels as sharp (decoded here or left to sharp)', async () => {
    const dir = tempDir();
    const src = readFileSync(images[0]!);
    // A photo-like image, so every PNG row filter shows up.
    const noise = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + ((i * i) % 251)) & 255;
    const photo = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } }).png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer();
    // Which path decodes each (true: here, false: sharp, null: either, as sharp chose the PNG's colour type).
    const variants: [string, Buffer, boolean | null][] = [
      ['rgb-noise.png', photo, true],
      ['grey.png', await sharp(src).grayscale().png().toBuffer(), true],
      ['rgba.png', await sharp(photo).ensureAlpha(0.5).png().toBuffer(), true],
      ['palette.png', await sharp(src).png({ palette: true }).toBuffer(), false],
      ['grey-alpha.png', await sharp(src).grayscale().ensureAlpha(0.5).png().toBuffer(), null],
      ['rgb16.png', await sharp(src).toColourspace('rgb16').png().toBuffer(), false],
      ['interlaced.png', await sharp(photo).png({ progressive: true }).toBuffer(), false],
      ['photo.jpg', await sharp(photo).jpeg().toBuffer(), false],
    ];
    for (const [name, bytes, fast] of variants) {
      const f = path.join(dir, name);
      writeFileSync(f, bytes);
      if (fast !== null) expect(decodePlainPng(bytes) !== null, name).toBe(fast);
      expectSameImage(await readImage(f), await RawImage.read(f));
    }
  });

  test('a missing or cut file is named in the error', async () => {
    const dir = tempDir();
    const cut = path.join(dir, 'cut.png');
    writeFileSync(cut, readFileSync(images[0]!).subarray(0, 60));
    expect(decodePlainPng(readFileSync(cut))).toBeNull();
    await expect(readImage(cut)).rejects.toThrow(`Cannot read image ${cut}`);
    await expect(readImage(path.join(dir, 'none.png'))).rejects.toThrow(`Cannot read image ${path.join(dir, 'none.png')}`);
  });
});

describe('pixel values', () => {
  let m: LlavaModel;
  beforeAll(async () => {
    m = await LlavaModel.load(LABELER, { threads: 1 });
  });
  afterAll(() => m.dispose());

  test("equal, bit for bit, to the image processor's for 300 images; 9 image tokens each", async () => {
    const processor = (m as unknown as { processor: { image_processor: (i: RawImage) => Promise<{ pixel_values: { data: Float32Array; dims: number[] } }> } }).processor;
    for (const f of images.slice(0, 300)) {
      const mine = await m.pixelValues(await readImage(f));
      const { pixel_values } = await processor.image_processor(await RawImage.read(f));
      expect(mine.dims).toEqual(pixel_values.dims);
      expect(Buffer.from(mine.data.buffer, mine.data.byteOffset, mine.data.byteLength).equals(Buffer.from(pixel_values.data.buffer, pixel_values.data.byteOffset, pixel_values.data.byteLength))).toBe(true);
    }
    expect((await m.encodeImage(await readImage(images[0]!))).imageTokens).toBe(9);
  });
});
