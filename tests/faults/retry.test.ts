// Failed items retried within their round (`--retry-failed`), against the real test server (backed by the tiny
// models): a round run while the policy and the labeler are down for part of it ends with failures; after recovery
// the retry leaves the store equal to a fault-free round's, the failures still there as history.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, roundStats } from '../../src/store/index.js';
import { pull } from '../../src/export/pull.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

let srv: TestServer;
// One pool for the file's ten rounds (their rules divider runs in it), instead of a pool each.
const pool = filePool();
beforeAll(async () => {
  srv = await TestServer.start({ mimic: 'vllm', pool: pool() });
});
afterAll(async () => {
  await srv?.close();
});

const server = (model: string) => ({
  type: 'openai' as const,
  model,
  base_urls: [srv.url],
  max_in_flight: 4,
  timeout_ms: 20_000,
  max_retries: 1,
  min_backoff_ms: 10,
  max_backoff_ms: 50,
  rest_after_failures: 100,
  rest_ms: 50,
});

/** Remote policy and labeler on the test server, the rules divider in-process; 3 samples per prompt. */
function config(db: string): Config {
  const file = path.join(tempDir(), 'rlaifv.json');
  writeFileSync(
    file,
    JSON.stringify({ prompts: path.join(DEV, 'prompts.jsonl'), db, seed: 0, workers: 2, generate: { backend: server('shapes-policy'), samples: 3 }, label: { backend: server('shapes-labeler') } }),
  );
  return loadConfig(file).config;
}

/** Every table a round writes, without times and ids that are not content hashes. */
function snapshot(file: string) {
  const db = openDb(file, { readonly: true });
  const q = (sql: string) => db.prepare(sql).all();
  try {
    return {
      candidates: q('SELECT id, sample_index, seed, text, words FROM candidates ORDER BY id'),
      divisions: q('SELECT candidate_id, n_claims, skipped_json FROM divisions ORDER BY candidate_id'),
      claims: q('SELECT id, candidate_id, idx, claim, question_id FROM claims ORDER BY id'),
      labels: q('SELECT question_id, labeler, p_yes, p_no FROM labels ORDER BY question_id'),
      scores: q('SELECT candidate_id, n_claims, n_judged, n_rejected, rej_c, rej_p FROM scores ORDER BY candidate_id'),
      pairings: q('SELECT prompt_id, method, considered, dropped_json FROM pairings ORDER BY prompt_id'),
      pairs: q('SELECT id, chosen_id, rejected_id, margin, balance_kept FROM pairs ORDER BY id'),
      balances: q('SELECT method, r, objective FROM balances'),
      status: q('SELECT status FROM rounds'),
    };
  } finally {
    db.close();
  }
}

describe('rlaifv run --retry-failed', () => {
  test('a round under an outage, then a retry after recovery, equals a fault-free round', async () => {
    const clean = path.join(tempDir(), 'clean.sqlite');
    await runRound(config(clean), { choice: 'next', stages: STAGES, limit: 6, pool: pool() });

    const file = path.join(tempDir(), 'outage.sqlite');
    // The outage: 14 policy requests and 20 labeler requests fail (500), more than max_retries lets a request survive.
    srv.inject({ kind: '500', times: 14, model: 'shapes-policy' });
    srv.inject({ kind: '500', times: 20, model: 'shapes-labeler' });
    await runRound(config(file), { choice: 'next', stages: STAGES, limit: 6, pool: pool() });
    srv.faults.length = 0; // recovery
    let db = openDb(file, { readonly: true });
    const before = roundStats(db, 1);
    const failures = db.prepare('SELECT stage, item, reason, attempts FROM failures ORDER BY stage, item').all() as { stage: string; item: string }[];
    db.close();
    expect(before.failures_by_stage.generate).toBeGreaterThan(0);
    expect(before.failures_by_stage.label).toBeGreaterThan(0);
    expect(snapshot(file)).not.toEqual(snapshot(clean));

    // Without the flag, a rerun leaves the failures as they are.
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 6, pool: pool() });
    db = openDb(file, { readonly: true });
    expect(roundStats(db, 1).failures).toBe(before.failures);
    db.close();

    const logs: string[] = [];
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 6, pool: pool(), retryFailed: true, progress: { start() {}, tick() {}, done() {}, log: (m) => logs.push(m) } });
    expect(logs.join('\n')).toMatch(new RegExp(`retrying ${before.failures} failed items`));
    expect(snapshot(file)).toEqual(snapshot(clean));
    db = openDb(file, { readonly: true });
    try {
      const after = roundStats(db, 1);
      expect(after.failures).toBe(0);
      expect(after.retried_failures).toBe(failures.length);
      // History: the same failure rows, each marked retried.
      const rows = db.prepare('SELECT stage, item, retried_at FROM failures ORDER BY stage, item').all() as { stage: string; item: string; retried_at: string | null }[];
      expect(rows.map((r) => [r.stage, r.item])).toEqual(failures.map((f) => [f.stage, f.item]));
      expect(rows.every((r) => r.retried_at !== null)).toBe(true);
    } finally {
      db.close();
    }
  });

  test('nothing failed: the retry changes nothing; a retry that fails again reopens the failure', async () => {
    const file = path.join(tempDir(), 'again.sqlite');
    srv.inject({ kind: '500', times: 30, model: 'shapes-labeler' });
    await runRound(config(file), { choice: 'next', stages: STAGES, limit: 3, pool: pool() });
    srv.faults.length = 0;
    const failed = snapshot(file);
    // The labeler is down again for the retry: the failures come back open, with a second attempt counted.
    srv.inject({ kind: '500', times: 1000, model: 'shapes-labeler' });
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 3, pool: pool(), retryFailed: true });
    srv.faults.length = 0;
    let db = openDb(file, { readonly: true });
    const rows = db.prepare("SELECT attempts, retried_at FROM failures WHERE stage = 'label'").all() as { attempts: number; retried_at: string | null }[];
    db.close();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.retried_at === null && r.attempts === 2)).toBe(true);
    expect(snapshot(file)).toEqual(failed);
    // Now it works; a further retry with nothing failed changes nothing.
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 3, pool: pool(), retryFailed: true });
    const fixed = snapshot(file);
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 3, pool: pool(), retryFailed: true });
    expect(snapshot(file)).toEqual(fixed);
    db = openDb(file, { readonly: true });
    expect(roundStats(db, 1).failures).toBe(0);
    db.close();
  });

  test('a prompt whose pairs a consumer already has keeps them: nothing is delivered twice or taken back', async () => {
    const file = path.join(tempDir(), 'delivered.sqlite');
    srv.inject({ kind: '500', times: 12, model: 'shapes-labeler' });
    await runRound(config(file), { choice: 'next', stages: STAGES, limit: 4, pool: pool() });
    srv.faults.length = 0;
    let db = openDb(file);
    expect(roundStats(db, 1).failures).toBeGreaterThan(0);
    const first = await pull(db, { consumer: 'trainer', rounds: 1, format: 'trl', out: path.join(tempDir(), 'a.jsonl') }, file);
    const pairsBefore = db.prepare('SELECT id FROM pairs ORDER BY id').all();
    db.close();
    await runRound(config(file), { choice: 1, stages: STAGES, limit: 4, pool: pool(), retryFailed: true });
    db = openDb(file);
    try {
      const delivered = db.prepare('SELECT DISTINCT p.prompt_id FROM delivered_pairs d JOIN pairs p ON p.id = d.pair_id').all() as { prompt_id: string }[];
      // Every delivered pair is still there.
      const ids = new Set((db.prepare('SELECT id FROM pairs').all() as { id: string }[]).map((r) => r.id));
      for (const id of first.pairIds) expect(ids.has(id)).toBe(true);
      expect(delivered.length).toBeGreaterThan(0);
      const second = await pull(db, { consumer: 'trainer', rounds: 1, format: 'trl', out: path.join(tempDir(), 'b.jsonl') }, file);
      for (const id of second.pairIds) expect(first.pairIds).not.toContain(id);
      expect(pairsBefore.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
