// The prompts file: streamed line by line; each bad line is named by file:line and field.
import { describe, expect, test } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readPrompts } from '../../src/input/prompts.js';
import { DEV, tempDir } from '../helpers/paths.js';

const limits = { max_image_bytes: 1_000_000, max_image_pixels: 10_000, max_question_chars: 200, fetch_timeout_ms: 5000, fetch_retries: 1 };
const imagesDir = path.join(tempDir(), 'images');

async function collect(file: string, l = limits) {
  const out = [];
  for await (const r of readPrompts(file, l, { imagesDir })) out.push(r);
  return out;
}

describe('prompts JSONL', () => {
  test('the dev split reads whole: 200 prompts with images hashed and sized', async () => {
    const rows = await collect(path.join(DEV, 'prompts.jsonl'));
    expect(rows).toHaveLength(200);
    const first = rows[0]!;
    if (!('prompt' in first)) throw new Error('expected a prompt');
    expect(first.prompt).toMatchObject({ id: 'dev-0000', image: { width: 64, height: 64 } });
    expect(first.prompt.image.id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.prompt.source).toBe(`${path.join(DEV, 'prompts.jsonl')}:1`);
  });

  test('each kind of bad line is reported with its line and field, and the good lines still come through', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'ok.png'));
    writeFileSync(path.join(dir, 'corrupt.png'), 'not a png at all');
    writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    const big = Buffer.alloc(2_000_000, 1);
    writeFileSync(path.join(dir, 'big.png'), big);
    const lines = [
      '{"image": "ok.png", "question": "Describe the image."}',
      '{"image": "ok.png", "question": "Describe', // malformed JSON
      '{"question": "What is it?"}', // missing image
      '{"image": 3, "question": "What?"}', // mistyped
      '{"image": "ok.png", "question": "   "}', // empty question
      '{"image": "missing.png", "question": "What?"}',
      '{"image": "corrupt.png", "question": "What?"}',
      '{"image": "big.png", "question": "What?"}',
      '{"image": "ok.png", "question": "What?", "colour": "red"}', // unknown field
      '',
      '{"id": "x", "image": "ok.png", "question": "' + 'a'.repeat(300) + '"}',
    ];
    const file = path.join(dir, 'p.jsonl');
    writeFileSync(file, lines.join('\n'));
    const rows = await collect(file);
    const problems = rows.flatMap((r) => ('problem' in r ? [r.problem] : []));
    const prompts = rows.flatMap((r) => ('prompt' in r ? [r.prompt] : []));
    expect(prompts).toHaveLength(1);
    expect(prompts[0]!.id).toMatch(/^p-[0-9a-f]{16}$/); // no id: a content hash
    const at = (n: number) => problems.find((p) => p.source === `${file}:${n}`)?.reason;
    expect(at(2)).toMatch(/malformed JSON/);
    expect(at(3)).toBe('field image: missing (required: a string)');
    expect(at(4)).toBe('field image: must be a string, got a number');
    expect(at(5)).toMatch(/field question: must not be empty/);
    expect(at(6)).toMatch(/image file .*missing\.png does not exist/);
    expect(at(7)).toMatch(/corrupt\.png is corrupt or not an image/);
    expect(at(8)).toMatch(/over limits\.max_image_bytes/);
    expect(at(9)).toMatch(/unknown field colour \(allowed: id, image, question, history, meta\)/);
    expect(at(11)).toMatch(/over limits\.max_question_chars/);
    expect(problems).toHaveLength(9);
  });

  test('a PNG whose header is whole but whose data is cut short is refused at input, not later by the models', async () => {
    const dir = tempDir();
    const png = readFileSync(path.join(DEV, 'images', 'dev-0000.png'));
    writeFileSync(path.join(dir, 'cut.png'), png.subarray(0, 120)); // signature + IHDR intact, IDAT cut
    writeFileSync(path.join(dir, 'p.jsonl'), '{"image": "cut.png", "question": "What?"}\n');
    const rows = await collect(path.join(dir, 'p.jsonl'));
    expect(rows).toEqual([
      { problem: { source: `${path.join(dir, 'p.jsonl')}:1`, reason: expect.stringMatching(/^field image: image .*cut\.png is corrupt: its png data cannot be decoded \(/) } },
    ]);
  });

  test('a line that is not an object, a bad meta or id, and a byte-order mark', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'ok.png'));
    const file = path.join(dir, 'p.jsonl');
    writeFileSync(file, [
      '\uFEFF{"image": "ok.png", "question": "With a BOM?"}',
      '[1, 2]',
      '{"image": "ok.png", "question": "What?", "meta": "x"}',
      '{"id": "", "image": "ok.png", "question": "What?"}',
    ].join('\r\n'));
    const rows = await collect(file);
    expect(rows[0]).toMatchObject({ prompt: { question: 'With a BOM?', source: `${file}:1` } });
    expect(rows.slice(1)).toEqual([
      { problem: { source: `${file}:2`, reason: 'the line must be a JSON object with fields id, image, question, history, meta, got an array' } },
      { problem: { source: `${file}:3`, reason: 'field meta: must be an object, got a string' } },
      { problem: { source: `${file}:4`, reason: 'field id: must not be empty' } },
    ]);
  });

  test('an image over the pixel limit is refused', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'ok.png'));
    writeFileSync(path.join(dir, 'p.jsonl'), '{"image": "ok.png", "question": "What?"}\n');
    const rows = await collect(path.join(dir, 'p.jsonl'), { ...limits, max_image_pixels: 100 });
    expect(rows[0]).toMatchObject({ problem: { reason: expect.stringMatching(/64x64, over limits\.max_image_pixels/) } });
  });

  test('a missing prompts file is named', async () => {
    await expect(collect('/no/prompts.jsonl')).rejects.toThrow('Prompts file /no/prompts.jsonl does not exist.');
  });
});
