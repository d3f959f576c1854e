// A round's writes wait for another process's write lock instead of failing with "database is locked".
// SQLite calls the busy handler (busy_timeout) only when a transaction takes its first lock. A deferred transaction
// that reads first and then writes already holds a read snapshot: when another connection holds the write lock at that
// moment, the write fails at once with SQLITE_BUSY, whatever the timeout (the btree's busy loop runs only from no
// transaction). `rlaifv pull` writing deliveries while a run ingested its prompts hit exactly that (the concurrency
// fault test, once, under load). Here a child process takes the write lock over and over, holding it most of the time,
// while a whole round runs in this process: every write transaction of the round meets a held lock many times over.
import { afterAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, roundStats } from '../../src/store/index.js';
import { ROOT, tempDir } from '../helpers/paths.js';

const dir = tempDir('rlaifv-write-lock-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Holds the write lock for 40 ms, lets go for 5 ms, until `stop` exists; counts the times it held it.
const HOG = `
const Database = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'better-sqlite3'))});
const { existsSync } = require('node:fs');
const [file, stop] = process.argv.slice(1);
const db = new Database(file);
db.pragma('busy_timeout = 10000');
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let held = 0;
while (!existsSync(stop)) {
  db.exec('BEGIN IMMEDIATE');
  if (held++ === 0) process.stdout.write('held\\n');
  sleep(40);
  db.exec('COMMIT');
  sleep(5);
}
process.stdout.write(held + '\\n');
`;

function startHog(file: string, stop: string) {
  const child = spawn(process.execPath, ['-e', HOG, file, stop], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`lock hog exited with ${code} before holding the lock`)));
  });
  const done = new Promise<number>((resolve) => child.on('exit', () => resolve(Number(out.trim().split('\n').at(-1)))));
  return { held, done };
}

describe('a round while another process keeps taking the write lock', () => {
  test('every stage waits for the lock: the round finishes, with no failure', async () => {
    const { config } = loadConfig(undefined, { db: path.join(dir, 'store.sqlite'), workers: 2 });
    openDb(config.db).close(); // the store and its tables exist before the hog opens it
    const stop = path.join(dir, 'stop');
    const hog = startHog(config.db, stop);
    await hog.held;
    let run;
    try {
      run = await runRound(config, { choice: 'next', stages: STAGES, limit: 6 });
    } finally {
      writeFileSync(stop, '');
      await hog.done.catch(() => {});
    }
    const times = await hog.done;
    const db = openDb(config.db, { readonly: true });
    const s = roundStats(db, run.round.id);
    const failures = db.prepare('SELECT stage, reason FROM failures').all();
    db.close();
    expect(failures).toEqual([]);
    expect(s.status).toBe('done');
    expect(s.prompts).toBe(6);
    expect(s.pairs).toBeGreaterThan(0);
    // The hog really contended: it took the lock many times while the round ran.
    expect(times).toBeGreaterThan(10);
  });
});
