// A multi-turn round on the shapes multiturn split through the real tiny models: it generates, divides, labels and
// pairs; the stored prompts keep their turns; every export carries them; `rlaifv eval` reads the round.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runDemoRound } from '../helpers/round.js';
import { readParquetFile } from '../helpers/parquet.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { roundStats, type Db, type RoundRow } from '../../src/store/index.js';
import { exportPairs } from '../../src/export/export.js';
import { evaluateRound, loadEvalRound } from '../../src/eval/index.js';
import type { Turn } from '../../src/domain.js';

const MULTITURN = path.join(ROOT, 'data', 'shapes', 'multiturn');
const lines = readFileSync(path.join(MULTITURN, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const byId = new Map<string, { question: string; history: Turn[]; image: string }>(lines.map((l) => [l.id, l]));

describe('a multi-turn round', () => {
  let db: Db;
  let round: RoundRow;
  let pairs: { prompt_id: string; instruction: string }[];
  const out = tempDir();
  beforeAll(async () => {
    ({ db, round } = await runDemoRound({
      limit: 6,
      seed: 6, // a seed whose 12 samples disagree enough to make pairs (4 at the time of writing; seed 5 makes none)
      overrides: { prompts: path.join(MULTITURN, 'prompts.jsonl') },
      edit: (c) => {
        c.generate.samples = 2;
      },
    }));
    pairs = db.prepare('SELECT prompt_id, instruction FROM v_pairs WHERE round = ? AND kept = 1 ORDER BY prompt_ordinal, pair_id').all(round.id) as never;
  });
  afterAll(() => db?.close());

  test('generates, divides, labels and pairs every conversation; the stored prompts keep their turns', () => {
    const s = roundStats(db, round.id);
    expect(s).toMatchObject({ prompts: 6, candidates: 12, failures: 0 });
    expect(s.claims).toBeGreaterThan(0);
    expect(s.labeled).toBe(s.claims); // every claim got its p(yes)/p(no)
    expect(s.pairs).toBeGreaterThan(0);
    const stored = db.prepare('SELECT id, question, history_json FROM prompts ORDER BY id').all() as { id: string; question: string; history_json: string }[];
    expect(stored).toHaveLength(6);
    for (const p of stored) {
      expect(p.question).toBe(byId.get(p.id)!.question); // the divider's and the pairs' question: the last user turn
      expect(JSON.parse(p.history_json)).toEqual(byId.get(p.id)!.history);
    }
    expect(pairs.length).toBe(s.pairs_after_balance);
  });

  test('every export carries every turn, the image in the first user turn', async () => {
    expect(pairs.length).toBeGreaterThan(0);
    const file = (f: string) => path.join(out, f);
    for (const [format, name] of [['trl', 'trl.jsonl'], ['llamafactory', 'lf.json'], ['openrlhf', 'or.jsonl'], ['rlaifv', 'rv.jsonl'], ['trl', 'trl.parquet'], ['rlaifv', 'rv.parquet']]) {
      await exportPairs(db, { round: round.id, format: format!, out: file(name!) });
    }
    const jsonl = (f: string) => readFileSync(file(f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const turnsOf = (k: number) => {
      const p = byId.get(pairs[k]!.prompt_id)!;
      return [...p.history, { role: 'user', content: p.question }];
    };
    const trlPrompt = (k: number, nullText: boolean) =>
      turnsOf(k).map((t, i) => ({
        role: t.role,
        content: i === 0 ? [{ type: 'image', ...(nullText ? { text: null } : {}) }, { type: 'text', text: t.content }] : [{ type: 'text', text: t.content }],
      }));
    const checks: [string, unknown[], (r: any, k: number) => void][] = [
      ['trl.jsonl', jsonl('trl.jsonl'), (r, k) => expect(r.prompt).toEqual(trlPrompt(k, false))],
      ['trl.parquet', readParquetFile(file('trl.parquet')).rows, (r, k) => expect(r.prompt).toEqual(trlPrompt(k, true))],
      ['lf.json', JSON.parse(readFileSync(file('lf.json'), 'utf8')), (r, k) =>
        expect(r.conversations).toEqual(turnsOf(k).map((t, i) => ({ from: t.role === 'user' ? 'human' : 'gpt', value: (i === 0 ? '<image>' : '') + t.content })))],
      ['or.jsonl', jsonl('or.jsonl'), (r, k) => {
        expect(r.chosen.slice(0, -1)).toEqual(turnsOf(k));
        expect(r.rejected.slice(0, -1)).toEqual(turnsOf(k));
        expect(r.chosen.at(-1).role).toBe('assistant');
      }],
      ['rv.jsonl', jsonl('rv.jsonl'), (r, k) => expect([...r.history, { role: 'user', content: r.question }]).toEqual(turnsOf(k))],
      ['rv.parquet', readParquetFile(file('rv.parquet')).rows, (r, k) => expect([...r.history, { role: 'user', content: r.question }]).toEqual(turnsOf(k))],
    ];
    for (const [name, rows, check] of checks) {
      expect(rows.length, name).toBe(pairs.length);
      rows.forEach((r, k) => check(r, k));
    }
  });

  test('rlaifv eval reads the round: its recomputed pairs are the stored ones', () => {
    const e = evaluateRound(loadEvalRound(db, round.id));
    expect(e.prompts).toBe(6);
    expect(e.check?.pairs_match).toBe(true);
    expect(e.divide.claims).toBe(roundStats(db, round.id).claims);
    expect(e.label.n).toBeGreaterThan(0);
  });
});
