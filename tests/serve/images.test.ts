// serve's `path` images: requests naming the same file at once share one lookup (realpath, stat, check), and each
// still gets its own field in an error. A real SQLite file in a temp folder and the dev split's images.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import { loadConfig } from '../../src/config/load.js';
import { resolveImage, type ImageRules } from '../../src/serve/images.js';
import { DEV, ROOT, tempDir } from '../helpers/paths.js';
import { IMG } from './helpers.js';

const dir = tempDir('rlaifv-serve-images-');
const db = openDb(path.join(dir, 'store.sqlite'));
afterAll(() => db.close());
const rules: ImageRules = { db, imagesDir: path.join(dir, 'images'), limits: loadConfig(undefined, { db: path.join(dir, 'store.sqlite') }).config.limits, imageRoot: DEV, urlHosts: null };

describe('serve path images', () => {
  it('gives requests that name the same file at once the same stored image', async () => {
    const rows = await Promise.all(Array.from({ length: 16 }, (_, i) => resolveImage(rules, { path: IMG }, `labels[${i}].image`)));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(rows[0]!.width).toBeGreaterThan(0);
    // The lookup is shared only while it runs: a later request looks again (a changed file is seen).
    expect(rules.pathLookups?.size ?? 0).toBe(0);
  });

  it("names each request's own field when a shared lookup fails", async () => {
    const got = await Promise.all(
      Array.from({ length: 3 }, (_, i) => resolveImage(rules, { path: 'images/missing.png' }, `items[${i}].image`).catch((e: Error) => e.message)),
    );
    expect(got).toEqual([0, 1, 2].map((i) => `items[${i}].image.path: image file images/missing.png does not exist under serve.image_root`));
    const outside = path.relative(DEV, path.join(ROOT, 'package.json'));
    const out = await resolveImage(rules, { path: outside }, 'items[9].image').catch((e: Error) => e.message);
    expect(out).toBe(`items[9].image.path: ${outside} is outside serve.image_root`);
  });
});
