// Issue 30's rule, enforced: SQL is written only in src/store/ (docs/architecture.md). Any other module asks the store
// for what it needs by a function; a statement elsewhere (SELECT, INSERT INTO, UPDATE ... SET, DELETE FROM, CREATE
// TABLE/INDEX/VIEW/TRIGGER) fails this test with its file and line. PRAGMA is left out: doctor names it in messages.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STATEMENT = /\b(?:SELECT\s+(?:\*|[a-z_]+(?:\.[a-z_]+)?\s*(?:,|FROM\b))|INSERT\s+(?:OR\s+\w+\s+)?INTO\s+\w|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\s+\w|CREATE\s+(?:TABLE|INDEX|VIEW|TRIGGER)\b)/;
// Text for users that shows a statement (the `sql` command's help) is not SQL the code runs.
const ALLOWED = new Set(['src/cli/sql.ts:68']);

function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('SQL only in store/', () => {
  it('no SQL statement in src/ outside src/store/', () => {
    const found: string[] = [];
    for (const f of tsFiles('src').filter((f) => !f.startsWith(path.join('src', 'store')))) {
      readFileSync(path.join(ROOT, f), 'utf8').split('\n').forEach((line, k) => {
        const at = `${f}:${k + 1}`;
        if (STATEMENT.test(line) && !ALLOWED.has(at)) found.push(`${at}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the pattern finds the statements the store writes', () => {
    const store = tsFiles('src/store').map((f) => readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
    const hits = store.split('\n').filter((l) => STATEMENT.test(l)).length;
    expect(hits).toBeGreaterThan(50);
  });
});
