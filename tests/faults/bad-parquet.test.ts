// Bad data-set input through the built `rlaifv` command, in the pattern of bad-input.test.ts: a good round is stored
// first, then each bad Parquet file is tried against a copy of that database with --on-error stop and skip. Checked:
// the exact message (file:row N and field, or the file and what is wrong with it), the exit code, and that nothing
// already stored is lost or half-written (every row of every table compared before and after).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV, tempDir } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { writeHfParquet, type HfColumn } from '../helpers/hf-parquet.js';
import { changedTables, failures, lostRows, snapshot, type Snapshot } from '../helpers/db-snapshot.js';

let dir: string;
let cfg: string;
let base: string;
let baseSnap: Snapshot;
const first = JSON.parse(readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n')[0]!) as { id: string; image: string; question: string };
const HF: HfColumn[] = [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }];
/** The first dev prompt as a data-set row: already stored, so reading it again changes nothing. */
const goodRow = () => ({ id: first.id, image: { bytes: readFileSync(path.join(DEV, first.image)), path: null }, question: first.question });

const rlaifv = (...args: string[]): Promise<CliResult> => runNode(args, { cwd: dir });

function copyDb(name: string): string {
  const file = path.join(dir, `${name}.sqlite`);
  for (const ext of ['', '-wal']) if (existsSync(base + ext)) copyFileSync(base + ext, file + ext);
  return file;
}

beforeAll(async () => {
  dir = tempDir('rlaifv-bad-parquet-');
  const good = path.join(dir, 'good.parquet');
  await writeHfParquet(good, HF, [goodRow()]);
  cfg = path.join(dir, 'rlaifv.json');
  writeFileSync(cfg, JSON.stringify({ prompts: 'good.parquet', workers: 1, generate: { samples: 2 } }));
  base = path.join(dir, 'base.sqlite');
  const r = await rlaifv('run', '--config', cfg, '--db', base, '--quiet');
  expect(r.code, r.stderr).toBe(0);
  baseSnap = snapshot(base);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A file that cannot be read at all: exit 2 with the message under both --on-error modes, the database untouched. */
function badFile(kind: string, name: string, make: (file: string) => Promise<void>, message: (file: string) => string | RegExp) {
  test(kind, async () => {
    const db = copyDb(name);
    const file = path.join(dir, `${name}.parquet`);
    await make(file);
    for (const mode of ['stop', 'skip']) {
      const r = await rlaifv('run', '--config', cfg, '--db', db, '--prompts', file, '--on-error', mode, '--quiet');
      expect(r.code, r.stderr).toBe(2);
      const want = message(file);
      const got = r.stderr.replace(/^rlaifv: /, '').replace(/\n$/, '');
      if (typeof want === 'string') expect(got).toBe(want);
      else expect(got).toMatch(want);
      expect(lostRows(baseSnap, snapshot(db))).toEqual([]);
      expect(changedTables(baseSnap, snapshot(db))).toEqual([]);
    }
  });
}

describe.concurrent('bad Parquet prompts (rlaifv run --on-error stop | skip)', () => {
  badFile('Parquet file without the image column', 'no-column', (f) =>
    writeHfParquet(f, [{ name: 'img', type: 'binary' }, { name: 'prompt', type: 'string' }], [{ img: Buffer.from('x'), prompt: 'What?' }]),
  (f) => `${f}: no image column "image" (its columns: img, prompt); name the image column with --image-column COLUMN (config input_columns.image)`);
  badFile('truncated Parquet file', 'truncated', async (f) => {
    await writeHfParquet(f, HF, [goodRow()]);
    writeFileSync(f, readFileSync(f).subarray(0, 300));
  }, (f) => new RegExp(`^${f} is not a readable Parquet file \\(.+\\)$`));
  badFile('not a Parquet file at all', 'not-parquet', async (f) => writeFileSync(f, `${JSON.stringify(first)}\n`),
    (f) => new RegExp(`^${f} is not a readable Parquet file \\(.+\\)$`));

  test('a row whose image bytes are not an image', async () => {
    const db = copyDb('bad-bytes');
    const file = path.join(dir, 'bad-bytes.parquet');
    await writeHfParquet(file, HF, [goodRow(), { id: 'x', image: { bytes: Buffer.from('these bytes are not an image'), path: null }, question: 'What?' }]);
    const reason = new RegExp(`^field image: image ${file}:row 2 is corrupt or not an image \\(.+\\)$`);

    const stop = await rlaifv('run', '--config', cfg, '--db', db, '--prompts', file, '--on-error', 'stop', '--quiet');
    expect(stop.code, stop.stderr).toBe(2);
    expect(stop.stderr.startsWith(`rlaifv: ${file}:row 2: `), stop.stderr).toBe(true);
    expect(stop.stderr.slice(`rlaifv: ${file}:row 2: `.length).trimEnd()).toMatch(reason);
    expect(snapshot(db)).toEqual(baseSnap); // nothing at all was written, not even a failure

    const skip = await rlaifv('run', '--config', cfg, '--db', db, '--prompts', file);
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toContain(`skipped ${file}:row 2: `);
    expect(skip.stdout).toMatch(/\n  input +1 prompts, 1 bad lines /);
    const fails = failures(db);
    expect(fails).toHaveLength(1);
    expect(fails[0]).toMatchObject({ round_id: 1, stage: 'input', item: `${file}:row 2` });
    expect(fails[0]!.reason).toMatch(reason);
    const after = snapshot(db);
    expect(lostRows(baseSnap, after)).toEqual([]);
    expect(changedTables(baseSnap, after)).toEqual(['failures']);
  });
});
