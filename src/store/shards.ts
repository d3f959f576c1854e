// Shards: a fixed, hash-based slice of a round's prompts per store, and merging shard stores into one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './open.js';
import { openDb } from './open.js';
import { StoreInputError, shardText, type Shard } from './shard-spec.js';
import { now, stmt } from './statements.js';

/** A key of the store's own info table. */
export function storeInfo(db: Db, key: string): string | undefined {
  return (stmt(db, 'SELECT value FROM store_info WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

/**
 * Records that this store holds `shard` (or checks that it holds the same one): mixing slices, or a whole run and a
 * slice, in one store would make a merge double-count.
 */
export function claimShard(db: Db, file: string, shard: Shard | null): void {
  const held = storeInfo(db, 'shard');
  const want = shard ? shardText(shard) : null;
  if (held === want || (held === undefined && want === null)) return;
  if (held === undefined) {
    const rounds = (stmt(db, 'SELECT COUNT(*) AS n FROM round_prompts').get() as { n: number }).n;
    if (rounds > 0) throw new StoreInputError(`${file} already holds unsharded work; give shard ${want} its own --db.`);
    stmt(db, 'INSERT INTO store_info (key, value) VALUES (?, ?)').run('shard', want);
    return;
  }
  throw new StoreInputError(
    want === null
      ? `${file} holds shard ${held}; pass --shard ${held} to work on it, or use another --db for an unsharded run.`
      : `${file} holds shard ${held}, not ${want}; give each shard its own --db.`,
  );
}

/** What a merge did. */
export interface MergeReport {
  file: string;
  shard: string | null;
  rounds: number[];
  skipped: boolean;
  rows: Record<string, number>;
}

// Tables copied row for row (content-hash ids: the same row from two shards is the same row).
const PLAIN: { table: string; where: string }[] = [
  { table: 'images', where: '1' },
  { table: 'prompts', where: '1' },
  { table: 'round_prompts', where: 'round_id IN (SELECT id FROM s.rounds)' },
  { table: 'candidates', where: '1' },
  { table: 'divisions', where: '1' },
  { table: 'questions', where: '1' },
  { table: 'claims', where: '1' },
  { table: 'labels', where: '1' },
  { table: 'tool_knowledge', where: '1' },
  { table: 'verdict_sets', where: '1' },
  { table: 'scores', where: '1' },
  { table: 'answer_scores', where: '1' },
  { table: 'answer_logprobs', where: '1' },
  { table: 'pair_judgments', where: '1' },
  { table: 'pairings', where: '1' },
  { table: 'pairs', where: '1' },
];

function columns(db: Db, schema: string, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map((r) => r.name);
}

/**
 * Merges shard stores into `db` in one transaction per shard: rounds must match the target's round of the same id by
 * config hash; prompts must not clash; a store merged before is skipped. Length balance is then recomputed by the
 * caller over the merged pairs (it is a round-wide decision).
 */
export function mergeShard(db: Db, targetFile: string, shardFile: string): MergeReport {
  if (!existsSync(shardFile)) throw new StoreInputError(`Shard ${shardFile} does not exist.`);
  if (path.resolve(shardFile) === path.resolve(targetFile)) throw new StoreInputError(`Cannot merge ${shardFile} into itself.`);
  // Opening migrates the shard to this build's schema (a newer one is refused), so the tables line up.
  openDb(shardFile).close();
  db.prepare('ATTACH DATABASE ? AS s').run(shardFile);
  try {
    const sid = (db.prepare("SELECT value FROM s.store_info WHERE key = 'store_id'").get() as { value: string } | undefined)?.value;
    const shard = (db.prepare("SELECT value FROM s.store_info WHERE key = 'shard'").get() as { value: string } | undefined)?.value ?? null;
    if (!sid) throw new StoreInputError(`${shardFile} has no store id; is it an rlaifv store?`);
    if (sid === storeInfo(db, 'store_id')) throw new StoreInputError(`Cannot merge ${shardFile} into itself (same store).`);
    const rounds = db.prepare('SELECT * FROM s.rounds ORDER BY id').all() as { id: number; config_hash: string; status: string }[];
    const report: MergeReport = { file: shardFile, shard, rounds: rounds.map((r) => r.id), skipped: false, rows: {} };
    if (stmt(db, 'SELECT 1 FROM merges WHERE store_id = ?').get(sid)) return { ...report, skipped: true };
    db.transaction(() => {
      for (const r of rounds) {
        const t = stmt(db, 'SELECT config_hash FROM rounds WHERE id = ?').get(r.id) as { config_hash: string } | undefined;
        if (t && t.config_hash !== r.config_hash) {
          throw new StoreInputError(
            `${shardFile}: round ${r.id} was made with config ${r.config_hash}, but round ${r.id} of ${targetFile} with ${t.config_hash}; ` +
              `shards of one round must share one config.`,
          );
        }
        if (!t) {
          const cols = columns(db, 'main', 'rounds').filter((c) => columns(db, 's', 'rounds').includes(c));
          db.prepare(`INSERT INTO rounds (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM s.rounds WHERE id = ?`).run(r.id);
        }
      }
      const clash = db
        .prepare(`SELECT sp.id, sp.source AS a, mp.source AS b FROM s.prompts sp JOIN main.prompts mp ON mp.id = sp.id WHERE mp.content_hash <> sp.content_hash LIMIT 1`)
        .get() as { id: string; a: string; b: string } | undefined;
      if (clash) throw new StoreInputError(`${shardFile}: prompt id "${clash.id}" (${clash.a}) has other content in ${targetFile} (${clash.b}).`);
      for (const { table, where } of PLAIN) {
        const cols = columns(db, 'main', table);
        const info = db.prepare(`INSERT OR IGNORE INTO main.${table} (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM s.${table} WHERE ${where}`).run();
        report.rows[table] = info.changes;
      }
      // Failures, stage times and usage belong to the shard's run: added once (the merges table guards that).
      report.rows.failures = db
        .prepare(`INSERT OR IGNORE INTO failures (round_id, stage, item, reason, raw, attempts, created_at)
                  SELECT round_id, stage, item, reason, raw, attempts, created_at FROM s.failures`)
        .run().changes;
      report.rows.stage_runs = db
        .prepare(`INSERT INTO stage_runs (round_id, stage, items, seconds, model_seconds, started_at)
                  SELECT round_id, stage, items, seconds, model_seconds, started_at FROM s.stage_runs`)
        .run().changes;
      report.rows.usage = db
        .prepare(`INSERT INTO usage (round_id, stage, endpoint, requests, retries, failures, prompt_tokens, completion_tokens)
                  SELECT round_id, stage, endpoint, requests, retries, failures, prompt_tokens, completion_tokens FROM s.usage WHERE true
                  ON CONFLICT (round_id, stage, endpoint) DO UPDATE SET requests = requests + excluded.requests,
                    retries = retries + excluded.retries, failures = failures + excluded.failures,
                    prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens`)
        .run().changes;
      stmt(db, 'INSERT INTO merges (store_id, file, shard, rounds, merged_at) VALUES (?, ?, ?, ?, ?)').run(
        sid,
        path.resolve(shardFile),
        shard,
        JSON.stringify(report.rounds),
        now(),
      );
    }).immediate();
    return report;
  } finally {
    db.prepare('DETACH DATABASE s').run();
  }
}

/** Shards merged into a round, and whether every slice of its shard set is in. */
export function mergedShards(db: Db, roundId: number): { shards: string[]; complete: boolean } {
  const rows = stmt(db, 'SELECT shard, rounds FROM merges').all() as { shard: string | null; rounds: string }[];
  const shards = rows
    .filter((r) => r.shard && (JSON.parse(r.rounds) as number[]).includes(roundId))
    .map((r) => r.shard!)
    .sort((a, b) => Number(a.split('/')[0]) - Number(b.split('/')[0]));
  const counts = new Set(shards.map((s) => Number(s.split('/')[1])));
  const n = counts.size === 1 ? [...counts][0]! : 0;
  const complete = n > 0 && new Set(shards.map((s) => Number(s.split('/')[0]))).size === n;
  return { shards, complete };
}

/** A round's stored config and the method its pairs are made under (merging recomputes its length balance). */
export function roundPairMethod(db: Db, roundId: number): { config_json: string; pair_method: string } {
  return stmt(db, 'SELECT config_json, pair_method FROM rounds WHERE id = ?').get(roundId) as { config_json: string; pair_method: string };
}

/** The statements of roundCount: a round's prompts, its paired prompts, its pairs and its kept pairs under a method. */
const ROUND_COUNTS = {
  prompts: 'SELECT COUNT(*) AS n FROM round_prompts WHERE round_id = ?',
  paired: 'SELECT COUNT(*) AS n FROM pairings WHERE round_id = ? AND method = ?',
  pairs: 'SELECT COUNT(*) AS n FROM pairs WHERE round_id = ? AND method = ?',
  kept: 'SELECT COUNT(*) AS n FROM pairs WHERE round_id = ? AND method = ? AND balance_kept = 1',
} as const;

/** How many prompts, paired prompts, pairs or kept pairs (under `method`) a round has: a merge's report. */
export function roundCount(db: Db, what: keyof typeof ROUND_COUNTS, roundId: number, method: string): number {
  const args = what === 'prompts' ? [roundId] : [roundId, method];
  return (stmt(db, ROUND_COUNTS[what]).get(...args) as { n: number }).n;
}
