// A cache of finished demo rounds for one vitest run: the first caller of a given round builds it, every caller gets its
// own copy of the SQLite file. The folder is made fresh per run by run-folders-setup.ts, so it can never be stale
// across runs or code changes. Two workers that want the same round at once: one builds under a lock, the other waits
// for it (or, if the builder died or failed, builds its own).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's round cache folder (run-folders-setup.ts); '' when caching is off. */
    roundCache: string;
  }
}

/** The run's cache folder, or null outside a vitest run that set one up (scripts, another config). */
export function roundCacheDir(): string | null {
  try {
    const dir = inject('roundCache');
    return dir && existsSync(dir) ? dir : null;
  } catch {
    return null; // not inside a vitest worker
  }
}

/** A short content key for what makes a round: any difference in `parts` is another round. */
export function cacheKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 20);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The cached folder of `key`, built by `build(file)` (a database file inside a fresh temp folder) if no one has yet.
 * The build's folder is renamed into place whole, so a reader never sees a half-built round.
 */
export async function cachedFolder(cache: string, key: string, build: (file: string) => Promise<void>): Promise<string> {
  const done = path.join(cache, key);
  if (existsSync(done)) return done;
  const lock = `${done}.lock`;
  let mine = true;
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    mine = false;
  }
  if (!mine) {
    // Another worker builds it: wait while its lock is held by a live process.
    for (;;) {
      if (existsSync(done)) return done;
      let owner: number;
      try {
        owner = Number(readFileSync(lock, 'utf8'));
      } catch {
        break; // the builder finished or failed: its folder is there, or we build our own
      }
      if (!alive(owner)) break;
      await sleep(100);
    }
    if (existsSync(done)) return done;
  }
  const tmp = mkdtempSync(path.join(cache, 'build-'));
  try {
    await build(path.join(tmp, 'round.sqlite'));
    try {
      renameSync(tmp, done);
    } catch (e) {
      // Another builder won the race (its folder is identical by construction): use it, drop ours.
      if (!existsSync(done)) throw e;
      rmSync(tmp, { recursive: true, force: true });
    }
    return done;
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    if (mine) rmSync(lock, { force: true });
  }
}

/**
 * Copies a cached round's files (`round.sqlite` and anything beside it named `round.*`, such as an image store) to
 * `file` and its siblings of the same name.
 */
export function copyRound(folder: string, file: string): void {
  const { dir, name } = path.parse(file);
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(folder)) {
    if (!entry.startsWith('round.')) throw new Error(`round cache ${folder}: unexpected file ${entry}`);
    const to = path.join(dir, name + entry.slice('round'.length));
    cpSync(path.join(folder, entry), to, { recursive: statSync(path.join(folder, entry)).isDirectory() });
  }
}
