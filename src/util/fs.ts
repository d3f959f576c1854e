// File utilities every layer may use. A leaf: it imports nothing from src/.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a file through a temp file in the same folder and a rename, so readers never see half a report. */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
