// `pull` on real rounds of the tiny models in real SQLite files: each kept pair reaches each consumer exactly once,
// the delivery is recorded with the file that carries it, and a failure before the commit delivers nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDb, type Db, type RoundRow } from '../../src/store/index.js';
import { AlreadyDeliveredError } from '../../src/store/deliveries.js';
import { pull, type PullOptions } from '../../src/export/pull.js';
import { runRound } from '../../src/pipeline/round.js';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { readParquetFile } from '../helpers/parquet.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the file's three rounds (a pool each before: about 1.3 s of CPU a pool, docs/testing.md).
const pool = filePool();

describe('pull on real rounds', () => {
  let base: Db;
  let round: RoundRow;
  let kept: string[];
  beforeAll(async () => {
    ({ db: base, round } = await runDemoRound({ limit: 8, seed: 0, pool: pool() }));
    kept = (base.prepare('SELECT id FROM pairs WHERE round_id = ? AND balance_kept = 1 ORDER BY id').all(round.id) as { id: string }[]).map((r) => r.id);
  });
  afterAll(() => base.close());

  /** A copy of the finished round's store in a new folder, so every test starts from the same real state. */
  async function fresh(): Promise<{ db: Db; file: string; dir: string }> {
    const dir = tempDir();
    const file = path.join(dir, 'store.sqlite');
    await base.backup(file);
    return { db: openDb(file), file, dir };
  }
  const ids = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).idx as string);
  const run = (db: Db, file: string, o: Partial<PullOptions> & { out: string }) =>
    pull(db, { consumer: 'trainer', rounds: 'all', format: 'rlaifv', ...o }, file);
  const delivered = (db: Db, consumer: string) =>
    (db.prepare('SELECT pair_id FROM delivered_pairs WHERE consumer = ? ORDER BY pair_id').all(consumer) as { pair_id: string }[]).map((r) => r.pair_id);

  test('the round has kept pairs to deliver', () => {
    expect(kept.length).toBeGreaterThan(3);
  });

  test('a consumer gets every kept pair once; the delivery records the file, its hash and each row', async () => {
    const { db, file, dir } = await fresh();
    const out = path.join(dir, 'pairs.jsonl');
    const r = await run(db, file, { out });
    expect([...ids(out)].sort()).toEqual(kept);
    expect(r.pairIds).toEqual(ids(out));
    const d = db.prepare('SELECT * FROM deliveries WHERE id = ?').get(r.delivery) as Record<string, unknown>;
    const bytes = readFileSync(out);
    expect(d).toMatchObject({
      consumer: 'trainer',
      format: 'rlaifv',
      container: 'jsonl',
      target: out,
      selector: 'all',
      n_pairs: kept.length,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const rows = db.prepare('SELECT pair_id, position FROM delivered_pairs WHERE delivery_id = ? ORDER BY position').all(r.delivery) as {
      pair_id: string;
      position: number;
    }[];
    expect(rows.map((x) => x.pair_id)).toEqual(ids(out)); // row k of the file is position k
    expect(rows.map((x) => x.position)).toEqual(ids(out).map((_, k) => k));
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    db.close();
  });

  test('a second pull with nothing new writes a valid empty file in every container and records 0 pairs', async () => {
    const { db, file, dir } = await fresh();
    await run(db, file, { out: path.join(dir, 'first.jsonl') });
    const jsonl = await run(db, file, { out: path.join(dir, 'again.jsonl') });
    expect(jsonl.pairIds).toEqual([]);
    expect(readFileSync(path.join(dir, 'again.jsonl'), 'utf8')).toBe('');
    const lf = await run(db, file, { format: 'llamafactory', out: path.join(dir, 'again.json') });
    expect(JSON.parse(readFileSync(lf.target, 'utf8'))).toEqual([]);
    const pq = await run(db, file, { format: 'trl', out: path.join(dir, 'again.parquet') });
    const t = readParquetFile(pq.target);
    expect(t.rows).toEqual([]);
    expect(t.columns).toEqual(['images', 'prompt', 'chosen', 'rejected']);
    const n = db.prepare('SELECT n_pairs FROM deliveries WHERE consumer = ? ORDER BY id').all('trainer') as { n_pairs: number }[];
    expect(n.map((x) => x.n_pairs)).toEqual([kept.length, 0, 0, 0]);
    expect(delivered(db, 'trainer')).toEqual(kept);
    db.close();
  });

  test('two consumers each get every pair once', async () => {
    const { db, file, dir } = await fresh();
    const a = await run(db, file, { consumer: 'trainer-a', out: path.join(dir, 'a.jsonl') });
    const b = await run(db, file, { consumer: 'trainer-b', format: 'trl', out: path.join(dir, 'b.parquet') });
    expect([...a.pairIds].sort()).toEqual(kept);
    expect([...b.pairIds].sort()).toEqual(kept);
    expect(readParquetFile(b.target).rows).toHaveLength(kept.length);
    expect((await run(db, file, { consumer: 'trainer-a', out: path.join(dir, 'a2.jsonl') })).pairIds).toEqual([]);
    expect(delivered(db, 'trainer-a')).toEqual(kept);
    expect(delivered(db, 'trainer-b')).toEqual(kept);
    db.close();
  });

  test('a failure after the file is in place but before the commit delivers nothing and leaves no file', async () => {
    const { db, file, dir } = await fresh();
    const out = path.join(dir, 'pairs.parquet');
    writeFileSync(out, 'the previous delivery');
    // Test hook: a real part cannot be made to fail at this point on demand (see PullOptions.beforeCommit).
    await expect(
      run(db, file, {
        format: 'trl',
        out,
        beforeCommit: () => {
          expect(existsSync(out) && statSync(out).size > 100).toBe(true); // the new file was renamed into place
          throw new Error('injected crash before commit');
        },
      }),
    ).rejects.toThrow('injected crash before commit');
    expect(db.prepare('SELECT COUNT(*) AS n FROM deliveries').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM delivered_pairs').get()).toEqual({ n: 0 });
    expect(readdirSync(dir).sort()).toEqual(['store.sqlite', 'store.sqlite-shm', 'store.sqlite-wal']);
    // The next pull delivers everything.
    const r = await run(db, file, { format: 'trl', out });
    expect(readParquetFile(out).rows).toHaveLength(kept.length);
    expect(delivered(db, 'trainer')).toEqual([...r.pairIds].sort());
    db.close();
  });

  test('a failure while writing (the reader of stdout is gone) records nothing', async () => {
    const { db, file } = await fresh();
    const child = spawn('true', [], { stdio: ['pipe', 'ignore', 'ignore'] });
    await once(child, 'exit'); // its stdin is now a pipe with no reader: writing to it fails with EPIPE
    await expect(run(db, file, { out: '-', stdout: child.stdin! })).rejects.toThrow(/the output was closed by its reader before every pair was written \((EPIPE|ERR_STREAM_DESTROYED)\)/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM delivered_pairs').get()).toEqual({ n: 0 });
    db.close();
  });

  test('to a stream, the delivery is recorded once the bytes are written, with target "-"', async () => {
    const { db, file, dir } = await fresh();
    const sink = path.join(dir, 'stdout.jsonl');
    const stream = createWriteStream(sink);
    const r = await run(db, file, { out: '-', stdout: stream });
    stream.end();
    await once(stream, 'close');
    expect(ids(sink)).toEqual(r.pairIds);
    expect(r.pairIds).toHaveLength(kept.length);
    expect(db.prepare('SELECT target, n_pairs FROM deliveries').get()).toEqual({ target: '-', n_pairs: kept.length });
    db.close();
  });

  test("concurrent pulls for one consumer never deliver a pair twice; a loser delivers nothing", async () => {
    const { db, file, dir } = await fresh();
    const other = openDb(file);
    const outs = [path.join(dir, 'x.jsonl'), path.join(dir, 'y.jsonl')];
    const results = await Promise.allSettled([run(db, file, { out: outs[0]! }), run(other, file, { out: outs[1]! })]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.pairIds] : []));
    for (const [k, r] of results.entries()) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(AlreadyDeliveredError);
        expect(existsSync(outs[k]!)).toBe(false);
      }
    }
    const all = won.flat();
    expect(new Set(all).size).toBe(all.length); // no pair in two files
    expect([...all].sort()).toEqual(kept);
    expect(delivered(db, 'trainer')).toEqual(kept);
    other.close();
    db.close();
  });

  test("a new round's pairs go out with the next pull, and only they; --round picks rounds", async () => {
    const { db, file, dir } = await fresh();
    await run(db, file, { out: path.join(dir, 'r1.jsonl') });
    const second = await runDemoRound({ limit: 6, seed: 1, dbFile: file, pool: pool() }); // another seed: a new round in the same store
    second.db.close();
    const r2 = second.round.id;
    expect(r2).toBe(round.id + 1);
    const kept2 = (db.prepare('SELECT id FROM pairs WHERE round_id = ? AND balance_kept = 1 ORDER BY id').all(r2) as { id: string }[]).map((r) => r.id);
    expect(kept2.length).toBeGreaterThan(0);
    expect((await run(db, file, { rounds: round.id, out: path.join(dir, 'again1.jsonl') })).pairIds).toEqual([]);
    const next = await run(db, file, { out: path.join(dir, 'r2.jsonl') });
    expect(next.rounds).toEqual([round.id, r2]);
    expect([...next.pairIds].sort()).toEqual(kept2);
    // Another consumer asking only for the latest round gets round 2's pairs, not round 1's.
    const latest = await run(db, file, { consumer: 'eval', rounds: 'latest', out: path.join(dir, 'latest.jsonl') });
    expect([...latest.pairIds].sort()).toEqual(kept2);
    db.close();
  });

  test('an unfinished round is not delivered: named when asked for, skipped by --round all', async () => {
    const { db, file, dir } = await fresh();
    const { config } = (await import('../../src/config/load.js')).loadConfig(undefined, { db: file, seed: 5, workers: 2 });
    const { round: running } = await runRound(config, { choice: 'next', stages: ['generate'], limit: 1, pool: pool() });
    expect(running.status).toBe('running');
    await expect(run(db, file, { rounds: running.id, out: path.join(dir, 'x.jsonl') })).rejects.toThrow(
      `Round ${running.id} is running, not done; pull delivers finished rounds only`,
    );
    await expect(run(db, file, { rounds: 'latest', out: path.join(dir, 'x.jsonl') })).rejects.toThrow(/is running, not done/);
    expect(existsSync(path.join(dir, 'x.jsonl'))).toBe(false);
    const r = await run(db, file, { out: path.join(dir, 'all.jsonl') });
    expect(r.rounds).toEqual([round.id]);
    expect(r.skipped.map((s) => s.id)).toEqual([running.id]);
    expect([...r.pairIds].sort()).toEqual(kept);
    await expect(run(db, file, { rounds: 99, out: path.join(dir, 'x.jsonl') })).rejects.toThrow(`No round 99 in ${file}.`);
    await expect(run(db, file, { consumer: 'two words', out: path.join(dir, 'x.jsonl') })).rejects.toThrow(
      /Consumer name "two words" is not allowed/,
    );
    db.close();
  });
});
