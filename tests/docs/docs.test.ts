// Docs that cannot drift: README.md, CHANGELOG.md and docs/**/*.md checked against the built CLI (dist/cli/main.js),
// the config's zod schema and the repository's files. Runnable examples (```console blocks with `$ ` lines) run in a
// temp folder on the embedded default config; a block marked `<!-- docs-test: long … -->` runs only with
// RLAIFV_DOCS_LONG=1 (its figures were checked once, as its note says), `server` and `skip` blocks never run.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { CLI, runNode } from '../helpers/run-cli.js';
import { checkBareFlags, checkConfigKeys, checkFlags, configKeyPaths, helpBlocks, helpCommands, helpFlags } from './docs-check.js';
import { checkLinks, compareOutput, consoleExamples, linesWithFences, relativeLinks, type DocProblem } from './markdown.js';

/** Pages other engineers are writing on their own branches now; the index links them before they merge. */
const PENDING = new Set<string>();
/** Commands other engineers are adding on their own branches now (`rlaifv serve`, `rlaifv claims`); named before they merge. */
const PENDING_COMMANDS: string[] = [];

function docPages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const f of ['README.md', 'CHANGELOG.md']) pages.set(f, readFileSync(path.join(ROOT, f), 'utf8'));
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) pages.set(rel, readFileSync(path.join(ROOT, rel), 'utf8'));
    }
  };
  walk('docs');
  return pages;
}

/** Flags of servers and trainers the pages tell the reader to pass (vLLM, SGLang, Hugging Face trainers, OpenRLHF). */
const OUTSIDE_FLAGS = new Set(['--max-logprobs', '--enable-lora', '--generation-config', '--sampling-defaults', '--enable-deterministic-inference', '--save_strategy', '--margin_key',
  '--limit-mm-per-prompt', '--finetuning_type', '--remote_rm_url', '--data']);

/** The text of every script under the given folders (where their own flags are parsed). */
function sourceTexts(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mjs|js|py|sh)$/.test(e.name)) out.push(readFileSync(path.join(ROOT, rel), 'utf8'));
    }
  };
  dirs.forEach(walk);
  return out;
}

const report = (problems: DocProblem[]) => problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
const pages = docPages();
const help = new Map<string, string>();

beforeAll(async () => {
  // Every command's --help, from the built CLI (the flags a page may name); the commands start at once.
  help.set('', execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }));
  const commands = helpCommands(help.get('')!);
  const texts = await Promise.all(commands.map((c) => runNode([c, '--help'])));
  commands.forEach((c, i) => help.set(c, texts[i]!.stdout));
});

describe('the documentation', () => {
  it('README.md is a front page of at most 300 lines, with no study or changelog text', () => {
    const readme = pages.get('README.md')!;
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    expect(readme).not.toMatch(/^#+ (Study|Status|Known gaps)/m);
  });

  it('every relative link and #anchor resolves', () => {
    expect(report(checkLinks(pages, (p) => existsSync(path.join(ROOT, p)), PENDING))).toEqual([]);
  });

  it('every docs page is reachable from README.md', () => {
    const seen = new Set(['README.md']);
    const queue = ['README.md'];
    while (queue.length) {
      const file = queue.shift()!;
      for (const { target } of relativeLinks(pages.get(file) ?? '')) {
        const rel = path.posix.normalize(path.posix.join(path.posix.dirname(file), target.split('#')[0]!));
        if (pages.has(rel) && !seen.has(rel)) {
          seen.add(rel);
          queue.push(rel);
        }
      }
    }
    expect([...pages.keys()].filter((p) => !seen.has(p))).toEqual([]);
  });

  it('every flag written after `rlaifv CMD` is one of that command\'s flags', () => {
    const flags = new Map([...help].filter(([c]) => c).map(([c, h]) => [c, helpFlags(h)] as const));
    const problems = [...pages].flatMap(([file, md]) => report(checkFlags(file, md, flags)));
    expect(problems.filter((p) => !PENDING_COMMANDS.some((c) => p.includes(`rlaifv ${c}: no such command`)))).toEqual([]);
  });

  it('every flag named alone is a flag of rlaifv, of a script of this repository, or of a named outside tool', () => {
    const ours = new Set([...help.values()].flatMap((h) => [...helpFlags(h)]));
    const scripts = sourceTexts(['scripts', 'tests/helpers']);
    const known = (f: string) => ours.has(f) || OUTSIDE_FLAGS.has(f) || scripts.some((t) => t.includes(`'${f}'`) || t.includes(`"${f}"`));
    expect([...pages].flatMap(([file, md]) => report(checkBareFlags(file, md, known)))).toEqual([]);
  });

  it('the CLI reference shows every command\'s --help exactly as the built command prints it', () => {
    const shown = helpBlocks(pages.get('docs/cli.md')!);
    const commands = [...help.keys()].filter(Boolean);
    expect(commands.filter((c) => !shown.has(c))).toEqual([]);
    for (const c of commands) expect(shown.get(c), `docs/cli.md: rlaifv ${c} --help`).toBe(help.get(c)!.trimEnd());
  });

  it('every config key a page names exists, and every key name of the schema is in the config reference', () => {
    const keys = configKeyPaths(configSchema);
    expect([...pages].flatMap(([file, md]) => report(checkConfigKeys(file, md, keys)))).toEqual([]);
    const md = pages.get('docs/config.md')!;
    const spans = new Set(md.split('`').filter((_, i) => i % 2 === 1));
    expect([...keys].filter((k) => !spans.has(k) && !spans.has(k.split('.').pop()!))).toEqual([]);
  });

  it('every code block with `$ ` command lines is a console block (so what runs is marked)', () => {
    const unmarked = [...pages].flatMap(([file, md]) =>
      linesWithFences(md)
        .filter((l) => l.fenced && l.lang !== 'console' && /^\$ /.test(l.text))
        .map((l) => `${file}:${l.line}`),
    );
    expect(unmarked).toEqual([]);
  });

  it('`npm start`, which the examples run as `rlaifv run`, is `rlaifv run`', () => {
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start).toBe('node dist/cli/main.js run');
  });
});

/** A temp folder where `rlaifv`, `npx rlaifv` and `npm start` run the built CLI, with the repository's data and models. */
function exampleFolder(): { dir: string; env: Record<string, string> } {
  const dir = tempDir('rlaifv-docs-');
  for (const d of ['data', 'models']) symlinkSync(path.join(ROOT, d), path.join(dir, d));
  const bin = path.join(dir, '.bin');
  mkdirSync(bin);
  const shim = (name: string, body: string) => {
    writeFileSync(path.join(bin, name), `#!/bin/bash\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  };
  shim('rlaifv', `exec "${process.execPath}" "${CLI}" "$@"`);
  shim('npx', 'if [ "$1" = rlaifv ]; then shift; exec rlaifv "$@"; fi; echo "docs test: only npx rlaifv runs here" >&2; exit 127');
  shim('npm', 'if [ "$1" = start ]; then shift; [ "$1" = -- ] && shift; exec rlaifv run "$@"; fi; echo "docs test: only npm start runs here" >&2; exit 127');
  return { dir, env: { PATH: `${bin}:${process.env.PATH}` } };
}

function runShell(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const long = process.env.RLAIFV_DOCS_LONG === '1';

let demo: Promise<string> | undefined;
/** The store of `rlaifv run --limit 40` on the embedded default, made once for every page that shows it. */
function demoRound(): Promise<string> {
  demo ??= (async () => {
    const { dir, env } = exampleFolder();
    const { code, out } = await runShell('rlaifv run --limit 40 --quiet', dir, env);
    if (code !== 0) throw new Error(`rlaifv run --limit 40 failed: ${out}`);
    return path.join(dir, 'db');
  })();
  return demo;
}

describe('runnable examples', () => {
  for (const [file, md] of pages) {
    const examples = consoleExamples(md).filter((e) => e.mode === 'run' || (e.mode === 'long' && long));
    if (examples.length === 0) continue;
    // One folder per page: a page's blocks run in order, so a later block may read what an earlier one made.
    it(`${file}: every command shown runs and prints the figures shown`, async () => {
      const { dir, env } = exampleFolder();
      // The pages' examples share the 40-prompt demo round: made once, copied in, and the page's own `rlaifv run
      // --limit 40` then resumes it (nothing redone) and must still print what the page shows.
      if (examples.some((e) => e.commands.some((c) => /^rlaifv run --limit 40 /.test(c.command)))) {
        cpSync(await demoRound(), path.join(dir, 'db'), { recursive: true });
      }
      for (const ex of examples) {
        for (const c of ex.commands) {
          const { code, out } = await runShell(c.command, dir, env);
          expect(code, `${file}:${c.line}: $ ${c.command}\n${out}`).toBe(0);
          const mismatch = compareOutput(c.expected, out, true);
          expect(mismatch, `${file}:${c.line}: $ ${c.command}`).toBeNull();
        }
      }
    });
  }
});
