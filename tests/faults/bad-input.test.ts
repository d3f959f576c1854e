// Bad input, one test per kind, through the built `rlaifv` command as a user meets it: a good round is stored first,
// then the bad input is tried against a copy of that database. Each test checks the exact message (file:line or
// field), the exit code, what --on-error stop and skip (the default) do, and that nothing already stored is lost or
// half-written: every row of every table is compared before and after.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { DEV, LABELER, tempDir } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { changedTables, failures, lostRows, snapshot, type Snapshot } from '../helpers/db-snapshot.js';
import { latestSchemaVersion, openDb, putCandidates } from '../../src/store/index.js';
import { contentId } from '../../src/stages/ids.js';
import { wordCount } from '../../src/feedback/words.js';

let dir: string;
let cfg: string;
let good: string;
let base: string;
let baseSnap: Snapshot;
let baseStats: Record<string, unknown>;
/** Per kind: how many times it was tried and how many stored rows were lost (for the README table). */
const tally: { kind: string; sees: string; tried: number; lost: number }[] = [];

const rlaifv = (...args: string[]): Promise<CliResult> => runNode(args, { cwd: dir });

function copyDb(name: string): string {
  const file = path.join(dir, `${name}.sqlite`);
  for (const ext of ['', '-wal']) if (existsSync(base + ext)) copyFileSync(base + ext, file + ext);
  return file;
}

/** A prompts file: the first good prompt again (already stored: ingesting it again changes nothing), then the bad line. */
function badFile(name: string, badLine: string): string {
  const file = path.join(dir, `${name}.jsonl`);
  writeFileSync(file, `${readFileSync(good, 'utf8').split('\n')[0]}\n${badLine}\n`);
  return file;
}

beforeAll(async () => {
  dir = tempDir('rlaifv-bad-input-');
  const lines: string[] = [];
  for (const l of readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').slice(0, 3)) {
    const p = JSON.parse(l);
    copyFileSync(path.join(DEV, p.image), path.join(dir, path.basename(p.image)));
    lines.push(JSON.stringify({ ...p, image: path.basename(p.image) }));
  }
  good = path.join(dir, 'good.jsonl');
  writeFileSync(good, lines.join('\n') + '\n');
  // Images for the image kinds: each breaks exactly one rule.
  writeFileSync(path.join(dir, 'garbage.png'), 'these bytes are not an image');
  writeFileSync(path.join(dir, 'cut.png'), readFileSync(path.join(dir, 'dev-0000.png')).subarray(0, 120)); // header whole, data cut
  writeFileSync(path.join(dir, 'pic.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>');
  const noise = Buffer.alloc(400 * 400 * 3);
  // A 32-bit LCG (Math.imul keeps it exact): incompressible bytes, so the PNG stays over 200,000 bytes.
  for (let i = 0, x = 1; i < noise.length; i++) noise[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  await sharp(noise, { raw: { width: 400, height: 400, channels: 3 } }).png().toFile(path.join(dir, 'big-bytes.png')); // ~480 KB, 160,000 px
  await sharp({ create: { width: 600, height: 600, channels: 3, background: '#808080' } }).png().toFile(path.join(dir, 'big-pixels.png')); // small file, 360,000 px
  cfg = path.join(dir, 'rlaifv.json');
  writeFileSync(cfg, JSON.stringify({ prompts: 'good.jsonl', workers: 1, limits: { max_image_bytes: 200_000, max_image_pixels: 250_000, fetch_timeout_ms: 3000, fetch_retries: 1 }, generate: { samples: 2 } }));
  // A JPEG cut in the middle of its pixel data, and a folder where an image should be.
  const jpeg = await sharp(path.join(dir, 'dev-0000.png')).resize(320, 240).jpeg({ quality: 90 }).toBuffer();
  writeFileSync(path.join(dir, 'cut.jpg'), jpeg.subarray(0, Math.floor(jpeg.length / 2)));
  mkdirSync(path.join(dir, 'a-folder'));
  base = path.join(dir, 'base.sqlite');
  const r = await rlaifv('run', '--config', cfg, '--db', base, '--quiet');
  expect(r.code, r.stderr).toBe(0);
  baseSnap = snapshot(base);
  const s = await rlaifv('stats', '--db', base, '--json');
  baseStats = JSON.parse(s.stdout);
  expect(baseStats).toMatchObject({ prompts: 3, candidates: 6, failures: 0 });
});

afterAll(() => {
  if (process.env.RLAIFV_FAULT_TABLE) writeFileSync(process.env.RLAIFV_FAULT_TABLE, JSON.stringify(tally, null, 1));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The bad lines of one describe block, skipped together by one `rlaifv run` (the default, --on-error skip). */
interface SkipGroup {
  name: string;
  lines: (() => string)[];
  run?: Promise<SkipRun>;
}
/** What that one run did: the file it read (the good line, then each bad line of the group in turn), and its store. */
interface SkipRun {
  file: string;
  db: string;
  result: CliResult;
  after: Snapshot;
}
const skipGroup = (name: string): SkipGroup => ({ name, lines: [] });

/** The group's skip run, made by the first of its tests that asks for it and shared by the others. */
function skipRun(g: SkipGroup): Promise<SkipRun> {
  g.run ??= (async () => {
    const db = copyDb(`skip-${g.name}`);
    const file = path.join(dir, `skip-${g.name}.jsonl`);
    writeFileSync(file, [readFileSync(good, 'utf8').split('\n')[0], ...g.lines.map((l) => l())].join('\n') + '\n');
    const result = await rlaifv('run', '--config', cfg, '--db', db, '--prompts', file);
    return { file, db, result, after: snapshot(db) };
  })();
  return g.run;
}

/** A bad prompt line: --on-error stop exits 2 naming file:line and stores nothing; the default (skip) exits 0 with the
 * line recorded as an input failure with the same reason; the earlier rows are all still there, unchanged. The skip
 * half runs once per group, all the group's bad lines in one file after one good line: the product keeps one bad line
 * one failure (its own row, naming its own line), so each kind still finds its line skipped, its failure with its
 * reason, and the store otherwise as it was (20 fewer `rlaifv run` processes of about 0.5 s of CPU each). With `stats`,
 * `rlaifv stats` then shows the base's counts and the group's input failures: it runs for one kind per group, since
 * the store is shown equal to the base row for row but for the failure rows, and the counts are a function of the rows. */
function badLine(group: SkipGroup, kind: string, name: string, line: () => string, reason: (file: string) => string | RegExp, opts: { stats?: boolean } = {}) {
  const lineNo = group.lines.push(line) + 1; // after the good line
  test(kind, async () => {
    const db = copyDb(name);
    const file = badFile(name, line());
    const want = reason(file);
    const matches = (s: string) => (typeof want === 'string' ? s === want : want.test(s));

    const stop = await rlaifv('run', '--config', cfg, '--db', db, '--prompts', file, '--on-error', 'stop', '--quiet');
    expect(stop.code, stop.stderr).toBe(2);
    const msg = /^rlaifv: (.*):(\d+): (.*)\n$/s.exec(stop.stderr);
    expect(msg, stop.stderr).not.toBeNull();
    expect(msg![1]).toBe(file);
    expect(msg![2]).toBe('2');
    expect(matches(msg![3]!), msg![3]).toBe(true);
    const afterStop = snapshot(db);
    expect(afterStop).toEqual(baseSnap); // nothing at all was written, not even a failure

    const skip = await skipRun(group); // the default: skip and go on
    const n = group.lines.length;
    const at = `${skip.file}:${lineNo}`;
    expect(skip.result.code, skip.result.stderr).toBe(0);
    expect(skip.result.stderr).toContain(`skipped ${at}: `);
    expect(skip.result.stdout).toMatch(new RegExp(`\\n  input +1 prompts, ${n} bad lines `));
    expect(skip.result.stdout).toContain(`failures: ${n} {"input":${n}}`);
    const fails = failures(skip.db);
    expect(fails).toHaveLength(n);
    const mine = fails.filter((f) => f.item === at);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ round_id: 1, stage: 'input', item: at });
    expect(matches(mine[0]!.reason), mine[0]!.reason).toBe(true);
    const lost = lostRows(baseSnap, skip.after);
    expect(lost).toEqual([]);
    // Only the failures are new: no prompt, image or any later row of a bad line, nothing half-written.
    expect(changedTables(baseSnap, skip.after)).toEqual(['failures']);

    if (opts.stats) {
      const stats = JSON.parse((await rlaifv('stats', '--db', skip.db, '--json')).stdout);
      const same = ['prompts', 'candidates', 'divided', 'claims', 'questions', 'labeled', 'rejected_claims', 'scored', 'pairs', 'pairs_after_balance'];
      for (const k of same) expect(stats[k], k).toBe(baseStats[k]);
      expect(stats).toMatchObject({ failures: n, failures_by_stage: { input: n } });
    }
    tally.push({ kind, sees: `${file}:2: ${mine[0]!.reason}`, tried: 2, lost: lost.length + lostRows(baseSnap, afterStop).length });
  });
}

describe.concurrent('bad prompt lines (rlaifv run --on-error stop | skip)', () => {
  const lines = skipGroup('lines');
  badLine(lines, 'malformed JSON line', 'malformed', () => '{"image": "dev-0000.png", "question": "What', () => /^malformed JSON \(Unterminated string in JSON at position \d+\)$/);
  badLine(lines, 'missing field', 'missing', () => '{"question": "What is it?"}', () => 'field image: missing (required: a string)', { stats: true });
  badLine(lines, 'mistyped field', 'mistyped', () => '{"image": "dev-0000.png", "question": 7}', () => 'field question: must be a string, got a number');
  badLine(
    lines,
    'duplicate prompt id with different content',
    'dup-id',
    () => '{"id": "dev-0001", "image": "dev-0000.png", "question": "How many shapes are there?"}',
    () => `field id: prompt id "dev-0001" was already used by ${good}:2 with different content`,
  );
  badLine(lines, 'missing image file', 'no-image', () => '{"image": "nope.png", "question": "What?"}', () => `field image: image file ${path.join(dir, 'nope.png')} does not exist`);
  badLine(lines, 'corrupt image (not an image at all)', 'garbage', () => '{"image": "garbage.png", "question": "What?"}', () =>
    new RegExp(`^field image: image ${path.join(dir, 'garbage.png')} is corrupt or not an image \\(.+\\)$`));
  badLine(lines, 'corrupt image (a PNG cut after its header)', 'cut', () => '{"image": "cut.png", "question": "What?"}', () =>
    new RegExp(`^field image: image ${path.join(dir, 'cut.png')} is corrupt: its png data cannot be decoded \\(.+\\)$`));
  badLine(lines, 'unsupported image format (SVG)', 'svg', () => '{"image": "pic.svg", "question": "What?"}', () =>
    `field image: image ${path.join(dir, 'pic.svg')} has unsupported format svg; supported: png, jpeg, webp, gif (first frame), bmp, tiff, avif, heif`);
  badLine(lines, 'image too large (bytes, limits.max_image_bytes)', 'big-bytes', () => '{"image": "big-bytes.png", "question": "What?"}', () =>
    new RegExp(`^field image: image ${path.join(dir, 'big-bytes.png')} is \\d{6} bytes, over limits\\.max_image_bytes \\(200000\\)$`));
  badLine(lines, 'image too large (pixels, limits.max_image_pixels)', 'big-pixels', () => '{"image": "big-pixels.png", "question": "What?"}', () =>
    `field image: image ${path.join(dir, 'big-pixels.png')} is 600x600, over limits.max_image_pixels (250000)`);
  badLine(lines, 'empty question', 'empty-question', () => '{"image": "dev-0000.png", "question": "  "}', () => 'field question: must not be empty');
  badLine(lines, 'question too long (limits.max_question_chars)', 'long-question', () => JSON.stringify({ image: 'dev-0000.png', question: 'Why? '.repeat(1000) }), () =>
    'field question: 5000 characters, over limits.max_question_chars (4000)');
  badLine(lines, 'multi-turn history: a turn with an unknown role', 'history-role', () =>
    JSON.stringify({ image: 'dev-0000.png', question: 'And the circle?', history: [{ role: 'user', content: 'Where is it?' }, { role: 'bot', content: 'Top left.' }] }), () =>
    'field history.1.role: must be user or assistant');
  badLine(lines, 'multi-turn history: turns not alternating from a user turn', 'history-order', () =>
    JSON.stringify({ image: 'dev-0000.png', question: 'And the circle?', history: [{ role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Where is it?' }] }), () =>
    'field history.0.role: must be user (turns alternate user/assistant, starting with user)');
  badLine(lines, 'LLaVA row: a conversation with no human turn', 'llava-no-human', () =>
    JSON.stringify({ image: 'dev-0000.png', conversations: [{ from: 'gpt', value: 'There is a circle.' }] }), () =>
    'field conversations: no human turn (the last human turn is the question the policy answers)');
  badLine(lines, 'LLaVA row: a turn with an unknown from', 'llava-from', () =>
    JSON.stringify({ image: 'dev-0000.png', conversations: [{ from: 'human', value: '<image>\nWhat is it?' }, { from: 'robot', value: 'A circle.' }] }), () =>
    'field conversations.1.from: must be human or gpt, got "robot"');
});

// Images that are not where they should be: a folder, a cut JPEG, and URLs a real HTTP server on 127.0.0.1 answers
// with a 404, an HTML page or a file over the byte limit; "offline" is a closed port on 127.0.0.1.
describe.concurrent('bad images: folders, cut JPEGs, URLs', () => {
  const images = skipGroup('images');
  let server: http.Server;
  let url = '';
  let closed = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/page.png') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Sign in to see this image</body></html>');
      } else if (req.url === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300000' });
        res.end(Buffer.alloc(300_000));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closed = `http://127.0.0.1:${(probe.address() as { port: number }).port}/x.png`;
    await new Promise<void>((r) => probe.close(() => r()));
  });
  afterAll(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
  });
  badLine(images, 'a folder given as the image', 'folder', () => '{"image": "a-folder", "question": "What?"}', () =>
    `field image: image ${path.join(dir, 'a-folder')} is a directory, not an image file`);
  badLine(images, 'a truncated JPEG', 'cut-jpeg', () => '{"image": "cut.jpg", "question": "What?"}', () =>
    new RegExp(`^field image: image ${path.join(dir, 'cut.jpg')} is corrupt: its jpeg data cannot be decoded \\(.+\\)$`));
  badLine(images, 'an image URL that returns 404', 'url-404', () => JSON.stringify({ image: `${url}/gone.png`, question: 'What?' }), () =>
    `field image: image ${url}/gone.png could not be fetched: HTTP 404 Not Found`, { stats: true });
  badLine(images, 'an image URL that returns an HTML page', 'url-html', () => JSON.stringify({ image: `${url}/page.png`, question: 'What?' }), () =>
    `field image: image ${url}/page.png could not be fetched: the server sent text/html, not an image`);
  badLine(images, 'an image URL over limits.max_image_bytes', 'url-huge', () => JSON.stringify({ image: `${url}/huge.png`, question: 'What?' }), () =>
    `field image: image ${url}/huge.png could not be fetched: it is 300000 bytes, over limits.max_image_bytes (200000)`);
  badLine(images, 'an image URL with no server (offline)', 'url-offline', () => JSON.stringify({ image: closed, question: 'What?' }), () =>
    `field image: image ${closed} could not be fetched: cannot connect (ECONNREFUSED)`);
});

describe.concurrent('bad config, model folder, database', () => {
  /** Runs a command that must refuse to start: exit code, exact message, and the database untouched. */
  async function refused(kind: string, name: string, args: (db: string) => string[], code: number, message: string | RegExp) {
    const db = copyDb(name);
    const before = snapshot(db);
    const r = await rlaifv(...args(db));
    expect(r.code, r.stderr).toBe(code);
    if (typeof message === 'string') expect(r.stderr).toBe(message);
    else expect(r.stderr).toMatch(message);
    const after = snapshot(db);
    expect(after).toEqual(before);
    tally.push({ kind, sees: r.stderr.trim(), tried: 1, lost: lostRows(before, after).length });
    return db;
  }

  test('config with an unknown key', async () => {
    const bad = path.join(dir, 'unknown-key.json');
    writeFileSync(bad, JSON.stringify({ prompts: 'good.jsonl', generate: { samples: 2, temprature: 0.7 } }));
    await refused('config with an unknown key', 'cfg-key', (db) => ['run', '--config', bad, '--db', db], 2,
      `rlaifv: Invalid config ${bad}:\n  - unknown key "temprature" in generate (allowed: backend, samples, temperature, top_p, max_new_tokens)\n`);
  });

  test('config with a wrong type', async () => {
    const bad = path.join(dir, 'wrong-type.json');
    writeFileSync(bad, JSON.stringify({ prompts: 'good.jsonl', generate: { samples: '2' } }));
    await refused('config with a wrong type', 'cfg-type', (db) => ['run', '--config', bad, '--db', db], 2,
      `rlaifv: Invalid config ${bad}:\n  - field generate.samples: Invalid input: expected number, received string\n`);
  });

  test('model folder with a missing file: the folder and the file are named, nothing is stored', async () => {
    const folder = path.join(dir, 'broken-labeler');
    cpSync(LABELER, folder, { recursive: true });
    rmSync(path.join(folder, 'tokenizer.json'));
    const bad = path.join(dir, 'broken-model.json');
    writeFileSync(bad, JSON.stringify({ prompts: 'good.jsonl', generate: { samples: 2 }, label: { backend: { type: 'local', model: 'broken-labeler' } } }));
    // A config mistake: exit 2, the field named.
    await refused('model folder with a missing file', 'model', (db) => ['run', '--config', bad, '--db', db], 2,
      new RegExp(`^rlaifv: label\\.backend\\.model: Model folder ${folder} is missing tokenizer\\.json; a LLaVA folder needs: config\\.json, .*\\.\\n$`));
  });

  test('database from a newer schema version: refused by run and stats, not touched', async () => {
    const newer = latestSchemaVersion() + 1;
    const db = copyDb('newer');
    const h = new Database(db);
    h.pragma(`user_version = ${newer}`);
    h.close();
    const before = snapshot(db);
    const message = `Database ${db} has schema version ${newer}, newer than this rlaifv knows (${latestSchemaVersion()}); upgrade rlaifv to open it.`;
    const run = await rlaifv('run', '--config', cfg, '--db', db);
    expect(run.code).toBe(1); // an environment problem, not config or input (exit 2)
    expect(run.stderr).toBe(`rlaifv: ${message}\n`);
    const stats = await rlaifv('stats', '--db', db, '--json');
    expect(stats.code).toBe(1);
    expect(stats.stderr).toBe(`rlaifv: ${message}\n`);
    const after = snapshot(db);
    expect(after).toEqual(before);
    const h2 = new Database(db, { readonly: true });
    expect(h2.pragma('user_version', { simple: true })).toBe(newer);
    h2.close();
    tally.push({ kind: 'database from a newer schema version', sees: message, tried: 2, lost: lostRows(before, after).length });
  });

  test('a shard from a different config: rlaifv merge refuses it naming both config hashes; target and shard untouched', async () => {
    const other = path.join(dir, 'other-config.json');
    writeFileSync(other, JSON.stringify({ prompts: 'good.jsonl', workers: 1, generate: { samples: 3 } }));
    const shard = path.join(dir, 'shard-other.sqlite');
    const made = await rlaifv('run', '--config', other, '--db', shard, '--round', '1', '--shard', '0/2', '--quiet');
    expect(made.code, made.stderr).toBe(0);
    const hash = (file: string) => {
      const h = new Database(file, { readonly: true });
      try {
        return (h.prepare('SELECT config_hash FROM rounds WHERE id = 1').get() as { config_hash: string }).config_hash;
      } finally {
        h.close();
      }
    };
    const shardBefore = snapshot(shard);
    // Bad input: exit 2; a refused merge leaves the target as it was.
    const target = await refused('a shard from a different config (rlaifv merge)', 'merge-target', (db) => ['merge', '--into', db, shard], 2,
      new RegExp(`^rlaifv: ${shard}: round 1 was made with config ${hash(shard)}, but round 1 of .*merge-target\\.sqlite with ${hash(base)}; shards of one round must share one config\\.\\n$`));
    expect(hash(shard)).not.toBe(hash(target));
    expect(snapshot(shard)).toEqual(shardBefore);
  });
});

describe('answers the policy may give: empty, no claims, very long', () => {
  // A real tiny policy does not produce these on demand, so they are injected: the test stores them as candidates
  // through the store's own putCandidates (as the generate stage would), then the real CLI runs the rest of the round.
  // The 600-sentence answer is true of its image (dev-0001 has one small red star, middle right).
  const LONG = Array.from({ length: 600 }, () => 'There is a red star in the middle right.').join(' ');
  const INJECTED = [
    { prompt: 'dev-0002', index: 0, text: '', kind: 'empty answer' },
    { prompt: 'dev-0002', index: 1, text: 'Hmm. What a lovely picture!', kind: 'an answer with no claims' },
    { prompt: 'dev-0001', index: 0, text: LONG, kind: 'a very long answer' },
  ];

  /** Starts a round (ingest only), injects the answers, then runs the whole round; returns the db and round id. */
  async function roundWith(config: string, name: string, roundFlag: string[]): Promise<{ db: string; round: number }> {
    const db = path.join(dir, `${name}.sqlite`);
    const start = await rlaifv('divide', '--config', config, '--db', db, '--quiet', ...roundFlag); // ingests, nothing to divide
    expect(start.code, start.stderr).toBe(0);
    const h = openDb(db);
    const round = h.prepare('SELECT id, policy_model, config_json FROM rounds ORDER BY id DESC LIMIT 1').get() as { id: number; policy_model: string; config_json: string };
    const g = JSON.parse(round.config_json).generate;
    putCandidates(h, INJECTED.map((a) => ({
      id: contentId(round.id, a.prompt, a.index), // the id generate would give this sample: it will not be sampled again
      round_id: round.id,
      prompt_id: a.prompt,
      sample_index: a.index,
      seed: 0,
      model_id: `${round.policy_model} (injected by test)`,
      decoding_json: JSON.stringify({ temperature: g.temperature, top_p: g.top_p, max_new_tokens: g.max_new_tokens }),
      text: a.text,
      finish_reason: a.text === LONG ? 'length' : 'stop',
      prompt_tokens: null,
      completion_tokens: null,
      words: wordCount(a.text),
    })));
    h.close();
    const run = await rlaifv('run', '--config', config, '--db', db, '--quiet');
    expect(run.code, run.stderr).toBe(0);
    return { db, round: round.id };
  }

  function rowsOf(db: string, round: number) {
    const h = new Database(db, { readonly: true });
    try {
      const q = (text: string) =>
        h.prepare(`SELECT c.id, d.n_claims, d.truncated, d.skipped_json, s.n_claims AS s_claims, s.n_judged, s.rej_c, s.rej_p,
                     (SELECT COUNT(*) FROM claims cl WHERE cl.candidate_id = c.id) AS claim_rows,
                     (SELECT COUNT(*) FROM pairs p WHERE p.chosen_id = c.id OR p.rejected_id = c.id) AS in_pairs
                   FROM candidates c LEFT JOIN divisions d ON d.candidate_id = c.id LEFT JOIN scores s ON s.candidate_id = c.id
                   WHERE c.round_id = ? AND c.text = ?`).get(round, text) as Record<string, any>;
      return {
        empty: q(INJECTED[0]!.text),
        noClaims: q(INJECTED[1]!.text),
        long: q(LONG),
        failures: h.prepare('SELECT stage, item, reason FROM failures WHERE round_id = ?').all(round),
      };
    } finally {
      h.close();
    }
  }

  test('empty and claim-less answers are divided with 0 claims, never scored or paired; a long answer is divided whole', async () => {
    const config = path.join(dir, 'answers.json');
    writeFileSync(config, JSON.stringify({ prompts: 'good.jsonl', workers: 1, generate: { samples: 2 } }));
    const { db, round } = await roundWith(config, 'answers', []);
    const r = rowsOf(db, round);
    expect(r.failures).toEqual([]);
    for (const a of [r.empty, r.noClaims]) {
      expect(a).toMatchObject({ n_claims: 0, claim_rows: 0, truncated: 0, s_claims: 0, n_judged: 0, rej_c: null, rej_p: null, in_pairs: 0 });
    }
    expect(JSON.parse(r.empty.skipped_json)).toEqual([]);
    expect(JSON.parse(r.noClaims.skipped_json).map((s: { reason: string }) => s.reason)).toEqual(['fragment', 'exclamation']);
    expect(r.long).toMatchObject({ n_claims: 600, claim_rows: 600, truncated: 0, s_claims: 600, n_judged: 600 });
    expect(r.long.rej_c).not.toBeNull();
    const stats = JSON.parse((await rlaifv('stats', '--db', db, '--json')).stdout);
    // 6 answers, all divided; the two without claims are the only ones not scored.
    expect(stats).toMatchObject({ candidates: 6, divided: 6, scored: 4, failures: 0, status: 'done' });
    for (const a of INJECTED) tally.push({ kind: a.kind, sees: a === INJECTED[2] ? 'divided into 600 claims, scored' : 'divided into 0 claims; not scored, not paired', tried: 1, lost: 0 });
  });

  test('with divide.max_words the long answer is cut to its first N words and the cut is recorded', async () => {
    const config = path.join(dir, 'answers-cut.json');
    writeFileSync(config, JSON.stringify({ prompts: 'good.jsonl', workers: 1, generate: { samples: 2 }, divide: { max_words: 300 } }));
    const { db, round } = await roundWith(config, 'answers-cut', []);
    const r = rowsOf(db, round);
    expect(r.failures).toEqual([]);
    // 300 words: 33 whole nine-word sentences and the start of the 34th, "There is a". Nothing after word 300 is
    // divided. (The rules divider makes the cut-off "There is a" a claim of its own, "There is a." / "Is there a?":
    // reported as a divider finding, so it is counted here, not asserted away.)
    expect(r.long).toMatchObject({ truncated: 1 });
    expect(r.long.n_claims).toBe(r.long.claim_rows);
    expect(r.long.s_claims).toBe(r.long.claim_rows);
    expect(r.long.n_judged).toBe(r.long.claim_rows);
    const h = new Database(db, { readonly: true });
    const claims = (h.prepare('SELECT sentence FROM claims WHERE candidate_id = ?').all(r.long.id) as { sentence: string }[]).map((c) => c.sentence);
    h.close();
    const whole = claims.filter((c) => c === 'There is a red star in the middle right.');
    expect(whole).toHaveLength(33);
    expect(claims.filter((c) => c !== whole[0]).every((c) => c === 'There is a')).toBe(true);
    expect(claims.length).toBeLessThanOrEqual(34);
    expect(r.empty).toMatchObject({ n_claims: 0, truncated: 0, rej_c: null, in_pairs: 0 });
  });
});
