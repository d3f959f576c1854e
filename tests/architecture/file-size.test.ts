// Issue 30's limit, enforced: no file under src/ over 400 lines, so a file keeps to one job (docs/architecture.md).
// A file that grows past it is split by job, in its own commit, as the big files were.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIMIT = 400;

/** Every .ts file under `dir`, relative to the repository. */
function tsFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lines(file: string): number {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file size', () => {
  it(`no src/ file is over ${LIMIT} lines`, () => {
    const files = tsFiles('src');
    expect(files.length).toBeGreaterThan(100);
    const over = files.map((f) => ({ f, n: lines(f) })).filter((x) => x.n > LIMIT).map((x) => `${x.f}: ${x.n} lines`);
    expect(over).toEqual([]);
  });
});
