// Child of the parquet-read bench: reads one Parquet prompts file through the input readers, then prints what it
// read and its own peak RSS (VmHWM) as JSON, so each file size is measured in a fresh process.
import { readInput } from '../../src/input/formats.js';

const [file, imagesDir] = process.argv.slice(2);
if (!file || !imagesDir) throw new Error('usage: parquet-read-child.ts FILE IMAGES_DIR');
const limits = { max_image_bytes: 20 * 1024 * 1024, max_image_pixels: 40_000_000, max_question_chars: 4000, fetch_timeout_ms: 30_000, fetch_retries: 3 };
const t0 = performance.now();
let prompts = 0;
let problems = 0;
for await (const r of readInput(file, 'auto', limits, { imagesDir })) {
  if ('prompt' in r) prompts++;
  else problems++;
}
const seconds = (performance.now() - t0) / 1000;
const hwm = /VmHWM:\s+(\d+) kB/.exec(await (await import('node:fs/promises')).readFile('/proc/self/status', 'utf8'));
process.stdout.write(JSON.stringify({ prompts, problems, seconds, peakRssBytes: hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024 }) + '\n');
