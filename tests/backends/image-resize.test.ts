// The shapes models' processors resize like CLIP's (shortest edge 64, bicubic, centre crop 64x64). A 64x64 image must
// give exactly the pixel values the earlier no-resize processor gave (so every committed figure stays valid), and
// any other image must be resized by transformers.js's own processor, not by the fast table path.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CLIPImageProcessor, RawImage } from '@huggingface/transformers';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import { LABELER, POLICY, TEST, tempDir } from '../helpers/paths.js';

type Pixels = { data: Float32Array; dims: number[] };
type Processor = (i: RawImage) => Promise<{ pixel_values: Pixels }>;

/** The shapes models' processor config before this change (no resize, no crop), kept to prove 64x64 images unchanged. */
const OLD_CONFIG = {
  image_processor_type: 'CLIPImageProcessor',
  do_convert_rgb: true,
  do_resize: false,
  do_center_crop: false,
  do_rescale: true,
  rescale_factor: 1 / 255,
  do_normalize: true,
  image_mean: [0.5, 0.5, 0.5],
  image_std: [0.5, 0.5, 0.5],
  size: { height: 64, width: 64 },
  crop_size: { height: 64, width: 64 },
};

function bytes(p: Pixels): Buffer {
  return Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
}

describe('image processor resize', () => {
  let m: LlavaModel;
  let processor: Processor;
  beforeAll(async () => {
    m = await LlavaModel.load(LABELER, { threads: 1 });
    processor = (m as unknown as { processor: { image_processor: Processor } }).processor.image_processor;
  });
  afterAll(() => m.dispose());

  test('both model folders resize like CLIP: shortest edge 64, bicubic, centre crop 64x64', () => {
    for (const dir of [POLICY, LABELER]) {
      const c = JSON.parse(readFileSync(path.join(dir, 'preprocessor_config.json'), 'utf8'));
      expect(c).toMatchObject({ do_resize: true, resample: 3, do_center_crop: true, size: { shortest_edge: 64 }, crop_size: { height: 64, width: 64 } });
    }
  });

  test('a 64x64 image gives bit for bit the pixel values of the earlier no-resize processor (fast path and processor)', async () => {
    // The fast table path is still set up for the resizing processor (it is taken for images the resize leaves alone).
    expect((m as unknown as { pixelTable: Float32Array | null }).pixelTable).not.toBeNull();
    const old = new CLIPImageProcessor(OLD_CONFIG) as unknown as Processor;
    const files = readdirSync(path.join(TEST, 'images')).slice(0, 50);
    expect(files.length).toBe(50);
    for (const f of files) {
      const img = await readImage(path.join(TEST, 'images', f));
      expect([img.width, img.height]).toEqual([64, 64]);
      const before = (await old(img)).pixel_values;
      const fast = await m.pixelValues(img);
      const proc = (await processor(img)).pixel_values;
      expect(fast.dims).toEqual([1, 3, 64, 64]);
      expect(bytes(fast).equals(bytes(before))).toBe(true);
      expect(bytes(proc).equals(bytes(before))).toBe(true);
    }
  });

  test("a 320x240 JPEG, a 50x90 WebP and a 100x100 image: 64x64 pixel values equal to transformers.js's processor", async () => {
    const dir = tempDir();
    const src = readFileSync(path.join(TEST, 'images', readdirSync(path.join(TEST, 'images'))[0]!));
    const cases: [string, Buffer][] = [
      ['wide.jpg', await sharp(src).resize(320, 240, { fit: 'fill' }).jpeg().toBuffer()],
      ['tall.webp', await sharp(src).resize(50, 90, { fit: 'fill' }).webp().toBuffer()],
      ['square.png', await sharp(src).resize(100, 100).png().toBuffer()],
    ];
    for (const [name, buf] of cases) {
      const f = path.join(dir, name);
      writeFileSync(f, buf);
      const mine = await m.pixelValues(await readImage(f));
      const theirs = (await processor(await RawImage.read(f))).pixel_values;
      expect(mine.dims, name).toEqual([1, 3, 64, 64]);
      expect(theirs.dims, name).toEqual([1, 3, 64, 64]);
      expect(bytes(mine).equals(bytes(theirs)), name).toBe(true);
      // Not the table applied to a cropped corner: the resize changed the values.
      const enc = await m.encodeImage(await readImage(f));
      expect(enc.imageTokens, name).toBe(9);
    }
  });
});
