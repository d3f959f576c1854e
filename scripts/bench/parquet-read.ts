// Figure 7: peak RSS of reading a Parquet prompts data set (image bytes in the `datasets` Image struct, row groups
// of 100 rows as `datasets` writes image data sets) through the input reader, 100,000 vs 10,000 rows (target: about
// 1×: the reader holds one row group at a time). Each file is read in a fresh child process that reports its own
// VmHWM. The rows cycle through the 200 dev images (small PNGs), so the image store ends with 200 files.
//
// --quick reads 1,000 vs 10,000 rows instead (the ratio of record is 10k vs 100k).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeHfParquet } from '../../tests/helpers/hf-parquet.js';
import { DEV_PROMPTS, ROOT, checked, info, jsonChild, round, tempDir, type BenchOptions, type BenchResult } from './common.js';

/** Settings of the Parquet reading bench. */
export interface ParquetReadOptions extends BenchOptions {
  small?: number;
  large?: number;
}

interface ChildResult {
  prompts: number;
  problems: number;
  seconds: number;
  peakRssBytes: number;
}

/** Writes an n-row data set: id, image {bytes, path}, question, cycling through the dev prompts. */
async function writeDataSet(file: string, n: number): Promise<void> {
  const dev = readFileSync(DEV_PROMPTS, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { image: string; question: string });
  const images = dev.map((p) => readFileSync(path.join(path.dirname(DEV_PROMPTS), p.image)));
  function* rows() {
    for (let i = 0; i < n; i++) {
      const k = i % dev.length;
      yield { id: `row-${i}`, image: { bytes: images[k]!, path: null }, question: dev[k]!.question };
    }
  }
  await writeHfParquet(file, [{ name: 'id', type: 'string' }, { name: 'image', type: 'image' }, { name: 'question', type: 'string' }], rows(), 100);
}

function readInChild(file: string, imagesDir: string): Promise<ChildResult> {
  return jsonChild<ChildResult>('parquet-read', ['--import', 'tsx'], path.join(ROOT, 'scripts', 'bench', 'parquet-read-child.ts'), [file, imagesDir]);
}

/** Runs figure 7. */
export async function benchParquetRead(opts: ParquetReadOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const small = opts.small ?? (opts.quick ? 1000 : 10_000);
  const large = opts.large ?? (opts.quick ? 10_000 : 100_000);
  const tmp = tempDir('parquet-read');
  try {
    const read = async (n: number): Promise<ChildResult & { mib: number }> => {
      const file = path.join(tmp.dir, `rows-${n}.parquet`);
      await writeDataSet(file, n);
      log(`parquet-read: reading ${n} rows`);
      const r = await readInChild(file, path.join(tmp.dir, `images-${n}`));
      if (r.prompts !== n || r.problems !== 0) throw new Error(`parquet-read: ${n} rows gave ${r.prompts} prompts, ${r.problems} problems`);
      const mib = round(r.peakRssBytes / 2 ** 20, 1);
      log(`parquet-read: ${n} rows: peak RSS ${mib} MiB, ${round(r.seconds, 1)} s`);
      return { ...r, mib };
    };
    const a = await read(small);
    const b = await read(large);
    const k = (x: number) => x.toLocaleString('en-US');
    return {
      rows: [
        checked(`peak RSS reading Parquet prompts, ${k(large)} ÷ ${k(small)} rows`, round(b.peakRssBytes / a.peakRssBytes, 2), '×', '<=', 1.2,
          `${b.mib} MiB vs ${a.mib} MiB (VmHWM of the reading process); row groups of 100`),
        info(`Parquet rows read per second, ${k(large)} rows`, Math.round(large / b.seconds), 'rows/s', `${round(b.seconds, 1)} s in all (each image checked and stored)`),
      ],
    };
  } finally {
    tmp.cleanup();
  }
}
