// Shards: each slice runs into its own store; merging them gives exactly the store an unsharded run gives.
import { beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { mergeStores } from '../../src/pipeline/merge.js';
import { openDb, parseShard, shardOf } from '../../src/store/index.js';
import { tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round here (tests/helpers/file-pool.ts).
const pool = filePool();

const LIMIT = 12;
const SAMPLES = 4;

async function run(db: string, shard: { index: number; count: number } | null, seed = 0) {
  const { config } = loadConfig(undefined, { db, seed, workers: 2, samples: SAMPLES });
  // With reference log-probs, so merging is seen to carry them (they change no pair).
  config.pair.reference_logprobs = true;
  return runRound(config, { choice: 'latest', stages: STAGES, limit: LIMIT, shard, pool: pool() });
}

/** Everything a round's results consist of, independent of row order and store. */
function snapshot(file: string) {
  const db = openDb(file, { readonly: true });
  const q = (sql: string) => db.prepare(sql).all();
  try {
    return {
      round: db.prepare('SELECT id, config_hash, status, seed FROM rounds').all(),
      prompts: q('SELECT round_id, prompt_id, ordinal FROM round_prompts ORDER BY prompt_id'),
      candidates: q('SELECT id, seed, text, finish_reason FROM candidates ORDER BY id'),
      claims: q('SELECT id, claim, question_id FROM claims ORDER BY id'),
      labels: q('SELECT question_id, p_yes, p_no FROM labels ORDER BY question_id'),
      scores: q('SELECT candidate_id, rej_c, rej_p FROM scores ORDER BY candidate_id'),
      pairs: q('SELECT id, chosen_id, rejected_id, balance_kept FROM pairs ORDER BY id'),
      balance: q('SELECT round_id, method, r FROM balances'),
      // Which answers have them and how many tokens (the sums may differ in the last bits with the batching).
      logprobs: q('SELECT candidate_id, model, tokens FROM answer_logprobs ORDER BY candidate_id'),
    };
  } finally {
    db.close();
  }
}

describe('shards', () => {
  const dir = tempDir();
  const whole = path.join(dir, 'whole.sqlite');
  const shardFiles = [0, 1, 2].map((i) => path.join(dir, `shard-${i}.sqlite`));
  const merged = path.join(dir, 'merged.sqlite');

  beforeAll(async () => {
    await run(whole, null);
    for (const [i, f] of shardFiles.entries()) await run(f, { index: i, count: 3 });
  });

  test('a prompt belongs to one fixed slice; the slices cover the input', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `p-${i}`);
    const counts = [0, 0, 0, 0];
    for (const id of ids) counts[shardOf(id, 4)]!++;
    expect(counts.reduce((a, b) => a + b)).toBe(300);
    for (const c of counts) expect(c).toBeGreaterThan(50); // a hash, not a prefix of the file
    expect(shardOf('dev-0007', 3)).toBe(shardOf('dev-0007', 3));
    const seen = shardFiles.map((f) => {
      const db = openDb(f, { readonly: true });
      const rows = db.prepare('SELECT prompt_id FROM round_prompts').all() as { prompt_id: string }[];
      db.close();
      return rows.map((r) => r.prompt_id);
    });
    const all = seen.flat().sort();
    expect(all).toHaveLength(LIMIT);
    expect(new Set(all).size).toBe(LIMIT);
    seen.forEach((ps, i) => ps.forEach((p) => expect(shardOf(p, 3)).toBe(i)));
  });

  test('merging every shard gives exactly the unsharded store: answers, claims, labels, scores, pairs, balance, reference log-probs', () => {
    const r = mergeStores(merged, shardFiles);
    expect(r.rounds).toEqual([expect.objectContaining({ id: 1, complete: true, status: 'done', prompts: LIMIT, paired: LIMIT })]);
    expect(r.rounds[0]!.shards.sort()).toEqual(['0/3', '1/3', '2/3']);
    expect(snapshot(merged)).toEqual(snapshot(whole));
    expect(snapshot(whole).logprobs.length).toBeGreaterThan(0);
  });

  test("another feedback method's per-answer scores merge too: an oracle round's shards give the unsharded store", async () => {
    const d = tempDir();
    const cfg = (db: string) => {
      const file = path.join(d, `${path.basename(db)}.json`);
      writeFileSync(file, JSON.stringify({ db, seed: 0, generate: { samples: SAMPLES }, feedback: { method: 'oracle' } }));
      return loadConfig(file, { workers: 2 }).config;
    };
    const files = [0, 1].map((i) => path.join(d, `oracle-${i}.sqlite`));
    await runRound(cfg(path.join(d, 'oracle-whole.sqlite')), { choice: 'latest', stages: STAGES, limit: LIMIT, shard: null, pool: pool() });
    for (const [i, f] of files.entries()) await runRound(cfg(f), { choice: 'latest', stages: STAGES, limit: LIMIT, shard: { index: i, count: 2 }, pool: pool() });
    const into = path.join(d, 'oracle-merged.sqlite');
    expect(mergeStores(into, files).rounds[0]).toMatchObject({ complete: true, status: 'done', paired: LIMIT });
    const rows = (file: string) => {
      const db = openDb(file, { readonly: true });
      try {
        return {
          scores: db.prepare('SELECT candidate_id, method, scorer, value, evidence_json FROM answer_scores ORDER BY candidate_id').all(),
          pairs: db.prepare('SELECT id, method, chosen_id, rejected_id, balance_kept FROM pairs ORDER BY id').all(),
        };
      } finally {
        db.close();
      }
    };
    const want = rows(path.join(d, 'oracle-whole.sqlite'));
    expect(want.scores.length).toBe(LIMIT * SAMPLES);
    expect(want.pairs.length).toBeGreaterThan(0);
    expect(rows(into)).toEqual(want);
  });

  test('merging a shard again changes nothing', () => {
    const db = openDb(merged, { readonly: true });
    const count = (t: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    const tables = ['candidates', 'claims', 'labels', 'pairs', 'failures', 'stage_runs', 'usage', 'merges'];
    const before = tables.map(count);
    const snap = snapshot(merged);
    const again = mergeStores(merged, [shardFiles[1]!]);
    expect(again.shards[0]!.skipped).toBe(true);
    expect(tables.map(count)).toEqual(before);
    expect(snapshot(merged)).toEqual(snap);
    db.close();
  });

  test('until every slice is in, the merged round stays running', () => {
    const partial = path.join(tempDir(), 'partial.sqlite');
    const r = mergeStores(partial, shardFiles.slice(0, 2));
    expect(r.rounds[0]).toMatchObject({ complete: false, status: 'running' });
    expect(mergeStores(partial, [shardFiles[2]!]).rounds[0]).toMatchObject({ complete: true, status: 'done' });
    expect(snapshot(partial)).toEqual(snapshot(whole));
  });

  test('a shard made with another config is refused, and the target is left as it was', async () => {
    const other = path.join(tempDir(), 'other-0.sqlite');
    await run(other, { index: 0, count: 3 }, 99);
    const snap = snapshot(merged);
    expect(() => mergeStores(merged, [other])).toThrow(
      new RegExp(`${other.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: round 1 was made with config \\w+, but round 1 of .* with \\w+; shards of one round must share one config\\.`),
    );
    expect(snapshot(merged)).toEqual(snap);
  });

  test('a store holds one slice: another slice or an unsharded run in it is refused', async () => {
    await expect(run(shardFiles[0]!, { index: 1, count: 3 })).rejects.toThrow(/holds shard 0\/3, not 1\/3; give each shard its own --db/);
    await expect(run(shardFiles[0]!, null)).rejects.toThrow(/holds shard 0\/3; pass --shard 0\/3/);
    await expect(run(whole, { index: 0, count: 3 })).rejects.toThrow(/already holds unsharded work/);
  });

  test('--shard is checked, and merge works from the command line', () => {
    expect(() => parseShard('3/3')).toThrow('--shard must be i/n with 0 ≤ i < n');
    const bad = runCliSync(['run', '--shard', '1/0', '--db', path.join(tempDir(), 'x.sqlite')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--shard must be i\/n with 0 ≤ i < n/);
    const target = path.join(tempDir(), 'cli.sqlite');
    const merged = runCliSync(['merge', '--into', target, ...shardFiles]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/round 1 \(done\): shards 0\/3, 1\/3, 2\/3 \(complete\); 12 prompts, 12 paired/);
    expect(snapshot(target)).toEqual(snapshot(whole));
  });
});
