// storePath (the commands that read only the store) resolves --db and --config as loadConfig does, without loading
// the schema when there is no --config.
import { describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { storePath } from '../../src/config/store-path.js';
import { tempDir } from '../helpers/paths.js';

describe('storePath', () => {
  const cwd = tempDir('rlaifv-store-path-');
  const withDb = path.join(cwd, 'sub', 'with-db.json');
  const without = path.join(cwd, 'sub', 'without-db.json');
  const bad = path.join(cwd, 'bad.json');
  mkdirSync(path.dirname(withDb), { recursive: true });
  writeFileSync(withDb, JSON.stringify({ db: 'stores/a.sqlite' }));
  writeFileSync(without, JSON.stringify({ seed: 3 }));
  writeFileSync(bad, JSON.stringify({ db: 7 }));

  const cases: { config?: string; db?: string }[] = [
    {},
    { db: 'x.sqlite' },
    { db: '../y/x.sqlite' },
    { db: '/abs/x.sqlite' },
    { db: '' },
    { config: withDb },
    { config: withDb, db: 'here.sqlite' },
    { config: without },
    { config: without, db: '/abs/z.sqlite' },
  ];
  test.each(cases)('%o: the path loadConfig gives', async (f) => {
    const want = loadConfig(f.config, f.db ? { db: f.db } : {}, cwd).config.db;
    expect(await storePath(f, cwd)).toBe(want);
  });

  test('the default is db/rlaifv.sqlite under the working directory', async () => {
    expect(await storePath({}, cwd)).toBe(path.join(cwd, 'db', 'rlaifv.sqlite'));
  });

  test('a config with a mistake is still refused, naming its field', async () => {
    await expect(storePath({ config: bad }, cwd)).rejects.toThrow(/field db/);
  });
});

