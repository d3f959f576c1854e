// A store written by an older rlaifv, opened by this one only to read (eval, stats, report, sql): it is brought up to
// this rlaifv's schema first, so readers find the columns and views they query; nothing in it is lost.
import { expect, test } from 'vitest';
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { latestSchemaVersion, openDb, roundPrompts } from '../../src/store/index.js';
import { ROOT, tempDir } from '../helpers/paths.js';

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
