// The CLI loads only what the invoked command needs: src/cli/commands.ts names the commands each module registers,
// main.ts loads just the owner of argv[2], and a command's flags are parsed before its library is loaded. Checked
// on the built CLI with a module-resolution hook that logs every module it loads (no timing involved).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { beforeAll, describe, expect, test } from 'vitest';
import { COMMAND_MODULES, modulesFor } from '../../src/cli/commands.js';
import { tempDir } from '../helpers/paths.js';
import { runNode } from '../helpers/run-cli.js';

let dir: string;
let hookImport: string;

beforeAll(() => {
  dir = tempDir('rlaifv-lazy-load-');
  // Resolve hooks run on their own thread; each resolved URL is appended to the file named by RLAIFV_IMPORT_LOG.
  writeFileSync(
    path.join(dir, 'hook.mjs'),
    "import { appendFileSync } from 'node:fs';\n" +
      'export async function resolve(specifier, context, next) {\n' +
      '  const r = await next(specifier, context);\n' +
      "  appendFileSync(process.env.RLAIFV_IMPORT_LOG, r.url + '\\n');\n" +
      '  return r;\n' +
      '}\n',
  );
  writeFileSync(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n");
  hookImport = pathToFileURL(path.join(dir, 'register.mjs')).href;
});

/** Runs the built CLI and returns its result with the URL of every module it loaded. */
async function loaded(name: string, args: string[]) {
  const log = path.join(dir, `${name}.log`);
  writeFileSync(log, '');
  const env = { RLAIFV_IMPORT_LOG: log, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hookImport}`.trim() };
  const r = await runNode(args, { cwd: dir, env });
  // A module imported from several places is resolved once per importer: each URL counts once.
  return { ...r, urls: [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] };
}

/** The library a bad flag or a missing database never needs: SQLite, the model runtime, the executor, the evaluation. */
const HEAVY = [
  '/node_modules/better-sqlite3/',
  '/node_modules/@huggingface/transformers/',
  '/node_modules/onnxruntime-node/',
  '/dist/store/open.js',
  '/dist/pipeline/round.js',
  '/dist/eval/index.js',
  '/dist/report/index.js',
];
const heavyIn = (urls: string[]) => urls.filter((u) => HEAVY.some((h) => u.includes(h)));
/** HTTP clients and image decoders: only a command that talks to a server or reads an image needs them. */
const CLIENTS = ['/node_modules/openai/', '/node_modules/undici/', '/node_modules/sharp/', '/node_modules/hyparquet/', '/node_modules/bmp-ts/', '/node_modules/piscina/'];
const clientsIn = (urls: string[]) => urls.filter((u) => CLIENTS.some((h) => u.includes(h)));
const cliModules = (urls: string[]) => urls.filter((u) => /\/dist\/cli\/[^/]+\.js$/.test(u)).map((u) => path.basename(u)).sort();

describe('the command table', () => {
  test('each module registers exactly the commands the table names for it, and no command twice', async () => {
    const all: string[] = [];
    for (const m of COMMAND_MODULES) {
      const program = new Command();
      (await m.load())(program);
      expect(program.commands.map((c) => c.name())).toEqual([...m.names]);
      all.push(...m.names);
    }
    expect(new Set(all).size).toBe(all.length);
  });

  test('a known command loads its own module only; anything else loads them all', () => {
    expect(modulesFor('stats').map((m) => m.names)).toEqual([['stats']]);
    expect(modulesFor('label').map((m) => m.names[0])).toEqual(['run']);
    for (const other of [undefined, 'help', '--help', '-h', 'no-such-command', 'constructor']) {
      expect(modulesFor(other), String(other)).toBe(COMMAND_MODULES);
    }
  });
});

describe.concurrent('the built CLI loads only what the invoked command needs', () => {
  test('a bad flag value: only run.js of the command modules, and none of the library', async () => {
    const r = await loaded('run-limit', ['run', '--limit', 'abc']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--limit must be a whole number ≥ 1, got "abc"/);
    expect(cliModules(r.urls)).toEqual(['commands.js', 'common.js', 'flags.js', 'main.js', 'progress.js', 'run.js']);
    expect(heavyIn(r.urls)).toEqual([]);
    expect(r.urls.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
  });

  test('stats on a missing database never opens SQLite; without --config it loads no config schema (zod), with one it checks it', async () => {
    const r = await loaded('stats-missing', ['stats', '--db', path.join(dir, 'none.sqlite')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/No database at .*none\.sqlite/);
    expect(r.urls.some((u) => u.endsWith('/dist/config/load.js'))).toBe(false);
    expect(r.urls.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
    expect(heavyIn(r.urls)).toEqual([]);
    writeFileSync(path.join(dir, 'stats-bad.json'), JSON.stringify({ bogus_key: 1 }));
    const c = await loaded('stats-config', ['stats', '--config', path.join(dir, 'stats-bad.json'), '--db', path.join(dir, 'none.sqlite')]);
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr).toMatch(/unknown key "bogus_key"/);
    expect(c.urls.some((u) => u.endsWith('/dist/config/load.js'))).toBe(true);
    expect(heavyIn(c.urls)).toEqual([]);
  });

  test('the top-level help loads every command module and still none of the library, zod included', async () => {
    const r = await loaded('help', ['--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const name of COMMAND_MODULES.flatMap((m) => m.names)) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(cliModules(r.urls)).toEqual(expect.arrayContaining(['bon.js', 'claims.js', 'serve.js', 'sql.js', 'stats.js']));
    expect(heavyIn(r.urls)).toEqual([]);
    expect(r.urls.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
  });

  test('a command refusing its config or a missing file loads neither HTTP clients nor image decoders nor models', async () => {
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ bogus_key: 1 }));
    const none = path.join(dir, 'none.jsonl');
    const policy = path.join(dir, 'no-model');
    const cases: [string[], RegExp][] = [
      [['doctor', '--config', path.join(dir, 'bad.json')], /unknown key "bogus_key"/],
      [['run', '--config', path.join(dir, 'bad.json')], /unknown key "bogus_key"/],
      [['eval', '--db', path.join(dir, 'none.sqlite')], /Database .*none\.sqlite does not exist\./],
      [['bon', '--prompts', none, '--policy', policy, '--ref', policy], /Prompts file .*none\.jsonl does not exist\./],
    ];
    for (const [args, message] of cases) {
      const r = await loaded(`refuse-${args[0]}-${args[1]}`, args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout + r.stderr).toMatch(message);
      expect(heavyIn(r.urls), args.join(' ')).toEqual([]);
      expect(clientsIn(r.urls), args.join(' ')).toEqual([]);
    }
  });

  test('a local-backend run (its round made, then a missing prompts file) loads no HTTP client, image decoder or Parquet reader', async () => {
    const r = await loaded('run-missing', ['run', '--db', path.join(dir, 'run.sqlite'), '--prompts', path.join(dir, 'none.jsonl')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/Prompts file .*none\.jsonl does not exist\./);
    expect(r.stderr).toMatch(/^round 1 in .*run\.sqlite \(\d+ workers/);
    expect(clientsIn(r.urls).filter((u) => !u.includes('/node_modules/piscina/'))).toEqual([]);
  });

  test('a rerun that finds its round done starts no worker thread (the run that did the work started them) and loads no image decoder (its images are stored); a JSONL pull or export of its pairs loads no Parquet writer', async () => {
    const db = path.join(dir, 'rerun.sqlite');
    const args = ['run', '--db', db, '--limit', '1', '--samples', '2', '--workers', '2', '--quiet'];
    const worker = (urls: string[]) => urls.filter((u) => u.endsWith('/node_modules/piscina/dist/worker.js'));
    const first = await loaded('rerun-first', args);
    expect(first.code, first.stderr).toBe(0);
    expect(worker(first.urls)).toHaveLength(1);
    const again = await loaded('rerun-again', args);
    expect(again.code, again.stderr).toBe(0);
    expect(worker(again.urls)).toEqual([]);
    expect(first.urls.filter((u) => u.includes('/node_modules/sharp/'))).not.toEqual([]);
    expect(again.urls.filter((u) => u.includes('/node_modules/sharp/'))).toEqual([]);
    // Its pairs pulled as JSONL: the Parquet writer (hyparquet-writer and hyparquet) is not loaded.
    const pull = await loaded('pull-jsonl', ['pull', '--consumer', 'lazy', '--db', db, '--format', 'trl', '--out', path.join(dir, 'pairs.jsonl')]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stdout + pull.stderr).toMatch(/pulled \d+ new pairs/);
    expect(pull.urls.filter((u) => u.includes('/node_modules/hyparquet'))).toEqual([]);
    // Exported as JSONL: neither the Parquet writer nor the shapes world's truth schema (zod).
    const exp = await loaded('export-jsonl', ['export', '--round', '1', '--db', db, '--format', 'trl', '--out', path.join(dir, 'export.jsonl')]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.urls.filter((u) => u.includes('/node_modules/hyparquet') || u.includes('/node_modules/zod/'))).toEqual([]);
  });

  test('worker threads that only divide (a claims preview with the rules divider) load wink-nlp but no model runtime: neither transformers.js, onnxruntime nor sharp', async () => {
    const answers = path.join(dir, 'answers.jsonl');
    writeFileSync(answers, [
      { id: 'a', answer: 'The image features a large, old-fashioned clock mounted on a brick wall.' },
      { id: 'b', answer: 'A man in a red shirt is riding a bicycle next to a parked car.' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(path.join(dir, 'two-workers.json'), JSON.stringify({ workers: 2 }));
    const r = await loaded('claims-rules', ['claims', '--in', answers, '--config', path.join(dir, 'two-workers.json'), '--out', path.join(dir, 'claims.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/divided 2 of 2 lines with the rules divider/);
    expect(readFileSync(path.join(dir, 'claims.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).claims.length > 0)).toEqual([true, true]);
    // The divider ran in the pool's threads: its language model was loaded there, and the model code was not.
    expect(r.urls.filter((u) => u.endsWith('/node_modules/piscina/dist/worker.js'))).toHaveLength(1);
    expect(r.urls.filter((u) => u.includes('/node_modules/wink-nlp/'))).not.toEqual([]);
    expect(r.urls.filter((u) => ['/node_modules/@huggingface/transformers/', '/node_modules/onnxruntime-node/', '/node_modules/sharp/'].some((h) => u.includes(h)))).toEqual([]);
  });

  test('doctor probing served models sends the package\'s image as it is: no image decoder is loaded', async () => {
    const dead = { base_urls: ['http://127.0.0.1:9'], max_retries: 0 };
    writeFileSync(path.join(dir, 'remote.json'), JSON.stringify({
      generate: { temperature: 0, backend: { type: 'openai', model: 'shapes-policy', ...dead } },
      label: { backend: { type: 'openai', model: 'shapes-labeler', ...dead } },
    }));
    const r = await loaded('doctor-remote', ['doctor', '--config', path.join(dir, 'remote.json'), '--db', path.join(dir, 'doctor.sqlite')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/fail\s+label endpoint\s+http:\/\/127\.0\.0\.1:9: not reachable/);
    expect(r.urls.filter((u) => u.includes('/node_modules/sharp/'))).toEqual([]);
  });

  test('an unknown command is still told apart from a near one', async () => {
    const r = await loaded('unknown', ['stat']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'stat'\n\(Did you mean stats\?\)/);
  });

  test('the log sees what a command that reaches the store loads (better-sqlite3 through merge)', async () => {
    const r = await loaded('merge', ['merge', '--into', path.join(dir, 'merged.sqlite'), path.join(dir, 'none.sqlite')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/none\.sqlite does not exist/);
    expect(heavyIn(r.urls)).toEqual(expect.arrayContaining(['/node_modules/better-sqlite3/', '/dist/store/open.js'].map((h) => expect.stringContaining(h))));
  });
});
