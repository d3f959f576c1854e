// Any image a user has, through a real round of the tiny models (built CLI): a 320×240 JPEG, WebP, GIF, BMP, a data:
// URI, a photo with an EXIF orientation and an http:// URL on a real server on 127.0.0.1 all get answers and labels,
// with no failure; the URL is fetched once; the rotated photo is stored upright.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { encode as encodeBmp } from 'bmp-ts';
import Database from 'better-sqlite3';
import { runNode } from '../helpers/run-cli.js';
import { DEV, tempDir } from '../helpers/paths.js';

let dir: string;
let server: http.Server;
let hits = 0;
let url = '';

beforeAll(async () => {
  dir = tempDir('rlaifv-images-');
  const src = path.join(DEV, 'images', 'dev-0003.png');
  const big = sharp(src).resize(320, 240, { fit: 'fill' });
  await big.clone().jpeg().toFile(path.join(dir, 'photo.jpg'));
  await big.clone().webp().toFile(path.join(dir, 'photo.webp'));
  await big.clone().gif().toFile(path.join(dir, 'photo.gif'));
  // A portrait photo stored turned (EXIF orientation 6: rotate 90° clockwise to view).
  await sharp(src).resize(80, 40, { fit: 'fill' }).jpeg().withMetadata({ orientation: 6 }).toFile(path.join(dir, 'turned.jpg'));
  const { data, info } = await sharp(src).resize(100, 80, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  // bmp-ts takes ABGR bytes.
  const abgr = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i += 4) [abgr[i], abgr[i + 1], abgr[i + 2], abgr[i + 3]] = [255, data[i + 2]!, data[i + 1]!, data[i]!];
  writeFileSync(path.join(dir, 'drawing.bmp'), encodeBmp({ data: abgr, width: info.width, height: info.height, bitPP: 24 }).data);
  const png = readFileSync(src);
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/img.png`;
  const q = 'Describe the image in detail.';
  const lines = [
    { id: 'jpeg', image: 'photo.jpg' },
    { id: 'webp', image: 'photo.webp' },
    { id: 'gif', image: 'photo.gif' },
    { id: 'bmp', image: 'drawing.bmp' },
    { id: 'turned', image: 'turned.jpg' },
    { id: 'data', image: `data:image/png;base64,${png.toString('base64')}` },
    { id: 'url-1', image: url },
    { id: 'url-2', image: url, question: 'What shapes are in the image?' },
  ];
  writeFileSync(path.join(dir, 'p.jsonl'), lines.map((l) => JSON.stringify({ question: q, ...l })).join('\n') + '\n');
});

afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('images of any kind and size', () => {
  test('a round on them: every prompt answered and labeled, no failure; the URL fetched once', async () => {
    const db = path.join(dir, 'r.sqlite');
    const r = await runNode(['run', '--prompts', path.join(dir, 'p.jsonl'), '--db', db, '--samples', '2', '--workers', '2', '--on-error', 'stop']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('8 prompts, 0 bad lines');
    expect(r.stdout).toContain('failures: 0');
    const d = new Database(db, { readonly: true });
    try {
      const perPrompt = d
        .prepare(
          `SELECT c.prompt_id AS id, COUNT(DISTINCT c.id) AS answers, COUNT(l.question_id) AS labels FROM candidates c
           LEFT JOIN claims cl ON cl.candidate_id = c.id LEFT JOIN labels l ON l.question_id = cl.question_id GROUP BY c.prompt_id`,
        )
        .all() as { id: string; answers: number; labels: number }[];
      expect(perPrompt).toHaveLength(8);
      for (const p of perPrompt) {
        expect(p.answers, p.id).toBe(2);
        expect(p.labels, p.id).toBeGreaterThan(0);
      }
      const img = (id: string) => d.prepare('SELECT i.* FROM prompts p JOIN images i ON i.id = p.image_id WHERE p.id = ?').get(id) as { path: string; width: number; height: number };
      expect(img('jpeg')).toMatchObject({ width: 320, height: 240 });
      // Stored upright: the 80×40 pixels turned by the EXIF orientation are a 40×80 portrait.
      expect(img('turned')).toMatchObject({ width: 40, height: 80 });
      const turned = await sharp(img('turned').path).metadata();
      expect([turned.width, turned.height, turned.orientation ?? 1]).toEqual([40, 80, 1]);
      expect(img('bmp')).toMatchObject({ width: 100, height: 80 });
      expect((await sharp(img('bmp').path).metadata()).format).toBe('png');
      // The URL and the data: URI carry the same bytes: one image row, stored once by content, beside the store.
      expect(img('url-1').path).toBe(img('data').path);
      expect(img('url-1').path.startsWith(path.join(dir, 'r.images'))).toBe(true);
    } finally {
      d.close();
    }
    expect(hits).toBe(1);
    // Another round in the same store uses the fetched copy.
    const again = await runNode(['run', '--round', 'next', '--prompts', path.join(dir, 'p.jsonl'), '--db', db, '--samples', '1', '--workers', '2', '--quiet']);
    expect(again.code, again.stderr).toBe(0);
    expect(hits).toBe(1);
  });
});
