// --json on the commands that print a result (run, report, pull, export): one JSON object on stdout and nothing else
// there, whose figures agree with the store (stats --json) and with the files written.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';

describe('--json on run, report, pull and export', () => {
  let dir: string;
  let db: string;
  let run: CliResult;
  let stats: any;

  beforeAll(async () => {
    dir = tempDir('rlaifv-json-');
    db = path.join(dir, 'r.sqlite');
    run = await runNode(['run', '--db', db, '--limit', '6', '--samples', '4', '--workers', '2', '--json'], { cwd: dir });
    stats = JSON.parse((await runNode(['stats', '--db', db, '--json'], { cwd: dir })).stdout);
  });

  test('run --json: the round\'s counts, the input and each stage, as one object', () => {
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]!);
    const { on_policy: _, ...counts } = stats;
    expect(r.stats).toEqual(counts);
    expect(r.input).toMatchObject({ prompts: 6, bad_lines: 0 });
    expect(r.stages.map((s: { stage: string }) => s.stage)).toEqual(['generate', 'divide', 'label', 'score', 'pair']);
    expect(r.stages[0].items).toBe(stats.candidates);
    expect(r.wall_seconds).toBeGreaterThan(0);
  });

  test('report --json: the round, the file and its size', async () => {
    const out = path.join(dir, 'r.html');
    const r = await runNode(['report', '--db', db, '--out', out, '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ round: stats.round, out, bytes: statSync(out).size });
  });

  test('export --json and pull --json: what was written, agreeing with the file; stdout as the target is refused', async () => {
    const file = path.join(dir, 'pairs.jsonl');
    const e = await runNode(['export', '--db', db, '--format', 'trl', '--out', file, '--json'], { cwd: dir });
    expect(e.code, e.stderr).toBe(0);
    const pairs = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length;
    expect(JSON.parse(e.stdout)).toMatchObject({ round: stats.round, format: 'trl', container: 'jsonl', pairs, bytes: statSync(file).size, out: file });
    expect(pairs).toBe(stats.pairs_after_balance);

    const pulled = path.join(dir, 'pulled.jsonl');
    const p = await runNode(['pull', '--db', db, '--consumer', 'trainer', '--format', 'trl', '--out', pulled, '--json'], { cwd: dir });
    expect(p.code, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout)).toMatchObject({ consumer: 'trainer', rounds: [stats.round], pairs, delivery: 1, bytes: statSync(pulled).size, out: pulled });

    for (const args of [['export', '--format', 'trl', '--out', '-'], ['pull', '--consumer', 'other', '--format', 'trl']]) {
      const r = await runNode([...args, '--db', db, '--json'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--json prints the .* on stdout, where the pairs would go: give --out FILE/);
      expect(r.stdout).toBe('');
    }
  });
});
