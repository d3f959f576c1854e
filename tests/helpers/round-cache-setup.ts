// vitest globalSetup: a fresh, empty round cache folder per `vitest run` (round-cache.ts), removed at its end. Both
// projects of one run share it; the last teardown removes it. RLAIFV_ROUND_CACHE=off turns it off.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const ENV = 'RLAIFV_TEST_ROUND_CACHE';
// Counted on globalThis: each project may load this module on its own, but both run in the one main process.
const count = globalThis as { rlaifvRoundCacheUsers?: number };

export default function setup(project: TestProject): (() => void) | void {
  // RLAIFV_ROUND_CACHE=off makes every round for real (to compare, or to rule the cache out).
  if (process.env.RLAIFV_ROUND_CACHE === 'off') return project.provide('roundCache', '');
  // Both projects' setups run in this one main process: the first makes the folder, the second reuses it.
  process.env[ENV] ??= mkdtempSync(path.join(os.tmpdir(), 'rlaifv-round-cache-'));
  const dir = process.env[ENV];
  count.rlaifvRoundCacheUsers = (count.rlaifvRoundCacheUsers ?? 0) + 1;
  project.provide('roundCache', dir);
  return () => {
    count.rlaifvRoundCacheUsers = count.rlaifvRoundCacheUsers! - 1;
    if (count.rlaifvRoundCacheUsers > 0) return;
    rmSync(dir, { recursive: true, force: true });
    delete process.env[ENV];
  };
}
