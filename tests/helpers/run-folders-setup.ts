// vitest globalSetup: the folders that live for one `vitest run` and are removed at its end, made in the system's temp
// folder and handed to the tests with `provide`:
// - `tempRoot`: every `tempDir()` of the run is made in it (tests/helpers/paths.ts). Before it, each `npm test` left
//   373 folders behind (SQLite stores, models' copies, logs; about 330 MB), so a developer's /tmp filled up run by run.
//   RLAIFV_KEEP_TEST_FILES=1 keeps it (its path is printed) to look at what a failed test left.
// - `roundCache`: the round cache behind runDemoRound() (tests/helpers/round-cache.ts), fresh per run so it can never
//   be stale. RLAIFV_ROUND_CACHE=off turns it off ('' is provided) to make every round for real.
// Both projects of one run load this setup in the one main process: the first makes each folder (kept in an environment
// variable), the second reuses it, and the last teardown removes it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

// Counted on globalThis: each project may load this module on its own, but both run in the one main process.
const users = globalThis as { rlaifvRunFolderUsers?: Record<string, number> };

/** Makes (or reuses) the run's folder kept in `env`, provides it as `key`, and returns its teardown. */
function runFolder(project: TestProject, key: 'tempRoot' | 'roundCache', env: string, prefix: string, keep: boolean): () => void {
  process.env[env] ??= mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = process.env[env];
  const count = (users.rlaifvRunFolderUsers ??= {});
  count[env] = (count[env] ?? 0) + 1;
  project.provide(key, dir);
  return () => {
    count[env] = count[env]! - 1;
    if (count[env] > 0) return;
    if (keep) process.stderr.write(`test files kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
    delete process.env[env];
  };
}

export default function setup(project: TestProject): () => void {
  const teardowns: (() => void)[] = [];
  if (process.env.RLAIFV_ROUND_CACHE === 'off') project.provide('roundCache', '');
  else teardowns.push(runFolder(project, 'roundCache', 'RLAIFV_TEST_ROUND_CACHE', 'rlaifv-round-cache-', false));
  teardowns.push(runFolder(project, 'tempRoot', 'RLAIFV_TEST_TEMP_ROOT', 'rlaifv-test-run-', process.env.RLAIFV_KEEP_TEST_FILES === '1'));
  return () => {
    for (const t of teardowns) t();
  };
}
