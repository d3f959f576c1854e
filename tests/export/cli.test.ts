// `rlaifv pull`, `export` and `sql` as real processes on a real round's store: output, stderr counts, exit codes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db, RoundRow } from '../../src/store/index.js';
import { latestSchemaVersion, roundStats } from '../../src/store/index.js';
import { csvField, renderTable } from '../../src/cli/sql.js';
import { runDemoRound } from '../helpers/round.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { CLI, runCliSync } from '../helpers/run-cli.js';

// The built commands (dist/) under their own entry until src/cli/main.ts registers them (same exit-code rule).
const rlaifv = (...args: string[]) => runCliSync(args);

describe('export commands as processes', () => {
  let db: Db;
  let round: RoundRow;
  let file: string;
  let kept: number;
  beforeAll(async () => {
    ({ db, round, file } = await runDemoRound({ limit: 8, seed: 0 }));
    kept = roundStats(db, round.id).pairs_after_balance;
  });
  afterAll(() => db.close());

  test('pull to stdout: JSONL on stdout, the count on stderr; the next pull has nothing new', async () => {
    // Its own copy of the round (from the run's round cache): the delivery numbers it asserts are a new store's, whatever
    // the other tests pulled from the shared one before it.
    const own = await runDemoRound({ limit: 8, seed: 0 });
    own.db.close();
    const file = own.file;
    const first = rlaifv('pull', '--db', file, '--consumer', 'trainer', '--format', 'openrlhf');
    expect(first.status, first.stderr).toBe(0);
    const rows = first.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(rows).toHaveLength(kept);
    expect(rows[0]).toHaveProperty('margin');
    expect(first.stderr).toMatch(new RegExp(`^pulled ${kept} new pairs \\(round ${round.id}\\) for trainer as openrlhf \\(jsonl\\) to stdout: delivery 1, \\d+ bytes\\n$`));
    const again = rlaifv('pull', '--db', file, '--consumer', 'trainer', '--format', 'openrlhf');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^pulled 0 new pairs \(round \d+\) for trainer as openrlhf \(jsonl\) to stdout: delivery 2, 0 bytes\n$/);
  });

  test('pull to a LLaMA-Factory file writes the array and the dataset_info.json entry', () => {
    const dir = tempDir();
    const out = path.join(dir, 'rlaifv_pairs.json');
    const r = rlaifv('pull', '--db', file, '--consumer', 'llamafactory', '--format', 'llamafactory', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(kept);
    expect(JSON.parse(readFileSync(path.join(dir, 'dataset_info.json'), 'utf8')).rlaifv_pairs.file_name).toBe('rlaifv_pairs.json');
  });

  test('export --format trl --out x.parquet, and export to stdout', () => {
    const out = path.join(tempDir(), 'x.parquet');
    const r = rlaifv('export', '--db', file, '--round', String(round.id), '--format', 'trl', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^exported ${kept} pairs of round ${round.id} as trl \\(parquet, \\d+ bytes\\) to ${out}\\n$`));
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
    const s = rlaifv('export', '--db', file, '--format', 'rlaifv', '--out', '-');
    expect(s.status, s.stderr).toBe(0);
    expect(s.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).idx)).toHaveLength(kept);
  });

  test('bad input exits 2 with a message naming what is wrong, and writes nothing', () => {
    const dir = tempDir();
    const cases: [string[], RegExp][] = [
      [['pull', '--db', path.join(dir, 'none.sqlite'), '--consumer', 'a', '--format', 'trl'], /Database .*none\.sqlite does not exist/],
      [['pull', '--db', file, '--consumer', 'a b', '--format', 'trl'], /Consumer name "a b" is not allowed/],
      [['pull', '--db', file, '--consumer', 'a', '--format', 'llamafactory', '--out', path.join(dir, 'x.parquet')], /Format llamafactory has no Parquet variant/],
      [['export', '--db', file, '--round', '42', '--format', 'trl', '--out', path.join(dir, 'x.jsonl')], /No round 42 in /],
      [['export', '--db', file, '--format', 'trl', '--out', path.join(dir, 'no', 'such', 'x.jsonl')], /Folder .* does not exist/],
    ];
    for (const [args, message] of cases) {
      const r = rlaifv(...args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(path.join(dir, 'x.parquet')) || existsSync(path.join(dir, 'x.jsonl'))).toBe(false);
  });

  test('an unknown format is refused by the flag parser with the valid names', () => {
    const r = rlaifv('export', '--db', file, '--format', 'alpaca', '--out', '-');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Allowed choices are trl, llamafactory, openrlhf, rlaifv/);
  });

  test('sql: a table by default, --json an array of objects, --csv with RFC 4180 quoting', () => {
    const q = 'SELECT round, pairs, pairs_kept FROM v_rounds';
    const t = rlaifv('sql', '--db', file, q);
    expect(t.status, t.stderr).toBe(0);
    const s = roundStats(db, round.id);
    expect(t.stdout).toBe(renderTable(['round', 'pairs', 'pairs_kept'], [[round.id, s.pairs, s.pairs_after_balance]]));
    expect(t.stdout).toMatch(/\(1 row\)\n$/);
    const j = rlaifv('sql', '--db', file, '--json', 'SELECT pair_id, chosen, margin FROM v_pairs WHERE kept ORDER BY pair_id');
    expect(j.status, j.stderr).toBe(0);
    const expected = db.prepare('SELECT p.id AS pair_id, c.text AS chosen, p.margin FROM pairs p JOIN candidates c ON c.id = p.chosen_id WHERE p.balance_kept = 1 ORDER BY p.id').all();
    expect(JSON.parse(j.stdout)).toEqual(expected);
    const c = rlaifv('sql', '--db', file, '--csv', `SELECT 'a,"b"' AS x, NULL AS n, '' AS e, 'two' || char(10) || 'lines' AS l, 1.5 AS f`);
    expect(c.status, c.stderr).toBe(0);
    expect(c.stdout).toBe('x,n,e,l,f\r\n"a,""b""",,"","two\nlines",1.5\r\n');
    const none = rlaifv('sql', '--db', file, '--json', 'SELECT * FROM v_pairs WHERE 0');
    expect(JSON.parse(none.stdout)).toEqual([]);
  });

  test('sql refuses writing statements with exit 2 and the store is unchanged', () => {
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM pairs').get() as { n: number }).n;
    const before = count();
    const refused: [string, RegExp][] = [
      ['DELETE FROM pairs', /Refused: DELETE writes to the database; rlaifv sql only reads/],
      ['DROP VIEW v_pairs', /Refused: DROP writes/],
      ['UPDATE pairs SET margin = 0', /Refused: UPDATE writes/],
      ['CREATE TEMP TABLE t AS SELECT 1', /Refused: CREATE writes/],
      [`VACUUM INTO '${path.join(tempDir(), 'copy.sqlite')}'`, /Refused: VACUUM writes/],
      ['PRAGMA user_version = 7', /Refused|returns no rows/],
      [`ATTACH DATABASE '${path.join(tempDir(), 'a.sqlite')}' AS a`, /returns no rows/],
      ['SELECT 1; DELETE FROM pairs', /Only one statement at a time/],
      ['SELEC * FROM pairs', /SQL error: near "SELEC": syntax error/],
    ];
    for (const [sql, message] of refused) {
      const r = rlaifv('sql', '--db', file, sql);
      expect(r.status, `${sql}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(count()).toBe(before);
    expect(db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
  });

  test('sql names a missing database, and notes (then upgrades) an older schema', () => {
    const dir = tempDir();
    const missing = rlaifv('sql', '--db', path.join(dir, 'nope.sqlite'), 'SELECT 1');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/Database .*nope\.sqlite does not exist/);
    const old = path.join(dir, 'v1.sqlite');
    const raw = new Database(old);
    raw.exec(readFileSync(path.join(ROOT, 'db', '001_init.sql'), 'utf8'));
    raw.pragma('user_version = 1');
    raw.close();
    const r = rlaifv('sql', '--db', old, 'SELECT COUNT(*) AS n FROM rounds');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`has schema version 1 (this rlaifv: ${latestSchemaVersion()}); views added since are missing: add --upgrade`);
    const u = rlaifv('sql', '--db', old, '--upgrade', 'SELECT COUNT(*) AS n FROM v_rounds');
    expect(u.status, u.stderr).toBe(0);
    expect(u.stderr).toBe('');
  });

  test('sql stops quietly when its reader does (| head)', async () => {
    const q = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000) SELECT i FROM n';
    const child = spawn('node', [CLI, 'sql', '--db', file, '--csv', q], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [first] = (await once(child.stdout, 'data')) as [Buffer];
    expect(first.toString().startsWith('i\r\n')).toBe(true);
    child.stdout.destroy();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  test('csvField and the table renderer', () => {
    expect(csvField('say "hi", bye')).toBe('"say ""hi"", bye"');
    expect(csvField(null)).toBe('');
    expect(csvField('')).toBe('""');
    expect(csvField(3)).toBe('3');
    expect(renderTable(['a', 'text'], [[1, 'x'.repeat(100)], [22, null]])).toBe(
      `a   text\n--  ${'-'.repeat(80)}\n 1  ${'x'.repeat(79)}…\n22  NULL\n(2 rows)\n`,
    );
  });
});
