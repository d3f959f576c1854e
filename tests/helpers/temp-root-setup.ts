// vitest globalSetup: one folder per `vitest run` under the system's temp folder, which every `tempDir()` of the run
// is made in (tests/helpers/paths.ts), removed with everything in it when the run ends. Before it, each run left about
// 1,300 folders behind (a SQLite store, models' copies, logs), 1-2 GB, so a developer's /tmp filled up run by run.
// RLAIFV_KEEP_TEST_FILES=1 keeps the folder (its path is printed) to look at what a failed test left.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const ENV = 'RLAIFV_TEST_TEMP_ROOT';
// Counted on globalThis: each project may load this module on its own, but both run in the one main process.
const count = globalThis as { rlaifvTempRootUsers?: number };

export default function setup(project: TestProject): () => void {
  process.env[ENV] ??= mkdtempSync(path.join(os.tmpdir(), 'rlaifv-test-run-'));
  const dir = process.env[ENV];
  count.rlaifvTempRootUsers = (count.rlaifvTempRootUsers ?? 0) + 1;
  project.provide('tempRoot', dir);
  return () => {
    count.rlaifvTempRootUsers = count.rlaifvTempRootUsers! - 1;
    if (count.rlaifvTempRootUsers > 0) return;
    if (process.env.RLAIFV_KEEP_TEST_FILES === '1') process.stderr.write(`test files kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
    delete process.env[ENV];
  };
}
