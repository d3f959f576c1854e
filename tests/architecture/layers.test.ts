// The layer map of docs/architecture.md, enforced: dependency-cruiser runs the rules of .dependency-cruiser.cjs over
// src/ (as `npm run lint:deps` does) and every violation is named; module-level cycles are found from its graph.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Violation { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }
interface Cruise {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: Violation[] };
}

/** dependency-cruiser's JSON over `dir`'s src/, with the repository's rules; it exits non-zero on violations. */
async function cruise(dir: string): Promise<Cruise> {
  const args = ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  const out = await run(DEPCRUISE, args, { cwd: dir, maxBuffer: 256 << 20 }).catch((e: { stdout?: string }) => e);
  return JSON.parse(out.stdout ?? '') as Cruise;
}

const named = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.cycle?.map((c) => c.name).join(' → ') ?? v.to}`;

/** The module of a src file: its first folder under src/ (a root file is its own module). */
const moduleOf = (f: string) => f.replace(/^src\//, '').split('/')[0]!.replace(/\.ts$/, '');

/** Module-level strongly connected components of more than one module (Tarjan). */
function moduleCycles(c: Cruise): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const m of c.modules) {
    if (!m.source.startsWith('src/')) continue;
    const from = moduleOf(m.source);
    for (const d of m.dependencies) {
      if (!d.resolved.startsWith('src/')) continue;
      const to = moduleOf(d.resolved);
      if (to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size); low.set(v, index.get(v)!); stack.push(v); on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('the layer map', () => {
  // Cruised once for both tests below (each may run first, as with --sequence.shuffle).
  let repo: Cruise;
  beforeAll(async () => {
    repo = await cruise(ROOT);
  });
  it('src/ has no upward import, file cycle, SQLite or model runtime out of place', () => {
    expect(repo.modules.length).toBeGreaterThan(100);
    expect(repo.summary.violations.map(named)).toEqual([]);
  });

  it('src/ has no cycle between modules', () => {
    expect(moduleCycles(repo)).toEqual([]);
  });

  const tmp = mkdtempSync(path.join(tmpdir(), 'rlaifv-layers-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('names an upward import, a file cycle, a module cycle and better-sqlite3 outside store/ in a copy that has them', async () => {
    copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(tmp, 'tsconfig.json'));
    const put = (f: string, text: string) => { mkdirSync(path.dirname(path.join(tmp, f)), { recursive: true }); writeFileSync(path.join(tmp, f), text); };
    put('src/cli/main.ts', "export const main = 1;\n");
    put('src/store/open.ts', "import { main } from '../cli/main.js';\nexport const open = main;\n");
    put('src/eval/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    put('src/eval/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    // loop/ and report/ import each other through different files: a module cycle with no file cycle.
    put('src/loop/c.ts', "import { d } from '../report/d.js';\nexport const c = d;\n");
    put('src/report/d.ts', "export const d = 1;\n");
    put('src/report/e.ts', "import { f } from '../loop/f.js';\nexport const e = f;\n");
    put('src/loop/f.ts', "export const f = 2;\n");
    put('src/doctor/db.ts', "import Database from 'better-sqlite3';\nexport const d = Database;\n");
    // The copy resolves better-sqlite3 through the repository's node_modules.
    writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}\n');
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'));
    const copy = await cruise(tmp);
    const found = copy.summary.violations.map(named);
    expect(moduleCycles(copy)).toEqual([['loop', 'report']]);
    expect(found).toContain('no-upward-from-store-backends-input-tools: src/store/open.ts → src/cli/main.ts');
    expect(found.some((v) => v.startsWith('no-file-cycle: src/eval/a.ts → src/eval/b.ts'))).toBe(true);
    expect(found.some((v) => v.startsWith('better-sqlite3-only-in-store: src/doctor/db.ts → ') && v.includes('better-sqlite3'))).toBe(true);
  });
});
