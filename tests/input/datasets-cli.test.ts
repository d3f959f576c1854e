// A whole round through the built CLI on a Parquet data set made from the dev prompts gives the same answers as the
// JSONL dev prompts (same seeds, same image bytes); rlaifv's own RLAIF-V export reads back as prompts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readInput } from '../../src/input/formats.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { runNode } from '../helpers/run-cli.js';
import { writeHfParquet } from '../helpers/hf-parquet.js';

let dir: string;
const dev = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 4).map((l) => JSON.parse(l) as { id: string; image: string; question: string });
const limits = { max_image_bytes: 1_000_000, max_image_pixels: 10_000, max_question_chars: 4000, fetch_timeout_ms: 5000, fetch_retries: 0 };

/** What a round produced per prompt: its image and the answers in sample order. */
function answers(db: string) {
  const h = new Database(db, { readonly: true });
  try {
    return h.prepare(`SELECT p.id, p.image_id, p.question, c.sample_index, c.seed, c.text FROM prompts p JOIN candidates c ON c.prompt_id = p.id
                      ORDER BY p.id, c.sample_index`).all();
  } finally {
    h.close();
  }
}

async function run(prompts: string, db: string) {
  const r = await runNode(['run', '--prompts', prompts, '--limit', '4', '--samples', '2', '--db', db, '--workers', '1', '--quiet'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  dir = tempDir('rlaifv-datasets-cli-');
  // The dev prompts as a `datasets` Parquet file: the image bytes in the Image struct, not paths.
  await writeHfParquet(path.join(dir, 'dev.parquet'), [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }],
    dev.map((p) => ({ id: p.id, image: { bytes: readFileSync(path.join(DEV, p.image)), path: path.basename(p.image) }, question: p.question })));
  await Promise.all([run(path.join(dir, 'dev.parquet'), path.join(dir, 'parquet.sqlite')), run(path.join(DEV, 'prompts.jsonl'), path.join(dir, 'jsonl.sqlite'))]);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('data-set prompts through `rlaifv run`', () => {
  test('a Parquet data set made from the dev prompts gives the same answers as the JSONL dev prompts', () => {
    const fromParquet = answers(path.join(dir, 'parquet.sqlite'));
    expect(fromParquet).toHaveLength(8);
    expect(fromParquet).toEqual(answers(path.join(dir, 'jsonl.sqlite')));
  });

  test.each(['jsonl', 'parquet'])('export --format rlaifv (%s) reads back as the prompts of its pairs, the rest in meta', async (ext) => {
    const db = path.join(dir, 'parquet.sqlite');
    const out = path.join(dir, `export.${ext}`);
    const r = await runNode(['export', '--db', db, '--format', 'rlaifv', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const h = new Database(db, { readonly: true });
    const pairs = h.prepare('SELECT instruction AS question, image_id, chosen, rejected FROM v_pairs WHERE kept = 1').all() as Record<string, string>[];
    h.close();
    expect(pairs.length).toBeGreaterThan(0);
    const back = [];
    for await (const x of readInput(out, 'rlaifv', limits, { imagesDir: path.join(dir, 'back.images') })) {
      if (!('prompt' in x)) throw new Error(JSON.stringify(x));
      back.push(x.prompt);
    }
    const key = (x: { question: string; image: string; chosen: unknown; rejected: unknown }) => JSON.stringify(x);
    expect(back.map((p) => key({ question: p.question, image: p.image.id, chosen: p.meta?.chosen, rejected: p.meta?.rejected })).sort())
      .toEqual(pairs.map((p) => key({ question: p.question!, image: p.image_id!, chosen: p.chosen, rejected: p.rejected })).sort());
    for (const p of back) expect(Object.keys(p.meta ?? {}).sort()).toEqual(['chosen', 'ds_name', 'idx', 'image_path', 'origin_dataset', 'origin_split', 'rejected']);
  });
});
