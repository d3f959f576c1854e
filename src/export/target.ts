// Putting an output in place atomically: written to a temp file next to the target and fsynced, then renamed over
// the target, so the target is either the whole new file or what it was before, never half a file.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ExportPair } from '../store/deliveries.js';
import type { Container, Format } from './formats.js';
import { Output, writePairs } from './output.js';
import { ExportInputError } from './errors.js';

/** What an output holds once written. */
export interface Written {
  /** Absolute path of the target, or '-' for stdout. */
  target: string;
  container: Container;
  pairIds: string[];
  bytes: number;
  sha256: string;
  /** The LLaMA-Factory dataset_info.json updated when the output is placed, if any. */
  datasetInfo: string | null;
}

/** A written output waiting to be put in place (a no-op for stdout, where the bytes are already out). */
export interface PendingOutput extends Written {
  /** Renames the temp file over the target (and updates dataset_info.json), and makes the renames durable. */
  place(): void;
  /** Removes what this output wrote: the temp file, or the target when it was already placed. */
  discard(): void;
}

/** The temp file for a target: hidden, next to it (same file system, so the rename is atomic), unique per writer. */
function tempFor(target: string, what = 'partial'): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.${what}`);
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The dataset_info.json entry LLaMA-Factory needs for a sharegpt ranking file with images. */
export function datasetInfoEntry(fileName: string): Record<string, unknown> {
  return {
    file_name: fileName,
    formatting: 'sharegpt',
    ranking: true,
    columns: { messages: 'conversations', chosen: 'chosen', rejected: 'rejected', images: 'images' },
    tags: { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt' },
  };
}

/** Reads dataset_info.json (an object of entries), or {} when absent; refuses to clobber a file it cannot parse. */
function readDatasetInfo(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ExportInputError(`${file} is not valid JSON (${(e as Error).message}); fix or remove it so its entry can be added.`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ExportInputError(`${file} must hold a JSON object of dataset entries.`);
  return v as Record<string, unknown>;
}

/**
 * Writes `rows` to `out` ('-' = the stdout stream): a file goes to a temp file, fsynced and closed, and is only put in
 * place by `place()`. For LLaMA-Factory files, `place()` also adds the `datasetName` entry to dataset_info.json next
 * to the file (atomically too).
 */
export async function writeOutput(opts: {
  /** Opens the rows (a store cursor) once the output is ready to be written. */
  rows: () => Iterable<ExportPair>;
  format: Format;
  container: Container;
  out: string;
  stdout: NodeJS.WritableStream;
  datasetName?: string;
}): Promise<PendingOutput> {
  const { format, container } = opts;
  if (opts.out === '-') {
    const output = new Output({ stream: opts.stdout });
    const pairIds = await writePairs(opts.rows(), format, container, output);
    const { bytes, sha256 } = await output.finish();
    return { target: '-', container, pairIds, bytes, sha256, datasetInfo: null, place() {}, discard() {} };
  }
  const target = path.resolve(opts.out);
  if (!existsSync(path.dirname(target))) throw new ExportInputError(`Folder ${path.dirname(target)} (of --out ${opts.out}) does not exist.`);
  const infoFile = format.name === 'llamafactory' ? path.join(path.dirname(target), 'dataset_info.json') : null;
  if (infoFile) readDatasetInfo(infoFile); // fail before writing anything; read again when placing
  const tmp = tempFor(target);
  const fd = openSync(tmp, 'wx');
  let written: { pairIds: string[]; bytes: number; sha256: string };
  try {
    const output = new Output({ fd });
    const pairIds = await writePairs(opts.rows(), format, container, output);
    written = { pairIds, ...(await output.finish()) };
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  let placed = false;
  return {
    target,
    container,
    ...written,
    datasetInfo: infoFile,
    place() {
      renameSync(tmp, target);
      placed = true;
      if (infoFile) {
        const info = readDatasetInfo(infoFile);
        const name = opts.datasetName ?? path.basename(target).replace(/\.[^.]*$/, '');
        const t = tempFor(infoFile);
        writeFileSync(t, JSON.stringify({ ...info, [name]: datasetInfoEntry(path.basename(target)) }, null, 2) + '\n');
        const f = openSync(t, 'r');
        fsyncSync(f);
        closeSync(f);
        renameSync(t, infoFile);
      }
      fsyncDir(path.dirname(target));
    },
    discard() {
      rmSync(placed ? target : tmp, { force: true });
    },
  };
}
