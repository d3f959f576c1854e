// The store on real SQLite files: WAL, foreign keys, migrations, and refusing a newer schema.
import { describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import path from 'node:path';
import { latestSchemaVersion, openDb } from '../../src/store/index.js';
import { tempDir } from '../helpers/paths.js';

describe('store', () => {
  test('a new database is migrated to the latest schema, in WAL mode with foreign keys', () => {
    const file = path.join(tempDir(), 'a.sqlite');
    const db = openDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['rounds', 'prompts', 'images', 'candidates', 'claims', 'questions', 'labels', 'scores', 'pairs', 'failures']));
    db.close();
    openDb(file).close(); // reopening migrates nothing twice
  });

  test('a database from a newer schema is refused with both versions named', () => {
    const file = path.join(tempDir(), 'new.sqlite');
    const raw = new Database(file);
    raw.pragma(`user_version = ${latestSchemaVersion() + 5}`);
    raw.close();
    expect(() => openDb(file)).toThrow(
      new RegExp(`schema version ${latestSchemaVersion() + 5}, newer than this rlaifv knows \\(${latestSchemaVersion()}\\)`),
    );
  });

  test('foreign keys are enforced', () => {
    const db = openDb(path.join(tempDir(), 'fk.sqlite'));
    expect(() =>
      db.prepare("INSERT INTO prompts (id, image_id, question, content_hash, source) VALUES ('p', 'no-such-image', 'q', 'h', 's')").run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  test('a missing database opened read-only is named', () => {
    expect(() => openDb('/no/such/db.sqlite', { readonly: true })).toThrow('Database /no/such/db.sqlite does not exist.');
  });
});
