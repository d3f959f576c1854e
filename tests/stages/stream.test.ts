// Streaming: `run` moves prompts through the stages a slice at a time, every stage on its own slice at once. The
// store it leaves must be exactly the one the stages give when run one after another over the whole round.
import { describe, expect, test } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES, type StageName } from '../../src/domain.js';
import { slicesOf } from '../../src/stages/stream.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the file's seven rounds (each made its own: about 1.3 s of CPU a pool, docs/testing.md).
const pool = filePool();

/** Every result table's rows, without times and ids that differ by when they were written. */
function results(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  const q = (sql: string) => db.prepare(sql).all();
  try {
    return {
      candidates: q('SELECT id, prompt_id, sample_index, seed, text, words FROM candidates ORDER BY id'),
      claims: q('SELECT id, candidate_id, idx, claim, question_id FROM claims ORDER BY id'),
      questions: q('SELECT id, image_id, text FROM questions ORDER BY id'),
      labels: q('SELECT question_id, labeler, p_yes, p_no, bound_used FROM labels ORDER BY question_id'),
      scores: q('SELECT * FROM scores ORDER BY candidate_id'),
      pairings: q('SELECT * FROM pairings ORDER BY prompt_id'),
      pairs: q('SELECT id, prompt_id, chosen_id, rejected_id, margin, balance_kept FROM pairs ORDER BY id'),
      balances: q('SELECT round_id, method, r, objective FROM balances'),
      failures: q('SELECT stage, item, reason FROM failures ORDER BY stage, item'),
      rounds: q('SELECT id, status FROM rounds'),
    };
  } finally {
    db.close();
  }
}

async function round(stages: readonly StageName[][], chunk: number): Promise<string> {
  const file = path.join(tempDir(), `r-${chunk}.sqlite`);
  const { config } = loadConfig(undefined, { db: file, seed: 5, workers: 2, samples: 4, chunkPrompts: chunk });
  for (const s of stages) await runRound(config, { choice: 'latest', stages: s, limit: 9, pool: pool() });
  return file;
}

describe('streaming round', () => {
  test('slices of 2 prompts give exactly the store of the stages run one after another', async () => {
    const streamed = await round([[...STAGES]], 2);
    const staged = await round(STAGES.map((s) => [s]), 1000);
    const a = results(streamed);
    const b = results(staged);
    expect((a.pairs as unknown[]).length).toBeGreaterThan(0);
    expect((a.labels as unknown[]).length).toBeGreaterThan(20);
    expect(a).toEqual(b);
    // The streamed round really went slice by slice: each stage recorded once, for the whole round.
    const db = new Database(streamed, { readonly: true });
    const runs = db.prepare('SELECT stage, items FROM stage_runs ORDER BY id').all() as { stage: string; items: number }[];
    db.close();
    expect(runs.map((r) => r.stage)).toEqual([...STAGES]);
    expect(runs[0]!.items).toBe(36);
  });

  test('slices follow the prompts\' ordinals, gaps (other shards) included', () => {
    expect(slicesOf([0, 1, 2, 3, 4], 2)).toEqual([{ from: 0, to: 2, prompts: 2 }, { from: 2, to: 4, prompts: 2 }, { from: 4, to: 5, prompts: 1 }]);
    expect(slicesOf([3, 7, 8, 20], 3)).toEqual([{ from: 3, to: 20, prompts: 3 }, { from: 20, to: 21, prompts: 1 }]);
    expect(slicesOf([], 4)).toEqual([]);
  });
});
