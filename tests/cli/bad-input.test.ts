// Every command, run through the built CLI with bad input: an unknown flag, a value that is not a whole number, a
// missing file, a bad config. Each exits 2 (docs/cli.md#exit-codes) with a message naming the flag, file or key.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { POLICY, tempDir } from '../helpers/paths.js';
import { runNode } from '../helpers/run-cli.js';

let dir: string;
const at = (f: string) => path.join(dir, f);

beforeAll(() => {
  dir = tempDir('rlaifv-bad-input-');
  writeFileSync(at('bad.json'), JSON.stringify({ bogus_key: 1 }));
  writeFileSync(at('broken.json'), '{"db": "x.sqlite",\n');
  writeFileSync(at('answers.jsonl'), JSON.stringify({ answer: 'There is a red circle.' }) + '\n');
});

/** What each command needs besides the flag under test, so that only that flag is wrong. */
const BASE: Record<string, () => string[]> = {
  run: () => ['--db', at('run.sqlite')],
  stats: () => [],
  report: () => [],
  merge: () => ['--into', at('merged.sqlite')],
  eval: () => [],
  pull: () => ['--consumer', 'trainer', '--format', 'trl'],
  export: () => ['--format', 'trl', '--out', at('out.jsonl')],
  sql: () => ['SELECT 1'],
  doctor: () => [],
  loop: () => ['--rounds', '1'],
  bon: () => ['--prompts', at('none.jsonl'), '--policy', POLICY, '--ref', POLICY],
  compare: () => ['--a', POLICY, '--b', POLICY, '--prompts', at('none.jsonl')],
  'calibrate-tools': () => [],
  claims: () => ['--in', at('answers.jsonl')],
  serve: () => [],
};
for (const s of ['generate', 'divide', 'label', 'score', 'pair']) BASE[s] = BASE.run!;

/** A missing file each command reads, and the path its message must name. */
const MISSING: Record<string, () => [string[], string]> = {
  run: () => [['--prompts', at('none.jsonl')], 'none.jsonl'],
  stats: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  report: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  merge: () => [[at('none.sqlite')], 'none.sqlite'],
  eval: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  pull: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  export: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  sql: () => [['--db', at('none.sqlite')], 'none.sqlite'],
  doctor: () => [['--config', at('none.json')], 'none.json'],
  loop: () => [['--config', at('none.json')], 'none.json'],
  bon: () => [[], 'none.jsonl'],
  compare: () => [['--config', at('none.json')], 'none.json'],
  'calibrate-tools': () => [['--config', at('none.json')], 'none.json'],
  claims: () => [['--in', at('none.jsonl')], 'none.jsonl'],
  serve: () => [['--config', at('none.json')], 'none.json'],
};
for (const s of ['generate', 'divide', 'label', 'score', 'pair']) MISSING[s] = MISSING.run!;

/** The whole-number (or round) flag each command takes. */
const NUMBER_FLAG: Record<string, string> = {
  run: '--limit', stats: '--round', report: '--round', eval: '--limit', pull: '--round', export: '--round', loop: '--limit',
  bon: '--limit', compare: '--limit', 'calibrate-tools': '--round', serve: '--workers',
};
for (const s of ['generate', 'divide', 'label', 'score', 'pair']) NUMBER_FLAG[s] = '--round';

/** Commands that read a config (--config). */
const WITH_CONFIG = Object.keys(BASE).filter((c) => !['merge', 'sql', 'bon'].includes(c));

async function expectUsage(args: string[], names: string | RegExp) {
  const r = await runNode(args, { cwd: dir });
  expect(r.code, `rlaifv ${args.join(' ')}\n${r.stderr}`).toBe(2);
  // doctor's report is its result (stdout); every other command says what is wrong on stderr.
  expect(args[0] === 'doctor' ? r.stdout + r.stderr : r.stderr).toMatch(names);
  return r;
}

describe.concurrent('every command exits 2 on bad input, naming what is wrong', () => {
  test.each(Object.keys(BASE))('%s: an unknown flag', async (c) => {
    await expectUsage([c, ...BASE[c]!(), '--no-such-flag'], /unknown option '--no-such-flag'/);
  });

  test.each(Object.keys(NUMBER_FLAG))('%s: a value that is not a whole number', async (c) => {
    const flag = NUMBER_FLAG[c]!;
    await expectUsage([c, ...BASE[c]!(), flag, 'abc'], new RegExp(`${flag} must be .*got "abc"`));
  });

  test.each(Object.keys(MISSING))('%s: a missing file', async (c) => {
    const [args, name] = MISSING[c]!(); // a flag given twice: commander keeps the last (claims --in)
    const r = await expectUsage([c, ...BASE[c]!(), ...args], new RegExp(name.replace('.', '\\.')));
    // doctor reports on stdout (its report is the result); the others on stderr, with stdout left empty.
    if (c !== 'doctor') expect(r.stdout).toBe('');
  });

  test.each(WITH_CONFIG)('%s: a config with an unknown key, and one that is not JSON', async (c) => {
    const bad = await runNode([c, ...BASE[c]!(), '--config', at('bad.json')], { cwd: dir });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr + bad.stdout).toMatch(/bad\.json.*\n?.*unknown key "bogus_key"/);
    const broken = await runNode([c, ...BASE[c]!(), '--config', at('broken.json')], { cwd: dir });
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.stderr + broken.stdout).toMatch(/broken\.json is not valid JSON/);
  });

  test('stats --round next is refused (a round that does not exist yet), not read as latest', async () => {
    await expectUsage(['stats', '--round', 'next'], /--round must be a round number or "latest", got "next"/);
  });

  test('no command, and an unknown command, exit 2', async () => {
    await expectUsage([], /Usage: rlaifv/);
    await expectUsage(['no-such-command'], /unknown command 'no-such-command'/);
  });

  test('a missing required flag exits 2 naming it', async () => {
    await expectUsage(['pull', '--format', 'trl'], /required option '--consumer <name>' not specified/);
  });
});
