// A checkpoint folder's identity: one SHA-256 over its files, so the store can say which weights a round used.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...files(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

/**
 * SHA-256 over every file of a folder in path order: each file's relative path, a NUL, its size, a NUL, its bytes.
 * Two folders hash alike exactly when they hold the same files with the same bytes.
 * @example hashCheckpoint('models/shapes-policy') // '3f2a…' (64 hex)
 */
export function hashCheckpoint(dir: string): string {
  const h = createHash('sha256');
  for (const f of files(dir).sort()) {
    const bytes = readFileSync(path.join(dir, f));
    h.update(`${f}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex');
}

/**
 * A cheap identity of a folder's files as they are now (relative path, size and modification time of each, no bytes
 * read): a worker that cached a model from `dir` reloads it when the folder was written again.
 * @example folderStamp('models/shapes-policy') // '9c1e04d2a7b3f850' (16 hex)
 */
export function folderStamp(dir: string): string {
  const h = createHash('sha256');
  for (const f of files(dir).sort()) {
    const st = statSync(path.join(dir, f));
    h.update(`${f}\0${st.size}\0${st.mtimeMs}\0`);
  }
  return h.digest('hex').slice(0, 16);
}

/** True when `dir` is a folder with at least one file in it (what a trainer must leave behind). */
export function isNonEmptyFolder(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory() && files(dir).length > 0;
}
