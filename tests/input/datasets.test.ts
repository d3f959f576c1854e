// Data-set prompts: Parquet as Hugging Face `datasets` writes it (real files written with hyparquet-writer in that
// layout), column mapping, byte images stored once by content, RLAIF-V rows with everything else kept in meta.
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { readInput, inputFormatFor } from '../../src/input/formats.js';
import { loadConfig } from '../../src/config/load.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { writeHfParquet, type HfColumn } from '../helpers/hf-parquet.js';

const limits = { max_image_bytes: 1_000_000, max_image_pixels: 10_000, max_question_chars: 200, fetch_timeout_ms: 5000, fetch_retries: 0 };
const dev = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 6).map((l) => JSON.parse(l) as { id: string; image: string; question: string });
const png = (i: number) => readFileSync(path.join(DEV, dev[i]!.image));

async function collect(file: string, format = 'auto', columns = {}, imagesDir = path.join(path.dirname(file), 'images')) {
  const out = [];
  for await (const r of readInput(file, format, limits, { imagesDir, columns })) out.push(r);
  return out;
}
const prompts = (rows: Awaited<ReturnType<typeof collect>>) => rows.map((r) => {
  if (!('prompt' in r)) throw new Error(`expected a prompt, got ${JSON.stringify(r)}`);
  return r.prompt;
});
/** Every file under a folder (the content-addressed image store nests one level). */
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

describe('Parquet prompts', () => {
  test('a `datasets`-layout file reads back: ids, questions, images as in the JSONL, extra columns in meta, rows named file:row N', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'train.parquet');
    const cols: HfColumn[] = [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }, { name: 'split_idx', type: 'int' }];
    // Row groups of 2: the reader must carry the row numbers across groups.
    await writeHfParquet(file, cols, dev.slice(0, 5).map((p, i) => ({ id: p.id, image: { bytes: png(i), path: path.basename(p.image) }, question: p.question, split_idx: BigInt(10 + i) })), 2);
    const got = prompts(await collect(file));
    const fromJsonl = prompts(await collect(path.join(DEV, 'prompts.jsonl'))).slice(0, 5);
    expect(got.map((p) => p.id)).toEqual(dev.slice(0, 5).map((p) => p.id));
    expect(got.map((p) => p.question)).toEqual(dev.slice(0, 5).map((p) => p.question));
    expect(got.map((p) => p.image.id)).toEqual(fromJsonl.map((p) => p.image.id)); // same bytes, same image
    expect(got.map((p) => p.meta)).toEqual([10, 11, 12, 13, 14].map((split_idx) => ({ split_idx })));
    expect(got.map((p) => p.source)).toEqual([1, 2, 3, 4, 5].map((n) => `${file}:row ${n}`));
    for (const [i, p] of got.entries()) {
      expect(p.image).toMatchObject({ width: 64, height: 64, bytes: png(i).length });
      expect(p.image.path.startsWith(path.join(dir, 'images') + path.sep)).toBe(true);
      expect(readFileSync(p.image.path).equals(png(i))).toBe(true);
    }
    expect(inputFormatFor(file, 'auto')).toBe('parquet');
  });

  test('columns named otherwise are mapped (picture / prompt / key); without the mapping the message lists the columns and the flag', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'mine.parquet');
    const cols: HfColumn[] = [{ name: 'key', type: 'string' }, { name: 'picture', type: 'image' }, { name: 'shot', type: 'image' }, { name: 'prompt', type: 'string' }];
    await writeHfParquet(file, cols, [0, 1].map((i) => ({ key: `k${i}`, picture: { bytes: png(i), path: null }, shot: { bytes: png(i), path: null }, prompt: dev[i]!.question })));
    const got = prompts(await collect(file, 'auto', { image: 'picture', question: 'prompt', id: 'key' }));
    expect(got.map((p) => [p.id, p.question, p.image.width])).toEqual([['k0', dev[0]!.question, 64], ['k1', dev[1]!.question, 64]]);
    // The column not mapped is kept in meta (as base64 bytes inside its struct), nothing of the row lost.
    expect(got[0]!.meta).toEqual({ shot: { bytes: png(0).toString('base64'), path: null } });
    await expect(collect(file, 'auto', { image: 'picture' })).rejects.toThrow(
      `${file}: no question column "question" (its columns: key, picture, shot, prompt); name the question column with --question-column COLUMN (config input_columns.question)`,
    );
    await expect(collect(file, 'auto', { image: 'picture', question: 'prompt', id: 'nope' })).rejects.toThrow(/no id column "nope" .*--id-column COLUMN/);
    // Two Image columns: which one is the image is the user's to say.
    await expect(collect(file, 'auto', { question: 'prompt' })).rejects.toThrow(/no image column "image" \(its columns: key, picture, shot, prompt\); name the image column with --image-column/);
  });

  test('the one Image column of the features is the image when no "image" column exists', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'img.parquet');
    await writeHfParquet(file, [{ name: 'img', type: 'image' }, { name: 'question', type: 'string' }], [{ img: { bytes: png(2), path: 'a.png' }, question: 'What?' }]);
    expect(prompts(await collect(file))[0]!.image).toMatchObject({ width: 64, bytes: png(2).length });
  });

  test('two rows with the same image bytes store the image once', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'same.parquet');
    const images = path.join(dir, 'store.images');
    await writeHfParquet(file, [{ name: 'image', type: 'image' }, { name: 'question', type: 'string' }],
      ['What is it?', 'How many shapes are there?', 'Describe the image.'].map((question, i) => ({ image: { bytes: png(i === 2 ? 1 : 0), path: null }, question })));
    const got = prompts(await collect(file, 'auto', {}, images));
    expect(got[0]!.image.path).toBe(got[1]!.image.path);
    expect(got[0]!.image.id).toBe(got[1]!.image.id);
    expect(got[2]!.image.id).not.toBe(got[0]!.image.id);
    expect(filesUnder(images).sort()).toEqual([got[0]!.image.path, got[2]!.image.path].sort());
  });

  test('an image column of plain binary, or of paths relative to the file, is accepted too', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.png'), png(3));
    const bin = path.join(dir, 'bin.parquet');
    const paths = path.join(dir, 'paths.parquet');
    await writeHfParquet(bin, [{ name: 'image', type: 'binary' }, { name: 'question', type: 'string' }], [{ image: png(3), question: 'What?' }]);
    await writeHfParquet(paths, [{ name: 'image', type: 'string' }, { name: 'question', type: 'string' }], [{ image: 'a.png', question: 'What?' }]);
    const [a] = prompts(await collect(bin));
    const [b] = prompts(await collect(paths));
    expect(a!.image.id).toBe(b!.image.id);
    expect(b!.image.path).toBe(path.join(dir, 'a.png'));
    expect(a!.contentHash).toBe(b!.contentHash);
  });

  test('gzip and Brotli compressed files read like Snappy ones (pyarrow writes these when asked)', async () => {
    const dir = tempDir();
    for (const [name, compress] of [['GZIP', gzipSync], ['BROTLI', brotliCompressSync]] as const) {
      const file = path.join(dir, `${name}.parquet`);
      await writeHfParquet(file, [{ name: 'image', type: 'image' }, { name: 'question', type: 'string' }], [{ image: { bytes: png(4), path: null }, question: 'What?' }], 100,
        { name, compress: (b) => new Uint8Array(compress(b)) });
      const meta = await parquetMetadataAsync(await asyncBufferFromFile(file));
      expect(meta.row_groups[0]!.columns[0]!.meta_data?.codec).toBe(name);
      expect(prompts(await collect(file)).map((p) => [p.question, p.image.bytes])).toEqual([['What?', png(4).length]]);
    }
  });

  test('bad rows are problems naming file:row N and the column; the good rows still come', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bad.parquet');
    await writeHfParquet(file, [{ name: 'image', type: 'image' }, { name: 'question', type: 'string' }], [
      { image: { bytes: png(0), path: null }, question: 'Fine?' },
      { image: { bytes: Buffer.from('not an image'), path: null }, question: 'What?' },
      { image: { bytes: null, path: null }, question: 'What?' },
      { image: { bytes: png(0), path: null }, question: null },
      { image: { bytes: png(0), path: null }, question: 'x'.repeat(201) },
    ]);
    const rows = await collect(file);
    expect('prompt' in rows[0]!).toBe(true);
    const problems = rows.slice(1).map((r) => ('problem' in r ? r.problem : null));
    expect(problems[0]!.source).toBe(`${file}:row 2`);
    expect(problems[0]!.reason).toMatch(new RegExp(`^field image: image ${file}:row 2 is corrupt or not an image \\(.+\\)$`));
    expect(problems.slice(1)).toEqual([
      { source: `${file}:row 3`, reason: 'field image: must be image bytes, a path, or a {bytes, path} struct with one of them set, got an object' },
      { source: `${file}:row 4`, reason: 'field question: must be a string, got null' },
      { source: `${file}:row 5`, reason: 'field question: 201 characters, over limits.max_question_chars (200)' },
    ]);
  });

  test('a file that is not Parquet, or is cut short, is refused whole with the file named', async () => {
    const dir = tempDir();
    const good = path.join(dir, 'good.parquet');
    await writeHfParquet(good, [{ name: 'image', type: 'image' }, { name: 'question', type: 'string' }], [{ image: { bytes: png(0), path: null }, question: 'What?' }]);
    const cut = path.join(dir, 'cut.parquet');
    writeFileSync(cut, readFileSync(good).subarray(0, 200));
    const text = path.join(dir, 'text.parquet');
    writeFileSync(text, '{"image": "a.png", "question": "What?"}\n');
    for (const f of [cut, text]) await expect(collect(f)).rejects.toThrow(new RegExp(`^${f} is not a readable Parquet file \\(.+\\)$`));
  });
});

describe('RLAIF-V-Dataset rows', () => {
  const RLAIFV: HfColumn[] = ['ds_name', 'image', 'question', 'chosen', 'rejected', 'origin_dataset', 'origin_split', 'idx', 'image_path'].map((name) => ({ name, type: name === 'image' ? 'image' : 'string' }));
  const row = (i: number) => ({
    ds_name: 'RLAIF-V', image: { bytes: png(i), path: `${i}.png` }, question: dev[i]!.question, chosen: 'A blue circle.', rejected: 'A red star.',
    origin_dataset: 'shapes', origin_split: '{"model": "policy"}', idx: String(i), image_path: `images/${i}.png`,
  });
  const meta = (i: number) => { const { image: _i, question: _q, ...rest } = row(i); return rest; };

  test('Parquet rows: question and image make the prompt, every other column is in meta', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'rlaifv.parquet');
    await writeHfParquet(file, RLAIFV, [0, 1].map(row));
    const got = prompts(await collect(file, 'rlaifv'));
    expect(got.map((p) => p.question)).toEqual([dev[0]!.question, dev[1]!.question]);
    expect(got.map((p) => p.meta)).toEqual([meta(0), meta(1)]);
    expect(got[0]!.image).toMatchObject({ width: 64, bytes: png(0).length });
  });

  test('JSON Lines rows with the image as {bytes: null, path} (as `export --format rlaifv` writes them)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, '0.png'), png(0));
    const file = path.join(dir, 'rlaifv.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...row(0), image: { bytes: null, path: '0.png' } })}\n{"question": 5}\n`);
    const rows = await collect(file, 'rlaifv');
    expect(prompts(rows.slice(0, 1))[0]).toMatchObject({ question: dev[0]!.question, meta: meta(0), source: `${file}:1`, image: { path: path.join(dir, '0.png') } });
    expect(rows[1]).toEqual({ problem: { source: `${file}:2`, reason: 'field question: must be a string, got a number' } });
  });

  test('llava reads LLaVA conversations (a prompts file is not one); an unknown name lists the valid ones', async () => {
    const rows = (await collect(path.join(DEV, 'prompts.jsonl'), 'llava')) as { problem?: { reason: string } }[];
    expect(rows[0]!.problem?.reason).toMatch(/field conversations: missing/);
    expect(() => inputFormatFor('x.csv', 'csv')).toThrow('Unknown input format csv; valid: auto, jsonl, parquet, rlaifv, llava.');
    expect(inputFormatFor('x.json', 'auto')).toBe('llava');
    expect(inputFormatFor('x.jsonl', 'auto')).toBe('jsonl');
    const cfg = path.join(tempDir(), 'c.json');
    writeFileSync(cfg, JSON.stringify({ input_format: 'csv' }));
    expect(() => loadConfig(cfg)).toThrow(/field input_format: .*"auto"\|"jsonl"\|"parquet"\|"rlaifv"\|"llava"/);
    writeFileSync(cfg, JSON.stringify({ input_format: 'parquet', input_columns: { image: 'img' } }));
    const c = loadConfig(cfg, { columns: { question: 'prompt' } }).config;
    expect([c.input_format, c.input_columns]).toEqual(['parquet', { image: 'img', question: 'prompt' }]);
  });
});
