// A store written by an older rlaifv, opened by this one only to read (eval, stats, report, sql): it is brought up to
// this rlaifv's schema first, so readers find the columns and views they query; nothing in it is lost.
import { expect, test } from 'vitest';
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { latestSchemaVersion, openDb, roundPrompts } from '../../src/store/index.js';
import { pull } from '../../src/export/pull.js';
import { runDemoRound } from '../helpers/round.js';
import { ROOT, tempDir } from '../helpers/paths.js';

/** The schema version that added claims.span_start/span_end (db/018_claim_spans.sql). */
const SPANS_VERSION = 18;

test('opening a schema-8 store read-only with upgrade (eval, stats, report) upgrades it, and its rows are all there', () => {
  const file = path.join(tempDir(), 'old.sqlite');
  const old = new Database(file);
  for (const f of readdirSync(path.join(ROOT, 'db')).filter((f) => /^00[1-8]_.*\.sql$/.test(f)).sort()) {
    old.exec(readFileSync(path.join(ROOT, 'db', f), 'utf8'));
  }
  old.pragma('user_version = 8');
  old.prepare("INSERT INTO images (id, path, width, height, bytes) VALUES ('i1', '/x.png', 64, 64, 10)").run();
  old.prepare("INSERT INTO prompts (id, image_id, question, content_hash, source) VALUES ('p1', 'i1', 'What is there?', 'h', 'f:1')").run();
  old.prepare(
    `INSERT INTO rounds (id, config_json, config_hash, policy_model, labeler_model, divider, seed, accept_rule, score_method, started_at)
     VALUES (1, '{}', 'h', 'pol', 'lab', 'rules', 0, 'scripts', 'rejc', 'now')`,
  ).run();
  old.prepare("INSERT INTO round_prompts (round_id, prompt_id, ordinal) VALUES (1, 'p1', 0)").run();
  old.close();

  const db = openDb(file, { readonly: true, upgrade: true });
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
    expect(() => db.prepare('INSERT INTO images (id, path, width, height, bytes) VALUES (1, 2, 3, 4, 5)').run()).toThrow(/readonly/);
    expect(roundPrompts(db, 1).map((p) => [p.id, p.extra_samples])).toEqual([['p1', 0]]);
    const r = db.prepare('SELECT feedback_method, pair_method FROM rounds WHERE id = 1').get();
    expect(r).toEqual({ feedback_method: 'divide', pair_method: 'rejc' });
  } finally {
    db.close();
  }
});

test('a store from before claim spans: upgraded, its claims have NULL spans and --spans still locates their sentences', async () => {
  // The 8-prompt round at seed 11 of export/formats and store/views: in a run of all three, a copy from the round cache.
  const { db, file, round } = await runDemoRound({ limit: 8, seed: 11 });
  // Back to the schema before claim spans, as an older rlaifv left it: the columns gone, the old v_claims.
  const v002 = readFileSync(path.join(ROOT, 'db', '002_deliveries_views.sql'), 'utf8');
  const oldView = v002.slice(v002.indexOf('CREATE VIEW v_claims AS'), v002.indexOf('-- Every pair with both'));
  const before = Math.max(...readdirSync(path.join(ROOT, 'db')).map((f) => Number(/^(\d+)_/.exec(f)?.[1] ?? 0)).filter((v) => v < SPANS_VERSION));
  db.exec(`DROP VIEW v_claims; ALTER TABLE claims DROP COLUMN span_start; ALTER TABLE claims DROP COLUMN span_end; ${oldView}`);
  db.pragma(`user_version = ${before}`);
  db.close();

  const up = openDb(file);
  try {
    expect(up.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
    const claims = up.prepare('SELECT span_start, span_end FROM v_claims WHERE round = ?').all(round.id) as { span_start: null; span_end: null }[];
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.every((c) => c.span_start === null && c.span_end === null)).toBe(true);
    const out = path.join(tempDir(), 'spans.jsonl');
    await pull(up, { consumer: 'old', rounds: 'all', format: 'trl', out, spans: true }, file);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(0);
    const sentences = new Set((up.prepare('SELECT sentence FROM claims').all() as { sentence: string }[]).map((r) => r.sentence));
    let spans = 0;
    for (const r of rows) {
      for (const side of ['chosen', 'rejected'] as const) {
        const text = r[side][0].content[0].text as string;
        for (const s of r[`${side}_spans`]) {
          expect(sentences.has(text.slice(s.start, s.end).replace(/\s+/g, ' '))).toBe(true);
          spans++;
        }
      }
    }
    expect(spans).toBeGreaterThan(0);
  } finally {
    up.close();
  }
});
