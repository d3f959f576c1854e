// `rlaifv doctor` as a user runs it: the built command as a child process against real parts (the tiny models and
// copies of them with a file removed, real SQLite files, damaged on disk, and the OpenAI-compatible test server on
// 127.0.0.1 backed by the real models, with its own faults: down, another model, no logprobs, a logprobs limit, a key).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cpSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LABELER, tempDir } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { latestSchemaVersion, openDb } from '../../src/store/index.js';
import { sharedPool } from '../helpers/file-pool.js';

interface Row {
  check: string;
  target: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix: string | null;
}
interface Report {
  ok: boolean;
  exit_code: number;
  counts: { ok: number; warn: number; fail: number };
  checks: Row[];
}

let dir: string;
let server: TestServer;
/** A second endpoint on the same models: needs an API key and allows at most 5 logprobs (vLLM --max-logprobs 5). */
let strict: TestServer;
let goodDb: string;
const KEY = 'sk-doctor-test-7f3c9a1e5b2d4068';

/** Runs `rlaifv doctor --json` and the same in text; returns both with the parsed report. */
async function doctor(args: string[], env: Record<string, string> = {}): Promise<{ json: CliResult; text: CliResult; report: Report }> {
  const [json, text] = await Promise.all([
    runNode(['doctor', ...args, '--json'], { cwd: dir, env }),
    runNode(['doctor', ...args], { cwd: dir, env }),
  ]);
  expect(json.stderr).toBe('');
  const report = JSON.parse(json.stdout) as Report;
  expect(text.code).toBe(json.code);
  expect(json.code).toBe(report.exit_code);
  // Every check is a line of the text output, and each warning and failure has its fix under it.
  for (const c of report.checks) {
    expect(text.stdout).toContain(`${c.status.padEnd(4)}  ${c.check}`);
    if (c.status !== 'ok') {
      expect(c.fix, `${c.check}: ${c.detail}`).toBeTruthy();
      expect(text.stdout).toContain(`fix: ${c.fix}`);
    }
  }
  return { json, text, report };
}

function config(name: string, body: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

/**
 * A config with every role on servers (no local model is loaded): policy and divider on the healthy server. Only with
 * `sampling` does the policy sample at its default temperature, so that doctor runs its sampling check (five answers
 * of up to 512 tokens: 0.4 s of the server's CPU per doctor run); the other tests are about the labeler and set
 * generate.temperature to 0, where that check is ok by design without sampling.
 */
function remote(label: Record<string, unknown>, top?: number, sampling = false): Record<string, unknown> {
  return {
    generate: { ...(sampling ? {} : { temperature: 0 }), backend: { type: 'openai', model: 'shapes-policy', base_urls: [server.url], max_retries: 0 } },
    divide: { backend: { type: 'llm', model: 'rules-divider', base_urls: [server.url], max_retries: 0 } },
    label: { backend: { type: 'openai', model: 'shapes-labeler', base_urls: [server.url], max_retries: 0, ...label }, ...(top ? { top_logprobs: top } : {}) },
  };
}

const find = (r: Report, check: string, status?: Row['status']) => r.checks.filter((c) => c.check === check && (!status || c.status === status));

beforeAll(async () => {
  dir = tempDir('rlaifv-doctor-');
  server = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
  strict = await TestServer.start({ mimic: 'vllm', pool: server.pool, apiKey: KEY, maxLogprobs: 5 });
  goodDb = path.join(dir, 'good.sqlite');
  openDb(goodDb).close(); // a real store: migrated to this build's schema, WAL
});

afterAll(async () => {
  await strict?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('healthy setups pass', () => {
  test('the default setup (embedded config, the two tiny models, a store): every check ok, exit 0', async () => {
    const { report, text } = await doctor(['--db', goodDb]);
    expect(report.exit_code).toBe(0);
    expect(report.counts).toEqual({ ok: report.checks.length, warn: 0, fail: 0 });
    expect(report.checks.map((c) => c.check)).toEqual([
      'config', 'prompts',
      'policy model files', 'policy model loads',
      'labeler model files', 'labeler model loads', 'labeler yes/no tokens',
      'database integrity', 'database schema', 'database WAL',
    ]);
    expect(find(report, 'database schema')[0]!.detail).toBe(`schema version ${latestSchemaVersion()} (this rlaifv: ${latestSchemaVersion()})`);
    expect(find(report, 'labeler yes/no tokens')[0]!.detail).toMatch(/^"yes": \d+ tokens? \(.*"yes".*\), "no": \d+ \(.*"no".*\)$/);
    expect(text.stdout).toMatch(/\n10 ok, 0 warnings, 0 failures\n$/);
  });

  test('every role on a server: reachable, model served, a 1-token completion works, yes/no in top_logprobs; exit 0', async () => {
    const { report } = await doctor(['--config', config('remote-ok.json', remote({}, undefined, true)), '--db', goodDb]);
    expect(report.exit_code, JSON.stringify(report.checks.filter((c) => c.status !== 'ok'))).toBe(0);
    expect(report.counts.fail + report.counts.warn).toBe(0);
    for (const role of ['generate', 'divide', 'label']) {
      expect(find(report, `${role} endpoint`, 'ok')).toHaveLength(1);
      expect(find(report, `${role} completion`, 'ok')).toHaveLength(1);
    }
    // The policy sampled as a run does (the one test here that has it sample; the others set temperature 0).
    expect(find(report, 'generate sampling', 'ok')[0]!.detail).toMatch(/^4 seeded samples at temperature 0\.7 give [2-4] different answers /);
    expect(find(report, 'generate seeds', 'ok')[0]!.detail).toBe('the same seed gives the same answer');
    expect(find(report, 'label completion')[0]!.detail).toMatch(/logprobs works: top_logprobs 20 listed/);
    expect(find(report, 'label yes/no', 'ok')[0]!.detail).toMatch(/^"yes" and "no" both among the top 20 tokens \(p_yes [01]\.\d{3}, p_no [01]\.\d{3}\)$/);
    // No local model is checked (nor loaded) for a config without one.
    expect(report.checks.some((c) => /model (files|loads)/.test(c.check))).toBe(false);
  });

  test('a store that does not exist yet is a warning, not a failure (exit 0)', async () => {
    const { report } = await doctor(['--db', path.join(dir, 'not-yet.sqlite')]);
    expect(report.exit_code).toBe(0);
    expect(find(report, 'database', 'warn')[0]!.detail).toMatch(/does not exist yet; `rlaifv run` creates it/);
  });
});

describe('each problem fails with a fix', () => {
  test('a bad config file: exit 2, the field named, nothing else checked', async () => {
    const bad = config('bad.json', { generate: { samples: 'ten' }, label: { top_logprob: 20 } });
    const { report } = await doctor(['--config', bad]);
    expect(report.exit_code).toBe(2);
    expect(report.checks).toHaveLength(1);
    const c = report.checks[0]!;
    expect(c).toMatchObject({ check: 'config', target: bad, status: 'fail' });
    expect(c.detail).toContain('field generate.samples: Invalid input: expected number, received string');
    expect(c.detail).toContain('unknown key "top_logprob" in label (allowed: backend, suffix, top_logprobs, tools, routing)');
    const notJson = path.join(dir, 'not-json.json');
    writeFileSync(notJson, '{"seed": 1,}');
    const r2 = await doctor(['--config', notJson]);
    expect(r2.report.exit_code).toBe(2);
    expect(r2.report.checks[0]!.detail).toMatch(/^Config .*not-json\.json is not valid JSON: /);
    expect(r2.report.checks[0]!.fix).toMatch(/fix the JSON syntax/);
  });

  test('a model folder with a file missing: fails naming the folder and the file; exit 1', async () => {
    const folder = path.join(dir, 'labeler-no-tokenizer');
    cpSync(LABELER, folder, { recursive: true });
    rmSync(path.join(folder, 'tokenizer.json'));
    const { report, text } = await doctor(['--config', config('broken-model.json', { label: { backend: { type: 'local', model: 'labeler-no-tokenizer' } } }), '--db', goodDb]);
    expect(report.exit_code).toBe(1);
    const c = find(report, 'labeler model files', 'fail')[0]!;
    expect(c.target).toBe(folder);
    expect(c.detail).toMatch(new RegExp(`^label\\.backend\\.model: Model folder ${folder} is missing tokenizer\\.json; `));
    expect(c.fix).toContain(`copy the missing file(s) into ${folder}`);
    expect(find(report, 'labeler model loads')).toHaveLength(0); // not tried on an incomplete folder
    expect(find(report, 'policy model loads', 'ok')).toHaveLength(1); // the other model is still checked
    expect(text.stdout).toMatch(/\n\d+ ok, 0 warnings, 1 failure\n$/);
  });

  test('a file that is not a database, and a store with a damaged page: integrity fails; exit 1', async () => {
    const garbage = path.join(dir, 'garbage.sqlite');
    writeFileSync(garbage, 'these bytes are not a SQLite database; '.repeat(200));
    const g = (await doctor(['--db', garbage])).report;
    expect(g.exit_code).toBe(1);
    expect(find(g, 'database integrity', 'fail')[0]).toMatchObject({ target: garbage, detail: 'is not a SQLite database (or its header is destroyed)' });

    const damaged = path.join(dir, 'damaged.sqlite');
    const h = openDb(damaged);
    h.pragma('wal_checkpoint(TRUNCATE)');
    h.close();
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 3 * 4096); // one b-tree page overwritten
    closeSync(fd);
    const d = (await doctor(['--db', damaged])).report;
    expect(d.exit_code).toBe(1);
    const c = find(d, 'database integrity', 'fail')[0]!;
    expect(c.detail).toMatch(/^PRAGMA integrity_check found 1 problem: Tree \d+ page \d+: /);
    expect(c.fix).toContain(`sqlite3 ${damaged} .recover`);
  });

  test('a store from a newer schema version: fails, telling to upgrade rlaifv; exit 1; the file is not touched', async () => {
    const newer = path.join(dir, 'newer.sqlite');
    cpSync(goodDb, newer);
    const h = new Database(newer);
    h.pragma(`user_version = ${latestSchemaVersion() + 1}`);
    h.close();
    const before = readFileSync(newer);
    const { report } = await doctor(['--db', newer]);
    expect(report.exit_code).toBe(1);
    const c = find(report, 'database schema', 'fail')[0]!;
    expect(c.detail).toBe(`schema version ${latestSchemaVersion() + 1} is newer than this rlaifv's (${latestSchemaVersion()}): it was written by a newer rlaifv`);
    expect(c.fix).toMatch(/^upgrade rlaifv/);
    expect(readFileSync(newer).equals(before)).toBe(true);
  });

  test('a server that is down: the endpoint fails naming the base_urls entry; no completion is tried; exit 1', async () => {
    const gone = await TestServer.start({ mimic: 'vllm', pool: server.pool });
    const url = gone.url;
    await gone.close();
    const { report } = await doctor(['--config', config('down.json', remote({ base_urls: [server.url, url] })), '--db', goodDb]);
    expect(report.exit_code).toBe(1);
    const down = report.checks.filter((c) => c.target === url);
    expect(down).toHaveLength(1); // the endpoint check only
    expect(down[0]).toMatchObject({ check: 'label endpoint', status: 'fail', detail: 'not reachable (ECONNREFUSED)' });
    expect(down[0]!.fix).toBe(`check label.backend.base_urls[1] (host, port ${new URL(url).port}, and the /v1 at the end) and that the server is up and listening there: curl ${url}/models`);
    // The other endpoint of the same backend is fine.
    expect(report.checks.filter((c) => c.target === server.url && c.check.startsWith('label')).map((c) => c.status)).toEqual(['ok', 'ok', 'ok']);
  });

  test('a server that does not serve the model: fails listing what it serves; exit 1', async () => {
    const { report } = await doctor(['--config', config('no-model.json', remote({ model: 'llava-v1.6-34b' })), '--db', goodDb]);
    expect(report.exit_code).toBe(1);
    const c = find(report, 'label endpoint', 'fail')[0]!;
    expect(c.detail).toBe('reachable, but serves "shapes-policy", "shapes-labeler", "rules-divider", not "llava-v1.6-34b"');
    expect(c.fix).toBe('set label.backend.model to the served name ("shapes-policy", "shapes-labeler", "rules-divider"), or start the server with --served-model-name llava-v1.6-34b (vLLM)');
    expect(find(report, 'label completion')).toHaveLength(0);
  });

  test('a server that answers without logprobs (fault "nologprobs"): the labeler completion fails; exit 1', async () => {
    // One labeler request per doctor run, and two runs (--json and text): the fault is armed for both.
    server.inject({ kind: 'nologprobs', times: 2, model: 'shapes-labeler' });
    const { report } = await doctor(['--config', config('nologprobs.json', remote({})), '--db', goodDb]);
    expect(server.faults.at(-1)!.times).toBe(0);
    expect(report.exit_code).toBe(1);
    const c = find(report, 'label completion', 'fail')[0]!;
    expect(c.detail).toBe('a 1-token chat completion answered without logprobs (choices[0].logprobs.content[0].top_logprobs missing)');
    expect(c.fix).toMatch(/^the labeler needs logprobs: serve it with vLLM or SGLang .*--max-logprobs 20/);
    expect(find(report, 'label yes/no')).toHaveLength(0);
    expect(find(report, 'generate completion', 'ok')).toHaveLength(1);
  });

  test('top_logprobs over the server\'s limit: the completion fails with the limit to set; exit 1', async () => {
    const { report } = await doctor(['--config', config('too-many.json', remote({ base_urls: [strict.url], api_key_env: 'DOCTOR_TEST_KEY' })), '--db', goodDb], { DOCTOR_TEST_KEY: KEY });
    expect(report.exit_code).toBe(1);
    const c = find(report, 'label completion', 'fail')[0]!;
    expect(c.detail).toBe('a 1-token chat completion with logprobs (top_logprobs 20) failed: HTTP 400: Requested sample logprobs of 20, which is greater than max allowed: 5');
    expect(c.fix).toBe('set label.top_logprobs to 5 or less (the server\'s limit), or restart the server allowing 20 (vLLM: --max-logprobs 20)');
    // With top_logprobs 5 the same endpoint passes.
    const fixed = await doctor(['--config', config('five.json', remote({ base_urls: [strict.url], api_key_env: 'DOCTOR_TEST_KEY' }, 5)), '--db', goodDb], { DOCTOR_TEST_KEY: KEY });
    expect(find(fixed.report, 'label completion', 'ok')[0]!.detail).toMatch(/top_logprobs 5 listed/);
  });
});

describe('secrets', () => {
  test('the API key never appears in the output: accepted, refused, or its variable unset', async () => {
    const cfg = config('keyed.json', remote({ base_urls: [strict.url], api_key_env: 'DOCTOR_TEST_KEY' }, 5));
    const accepted = await doctor(['--config', cfg, '--db', goodDb], { DOCTOR_TEST_KEY: KEY });
    expect(accepted.report.exit_code, JSON.stringify(accepted.report.checks.filter((c) => c.status !== "ok"))).toBe(0);
    expect(find(accepted.report, 'label API key', 'ok')[0]).toMatchObject({ target: '$DOCTOR_TEST_KEY', detail: 'set (not shown)' });

    const WRONG = 'sk-doctor-wrong-key-0a9b8c7d6e';
    const refused = await doctor(['--config', cfg, '--db', goodDb], { DOCTOR_TEST_KEY: WRONG });
    expect(refused.report.exit_code).toBe(1);
    const c = find(refused.report, 'label endpoint', 'fail')[0]!;
    expect(c.detail).toBe('refused the API key (HTTP 401: Invalid API key.)');
    expect(c.fix).toBe('set $DOCTOR_TEST_KEY to the key the server was started with (vLLM: --api-key)');

    const unset = await doctor(['--config', cfg, '--db', goodDb], { DOCTOR_TEST_KEY: '' });
    expect(unset.report.exit_code).toBe(1);
    expect(find(unset.report, 'label API key', 'fail')[0]!.fix).toBe(
      "export DOCTOR_TEST_KEY=<the server's key> in the shell that runs rlaifv (or set label.backend.api_key_file to a file holding it)");

    // The key from a file, too.
    const keyFile = path.join(dir, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`);
    const fromFile = await doctor(['--config', config('keyfile.json', remote({ base_urls: [strict.url], api_key_file: 'key.txt' }, 5)), '--db', goodDb]);
    expect(fromFile.report.exit_code).toBe(0);

    for (const r of [accepted, refused, unset, fromFile]) {
      for (const out of [r.json.stdout, r.json.stderr, r.text.stdout, r.text.stderr]) {
        expect(out).not.toContain(KEY);
        expect(out).not.toContain(WRONG);
        expect(out).not.toContain(KEY.slice(3, 15)); // not even a part of it
      }
    }
  });
});
