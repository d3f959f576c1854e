// Images that arrive as bytes (data-set rows, data: URIs, fetched URLs) are kept once each, by content, beside the store.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * The folder beside a store where byte-borne images are kept: `db/rlaifv.sqlite` -> `db/rlaifv.images/`.
 * @example imageStoreDir('db/rlaifv.sqlite') // 'db/rlaifv.images'
 */
export function imageStoreDir(dbFile: string): string {
  const parsed = path.parse(dbFile);
  return path.join(parsed.dir, `${parsed.name}.images`);
}

/** The SHA-256 of bytes, hex: an image's content address. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Writes bytes once under `dir/<sha[0:2]>/<sha>.<ext>` and returns that path; an existing file of that content is
 * reused. The write goes to a temp file first and is renamed into place, so a crash never leaves a half image there.
 */
export async function saveImageBytes(dir: string, bytes: Uint8Array, ext = 'bin'): Promise<string> {
  const sha = sha256Hex(bytes);
  const file = path.join(dir, sha.slice(0, 2), `${sha}.${ext.replace(/^\./, '') || 'bin'}`);
  try {
    if ((await stat(file)).size === bytes.length) return file;
  } catch {
    // not there yet
  }
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  return file;
}
