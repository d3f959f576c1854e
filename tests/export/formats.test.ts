// `rlaifv export` formats on a real round of the tiny models: every format read back by a real reader (JSON.parse,
// parquet-wasm for Parquet) and checked field by field against the store's rows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync, copyFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Db, RoundRow } from '../../src/store/index.js';
import { openDb, roundStats } from '../../src/store/index.js';
import { exportPairs } from '../../src/export/export.js';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { readParquetFile } from '../helpers/parquet.js';

interface Expected {
  id: string;
  prompt_id: string;
  question: string;
  meta_json: string | null;
  source: string;
  image_id: string;
  image_path: string;
  chosen: string;
  rejected: string;
  chosen_score: number;
  rejected_score: number;
  margin: number;
}

describe('export formats on a real round', () => {
  let db: Db;
  let round: RoundRow;
  let expected: Expected[];
  let dropped: string[];
  let dir: string;

  beforeAll(async () => {
    // Seed 11: this round has a pair that length balance drops (most seeds have none).
    ({ db, round } = await runDemoRound({ limit: 8, seed: 11 }));
    dir = tempDir();
    // What export must deliver, straight from the tables (not through v_pairs, which export itself reads).
    expected = db
      .prepare(
        `SELECT p.id, p.prompt_id, pr.question, pr.meta_json, pr.source, i.id AS image_id, i.path AS image_path,
           c.text AS chosen, r.text AS rejected, p.chosen_score, p.rejected_score, p.margin
         FROM pairs p JOIN prompts pr ON pr.id = p.prompt_id JOIN images i ON i.id = pr.image_id
         JOIN candidates c ON c.id = p.chosen_id JOIN candidates r ON r.id = p.rejected_id
         JOIN round_prompts rp ON rp.round_id = p.round_id AND rp.prompt_id = p.prompt_id
         WHERE p.round_id = ? AND p.balance_kept = 1 ORDER BY rp.ordinal, p.id`,
      )
      .all(round.id) as Expected[];
    dropped = (db.prepare('SELECT id FROM pairs WHERE round_id = ? AND balance_kept = 0').all(round.id) as { id: string }[]).map((r) => r.id);
  });
  afterAll(() => db.close());

  const out = (name: string) => path.join(dir, name);
  const exportTo = (format: string, name: string, extra: { datasetName?: string } = {}) =>
    exportPairs(db, { round: round.id, format, out: out(name), ...extra });
  const jsonl = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

  test('the round has kept and length-balance-dropped pairs (so the checks below can tell them apart)', () => {
    const s = roundStats(db, round.id);
    expect(expected.length).toBe(s.pairs_after_balance);
    expect(expected.length).toBeGreaterThan(3);
    expect(dropped.length).toBeGreaterThan(0);
  });

  test('TRL JSONL: conversational prompt with an image part, one-message answers, image paths', async () => {
    const w = await exportTo('trl', 'trl.jsonl');
    const rows = jsonl(w.target);
    expect(rows).toHaveLength(expected.length);
    expect(w.pairIds).toEqual(expected.map((e) => e.id));
    rows.forEach((r, k) => {
      const e = expected[k]!;
      expect(Object.keys(r).sort()).toEqual(['chosen', 'images', 'prompt', 'rejected']);
      expect(r.images).toEqual([e.image_path]);
      expect(r.prompt).toEqual([{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: e.question }] }]);
      expect(r.chosen).toEqual([{ role: 'assistant', content: [{ type: 'text', text: e.chosen }] }]);
      expect(r.rejected).toEqual([{ role: 'assistant', content: [{ type: 'text', text: e.rejected }] }]);
    });
    const bytes = readFileSync(w.target);
    expect(w.bytes).toBe(bytes.length);
    expect(w.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  test('TRL Parquet: the same rows with the image bytes, and datasets features that decode them as images', async () => {
    const w = await exportTo('trl', 'trl.parquet');
    expect(w.container).toBe('parquet');
    const { rows, columns, metadata } = readParquetFile(w.target);
    expect(columns).toEqual(['images', 'prompt', 'chosen', 'rejected']);
    expect(rows).toHaveLength(expected.length);
    rows.forEach((r, k) => {
      const e = expected[k]!;
      const images = r.images as { bytes: Buffer; path: string }[];
      expect(images).toHaveLength(1);
      expect(images[0]!.path).toBe(e.image_path);
      expect(images[0]!.bytes.equals(readFileSync(e.image_path))).toBe(true);
      expect(r.prompt).toEqual([{ role: 'user', content: [{ type: 'image', text: null }, { type: 'text', text: e.question }] }]);
      expect(r.chosen).toEqual([{ role: 'assistant', content: [{ type: 'text', text: e.chosen }] }]);
      expect(r.rejected).toEqual([{ role: 'assistant', content: [{ type: 'text', text: e.rejected }] }]);
    });
    const features = JSON.parse(metadata.get('huggingface')!).info.features;
    expect(features.images).toEqual({ feature: { _type: 'Image' }, _type: 'Sequence' });
    expect(features.prompt).toEqual([{ role: { dtype: 'string', _type: 'Value' }, content: [{ type: { dtype: 'string', _type: 'Value' }, text: { dtype: 'string', _type: 'Value' } }] }]);
  });

  test('LLaMA-Factory: one sharegpt JSON array with <image> in the human turn, and its dataset_info.json entry', async () => {
    writeFileSync(out('dataset_info.json'), JSON.stringify({ mine: { file_name: 'mine.json' } }));
    const w = await exportTo('llamafactory', 'lf.json', { datasetName: 'rlaifv_r1' });
    const rows = JSON.parse(readFileSync(w.target, 'utf8'));
    expect(rows).toHaveLength(expected.length);
    rows.forEach((r: Record<string, unknown>, k: number) => {
      const e = expected[k]!;
      expect(r).toEqual({
        conversations: [{ from: 'human', value: `<image>${e.question}` }],
        chosen: { from: 'gpt', value: e.chosen },
        rejected: { from: 'gpt', value: e.rejected },
        images: [e.image_path],
      });
    });
    const info = JSON.parse(readFileSync(out('dataset_info.json'), 'utf8'));
    expect(info.mine).toEqual({ file_name: 'mine.json' }); // other entries are kept
    expect(info.rlaifv_r1).toEqual({
      file_name: 'lf.json',
      formatting: 'sharegpt',
      ranking: true,
      columns: { messages: 'conversations', chosen: 'chosen', rejected: 'rejected', images: 'images' },
      tags: { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt' },
    });
  });

  test('LLaMA-Factory: an unreadable dataset_info.json is named and nothing is written', async () => {
    const d = tempDir();
    writeFileSync(path.join(d, 'dataset_info.json'), '{ not json');
    await expect(exportPairs(db, { round: round.id, format: 'llamafactory', out: path.join(d, 'lf.json') })).rejects.toThrow(
      /dataset_info\.json is not valid JSON/,
    );
    expect(readdirSync(d)).toEqual(['dataset_info.json']);
  });

  test('OpenRLHF: whole conversations (prompt = chosen[:-1]) and the pair margin', async () => {
    const rows = jsonl((await exportTo('openrlhf', 'openrlhf.jsonl')).target);
    expect(rows).toHaveLength(expected.length);
    rows.forEach((r, k) => {
      const e = expected[k]!;
      expect(r).toEqual({
        chosen: [{ role: 'user', content: e.question }, { role: 'assistant', content: e.chosen }],
        rejected: [{ role: 'user', content: e.question }, { role: 'assistant', content: e.rejected }],
        margin: e.margin,
        images: [e.image_path],
      });
      expect(r.margin).toBeGreaterThanOrEqual(1); // REJ-C pairs differ by at least diff = 1 rejected claim
    });
  });

  test('RLAIF-V-Dataset rows: the dataset columns, origin_split a JSON string; Parquet with image bytes', async () => {
    const j = jsonl((await exportTo('rlaifv', 'rlaifv.jsonl')).target);
    const p = readParquetFile((await exportTo('rlaifv', 'rlaifv.parquet')).target);
    // `history` (the turns before the question; empty for single-turn prompts) follows the dataset's own columns.
    expect(p.columns).toEqual(['ds_name', 'image', 'question', 'chosen', 'rejected', 'origin_dataset', 'origin_split', 'idx', 'image_path', 'history']);
    expect(p.rows.map((r) => r.history)).toEqual(p.rows.map(() => []));
    expect(j.map((r: Record<string, unknown>) => 'history' in r)).toEqual(j.map(() => false)); // single-turn JSONL rows are as before
    expect(JSON.parse(p.metadata.get('huggingface')!).info.features.image).toEqual({ _type: 'Image' });
    for (const rows of [j, p.rows]) {
      expect(rows).toHaveLength(expected.length);
      rows.forEach((r: Record<string, unknown>, k: number) => {
        const e = expected[k]!;
        expect(r.ds_name).toBe('rlaifv');
        expect(r.question).toBe(e.question);
        expect(r.chosen).toBe(e.chosen);
        expect(r.rejected).toBe(e.rejected);
        expect(r.idx).toBe(e.id);
        expect(r.image_path).toBe(e.image_path);
        expect(r.origin_dataset).toBe(e.source.replace(/:\d+$/, ''));
        expect(typeof r.origin_split).toBe('string');
        expect(JSON.parse(r.origin_split as string)).toEqual({
          model: round.policy_model,
          feedback_model: round.labeler_model,
          type: JSON.parse(e.meta_json!).kind,
          round: round.id,
          method: 'rejc',
          prompt_id: e.prompt_id,
          chosen_score: e.chosen_score,
          rejected_score: e.rejected_score,
          margin: e.margin,
        });
      });
    }
    j.forEach((r, k) => expect(r.image).toEqual({ bytes: null, path: expected[k]!.image_path }));
    p.rows.forEach((r, k) => {
      const img = r.image as { bytes: Buffer; path: string };
      expect(img.path).toBe(expected[k]!.image_path);
      expect(img.bytes.equals(readFileSync(expected[k]!.image_path))).toBe(true);
    });
  });

  test('dropped pairs (balance_kept = 0) are never exported', async () => {
    const ids = new Set(jsonl((await exportTo('rlaifv', 'ids.jsonl')).target).map((r) => r.idx as string));
    expect(ids.size).toBe(expected.length);
    for (const d of dropped) expect(ids.has(d)).toBe(false);
  });

  test('a format without a Parquet variant refuses a .parquet file, naming the ones that have one', async () => {
    await expect(exportTo('openrlhf', 'x.parquet')).rejects.toThrow(/Format openrlhf has no Parquet variant.*\(Parquet: trl, rlaifv\)/);
    expect(existsSync(out('x.parquet'))).toBe(false);
  });

  test('an image changed since the round is refused for Parquet, and no file or temp file is left', async () => {
    // A copy of the store whose images point at copies we can alter, as when a user edits an image folder.
    const d = tempDir();
    const copy = path.join(d, 'copy.sqlite');
    await db.backup(copy);
    const c = openDb(copy);
    for (const img of c.prepare('SELECT id, path FROM images').all() as { id: string; path: string }[]) {
      const p = path.join(d, path.basename(img.path));
      copyFileSync(img.path, p);
      c.prepare('UPDATE images SET path = ? WHERE id = ?').run(p, img.id);
    }
    const victim = expected[0]!;
    appendFileSync(path.join(d, path.basename(victim.image_path)), Buffer.from([0]));
    const files = readdirSync(d).sort();
    await expect(exportPairs(c, { round: round.id, format: 'trl', out: path.join(d, 'out.parquet') })).rejects.toThrow(
      new RegExp(`image .*${path.basename(victim.image_path)} of prompt ${victim.prompt_id} changed since the round read it`),
    );
    expect(readdirSync(d).sort()).toEqual(files);
    // JSON Lines carry paths, not bytes: the same export as JSONL goes through.
    expect((await exportPairs(c, { round: round.id, format: 'trl', out: path.join(d, 'out.jsonl') })).pairIds).toHaveLength(expected.length);
    c.close();
  });
});
