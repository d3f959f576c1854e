// The docs checkers (docs-check.ts, markdown.ts) on small fixtures: each must fail when a flag, a config key, a link or an anchor is renamed,
// and pass on the same text before the rename (so docs.test.ts can fail at all).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkBareFlags, checkConfigKeys, checkFlags, cliMentions, configKeyPaths, helpBlocks, helpCommands, helpFlags } from './docs-check.js';
import { checkLinks, compareOutput, consoleExamples, headingAnchors, relativeLinks, slugify } from './markdown.js';

const PULL_HELP = `Usage: rlaifv pull [options]

Options:
  --consumer <name>       who receives the pairs
  --format <name>         trainer format (choices: "trl")
  --no-greedy             a negated flag
  -h, --help              display help for command
`;

const flags = new Map([['pull', helpFlags(PULL_HELP)]]);

describe('flags', () => {
  it('reads the long flags of a --help text', () => {
    expect([...helpFlags(PULL_HELP)]).toEqual(['--consumer', '--format', '--no-greedy', '--help']);
    expect(helpCommands('Commands:\n  run [options]   a round\n  pull [options]  pairs\n  help [command]  help\n')).toEqual(['run', 'pull']);
  });

  it('finds `rlaifv CMD --flag` in inline code, sh blocks and console blocks, a `\\` continuing a line', () => {
    const md = 'Use `rlaifv pull --consumer x --format trl`.\n\n```sh\nrlaifv pull --consumer a \\\n  --format trl   # a comment --ignored\n```\n\n```console\n$ npx rlaifv pull --consumer b | head -1\n```\n';
    expect(cliMentions(md)).toEqual([
      { command: 'pull', flags: ['--consumer', '--format'], line: 1 },
      { command: 'pull', flags: ['--consumer', '--format'], line: 4 },
      { command: 'pull', flags: ['--consumer'], line: 9 },
    ]);
  });

  it('passes known flags and fails a renamed flag or command, naming the file and line', () => {
    expect(checkFlags('a.md', 'x `rlaifv pull --consumer t --format trl`', flags)).toEqual([]);
    expect(checkFlags('a.md', 'x\n`rlaifv pull --customer t`', flags)).toEqual([
      { file: 'a.md', line: 2, message: 'rlaifv pull has no flag --customer' },
    ]);
    expect(checkFlags('a.md', '`rlaifv pul --consumer t`', flags)[0]!.message).toMatch(/rlaifv pul: no such command/);
  });

  it('checks flags named alone, and fails a renamed one', () => {
    const known = (f: string) => ['--spans', '--token-weight'].includes(f);
    expect(checkBareFlags('a.md', '`--spans` and `--token-weight γ`, not `a --b`', known)).toEqual([]);
    expect(checkBareFlags('a.md', '`--span`', known)).toEqual([
      { file: 'a.md', line: 1, message: '--span is no flag of rlaifv, its scripts or a known outside tool' },
    ]);
  });

  it('compares a help block shown in a page', () => {
    expect(helpBlocks('### rlaifv pull\n\n```text\nUsage: x\n  --a\n```\n').get('pull')).toBe('Usage: x\n  --a');
  });
});

describe('config keys', () => {
  const schema = z.strictObject({
    pair: z.strictObject({ diff: z.number().default(1), refine: z.strictObject({ max_turns: z.number() }).default({ max_turns: 3 }) }).default({ diff: 1, refine: { max_turns: 3 } }),
    generate: z.strictObject({ backend: z.discriminatedUnion('type', [z.strictObject({ type: z.literal('local'), model: z.string() }), z.strictObject({ type: z.literal('openai'), base_urls: z.array(z.string()) })]) }),
  });
  const keys = configKeyPaths(schema);

  it('lists every key path, through defaults and unions', () => {
    expect([...keys].sort()).toEqual(['generate', 'generate.backend', 'generate.backend.base_urls', 'generate.backend.model', 'generate.backend.type', 'pair', 'pair.diff', 'pair.refine', 'pair.refine.max_turns']);
  });

  it('passes known keys and sections and fails a renamed key', () => {
    expect(checkConfigKeys('c.md', '`pair.diff`, `pair.refine.*`, `generate.backend.base_urls`, `pair.diff: 2`', keys)).toEqual([]);
    expect(checkConfigKeys('c.md', 'a\n`pair.refine.max_turn`', keys)).toEqual([
      { file: 'c.md', line: 2, message: 'config key pair.refine.max_turn is not in src/config/schema.ts' },
    ]);
    // Not a config path: the first segment is no top-level key.
    expect(checkConfigKeys('c.md', '`rounds.purpose`, `meta.truth`', keys)).toEqual([]);
  });
});

describe('links', () => {
  const pages = new Map([
    ['README.md', '# Title\n\n[a](docs/a.md#the-pairs-rlaifv-pull) [pic](data/x.png) [web](https://x.org) `[no](nowhere.md)`\n'],
    ['docs/a.md', '# A\n\n## The pairs: `rlaifv pull`\n\n## Twice\n\n## Twice\n\n[back](../README.md#title) [self](#twice-1)\n'],
  ]);
  const exists = (p: string) => p === 'data/x.png';

  it('makes GitHub anchors, numbering repeated headings', () => {
    expect(slugify("The policy's correction rate (FIRE, InterFeedback)")).toBe('the-policys-correction-rate-fire-interfeedback');
    expect([...headingAnchors(pages.get('docs/a.md')!)]).toEqual(['a', 'the-pairs-rlaifv-pull', 'twice', 'twice-1']);
  });

  it('reads a link whose text wraps onto the next line, and none inside code', () => {
    expect(relativeLinks('see [the loop\nstudy](a.md#x) and `[no](b.md)`\n\n```\n[no](c.md)\n```\n')).toEqual([{ target: 'a.md#x', line: 2 }]);
  });

  it('passes links that resolve and fails a renamed page, anchor or file', () => {
    expect(checkLinks(pages, exists)).toEqual([]);
    const renamed = new Map(pages);
    renamed.set('README.md', '# Title\n\n[a](docs/b.md) [c](docs/a.md#the-pair) [pic](data/y.png)\n');
    expect(checkLinks(renamed, exists).map((p) => p.message)).toEqual([
      'link to docs/b.md: docs/b.md does not exist',
      'link to docs/a.md#the-pair: docs/a.md has no heading #the-pair',
      'link to data/y.png: data/y.png does not exist',
    ]);
    expect(checkLinks(renamed, exists, new Set(['docs/b.md']))).toHaveLength(2);
  });
});

describe('runnable examples', () => {
  const md = 'x\n<!-- docs-test: long (a whole round) -->\n```console\n$ rlaifv sql "SELECT 1\n  AS one"\none\n  1\n$ rlaifv stats\n```\n\n```console\n$ rlaifv run\n```\n';

  it('reads commands, their shown output and the block\'s mode', () => {
    const ex = consoleExamples(md);
    expect(ex.map((e) => [e.mode, e.note])).toEqual([['long', '(a whole round)'], ['run', '']]);
    expect(ex[0]!.commands).toEqual([
      { command: 'rlaifv sql "SELECT 1\n  AS one"', expected: ['one', '  1'], line: 4 },
      { command: 'rlaifv stats', expected: [], line: 8 },
    ]);
  });

  it('compares figures, ignoring spacing and durations, and fails a changed figure', () => {
    const shown = ['  pair     340 pairs, 332 after length balance (r=0.28)      0.2', 'failures: 0'];
    const real = 'round 1\n  pair     340 pairs, 332 after length balance (r=0.28)     17.9\n[label] done in 3s\nfailures: 0\n';
    expect(compareOutput(shown, real, true)).toBeNull();
    expect(compareOutput(shown, real.replace('332', '331'), true)).toMatch(/expected a line/);
    expect(compareOutput(['pulled 66 pairs to …'], 'pulled 66 pairs to /tmp/a/r1.jsonl')).toBeNull();
  });
});
