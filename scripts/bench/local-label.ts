// Local labeling and local sampling speed (issue 6): rlaifv's batched paths against the plain path and the bare limit.
//
//   npx tsx scripts/bench/local-label.ts [--prompts-round N] [--questions N] [--threads T] [--quick]
//
// Labeler, on two workloads:
//   dev round: the distinct questions of a real round (the default config's `rlaifv run` on the first N dev prompts,
//     default 50, into a temp database; needs dist/), read back per slice of 32 prompts (the streaming round's
//     default slice) and per image, and cut into calls exactly as the label stage cuts them for the local labeler
//     (src/stages/label.ts labelTasks: several images a call, an even share of the slice over its concurrency);
//   test 4/image: the first N of data/shapes/test/questions.jsonl (4 questions an image), cut the same way.
// Paths, on the same questions:
//   (a) plain path: per question, transformers.js reads the image and runs one full forward (image encoder, prompt),
//       as a per-question script does;
//   (b) rlaifv: what the label stage runs, in-process: per call the worker's `labelImages` task (images decoded and
//       encoded together, the shared prompt prefix run once for all as rows of one batch, every question continuing
//       from its own image's row, batched across images; p(yes)/p(no) and the top tokens), or its `label` task for a
//       call of one image;
//   (b0) the previous stage: one `label` task per image (image once, prefix once, batched continuations per image);
//   (c) bare limit: a bare onnxruntime-node loop of decoder runs only, over the questions' tokens after the prefix
//       (chat template + image tokens), batched per image, with feeds (embeddings, prefix caches, masks) built
//       before timing;
//   (c×) as (c), batched across the images of each call as (b) batches them;
//   (c') as (c), plus per image the image encoder run and the prefix run (pixels and embeddings built before timing):
//       all the model work an image's questions need when images are run one by one;
//   (c×') as (c×), plus per call one image-encoder run on all its images and one prefix run with a row per image:
//       the model work (b) does, as bare runs (the bare limit of (b)).
// Policy: samples/s of per-seed sampling (`LlavaModel.sample`, one transformers.js loop per seed) against the worker's
// `generate` task (all samples of a prompt in one batch on one run of the prompt), same prompts and seeds.
//
// Every path uses the same onnxruntime thread count, in one process, on the same questions; best of several
// interleaved repetitions. Rates are per second of the process's CPU time: with one onnxruntime thread every path is
// one busy thread at a time, so on an idle machine that is the wall-clock rate, and on a shared machine (other jobs
// taking turns on the cores) it is the figure that does not depend on them. Wall-clock rates are in the notes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-node';
import { RawImage } from '@huggingface/transformers';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import { DEFAULT_PLAN, continuationFeeds, continuationLayout, gatherRows, planBatches } from '../../src/backends/local/batched.js';
import type { KvCache } from '../../src/backends/local/graphs.js';
import runTask from '../../src/backends/local/local.worker.js';
import { poolSize } from '../../src/backends/local/pool.js';
import { labelTasks } from '../../src/stages/label.js';
import { slicesOf } from '../../src/stages/stream.js';
import { openDb } from '../../src/store/index.js';
import { yesNoFromLogits, yesNoTokenIds } from '../../src/feedback/yes-no.js';
import type { GenerateResult, LabelResult } from '../../src/backends/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LABELER = path.join(ROOT, 'models', 'shapes-labeler');
const POLICY = path.join(ROOT, 'models', 'shapes-policy');
const TEST = path.join(ROOT, 'data', 'shapes', 'test');
const DEV = path.join(ROOT, 'data', 'shapes', 'dev');
const SUFFIX = ' Please answer yes or no.'; // the default label.suffix
const CHUNK_PROMPTS = 32; // the default chunk_prompts: the streaming round's slice of prompts

/** One printed figure (the shape scripts/bench/index.ts prints; `target`/`met` when there is a target). */
export interface LocalLabelRow {
  name: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean | null;
  note?: string;
}

/** Options of the local-labeling bench. */
export interface LocalLabelOptions {
  /** Test-split questions to label (default 400; 120 with `quick`). */
  questions?: number;
  /** Dev prompts of the real round whose questions are labeled (default 50; 16 with `quick`). */
  roundPrompts?: number;
  /** onnxruntime intra-op threads, the same for every path (default 1). */
  threads?: number;
  /** Dev prompts for the policy figures (default 8; 3 with `quick`), 10 samples each. */
  prompts?: number;
  /** Smaller sizes, to check the harness. */
  quick?: boolean;
  /** Progress lines. */
  log?: (msg: string) => void;
}

interface Group {
  imagePath: string;
  questions: string[];
}

/** Questions per image, and the calls the label stage makes of them (several images a call). */
interface Workload {
  name: string;
  groups: Group[];
  tasks: Group[][];
}

/** Calls as the label stage makes them for the local labeler, from questions ordered by image (per slice of prompts). */
function workload(name: string, slices: { imagePath: string; text: string }[][]): Workload {
  // The stage's concurrency for local backends: two calls per worker, workers = cores by default.
  const concurrency = 2 * poolSize(null).workers;
  const tasks = slices.flatMap((questions) =>
    labelTasks(questions.map((q) => ({ ...q, image_id: q.imagePath })), concurrency, true).map((t) =>
      t.map((g) => ({ imagePath: g[0]!.imagePath, questions: g.map((q) => q.text) })),
    ),
  );
  return { name, groups: tasks.flat(), tasks };
}

/** The first `n` test questions (4 an image), cut as the label stage cuts them. */
function testWorkload(n: number): Workload {
  const lines = readFileSync(path.join(TEST, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, n);
  const qs = lines.map((l) => JSON.parse(l) as { image: string; question: string }).map((q) => ({ imagePath: path.join(TEST, q.image), text: q.question }));
  return workload('test 4/image', [qs]);
}

/**
 * The distinct questions of a real round: the built CLI's `run` (default config) on the first `prompts` dev prompts
 * into a temp database, the questions read back ordered by image as the label stage reads its pending questions.
 */
function devRoundWorkload(prompts: number, log: (m: string) => void): Workload {
  const cli = path.join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (the dev-round workload runs a real round).`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rlaifv-bench-label-'));
  try {
    const db = path.join(dir, 'round.db');
    log(`local-label: running a round on ${prompts} dev prompts for its questions`);
    execFileSync(process.execPath, [cli, 'run', '--db', db, '--limit', String(prompts), '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const h = openDb(db, { readonly: true });
    try {
      // The streaming round labels a slice of prompts at a time (chunk_prompts, default 32): per slice, the questions
      // of its prompts not labeled in an earlier slice, ordered by image, as pendingLabels gives them.
      const rows = h
        .prepare(
          `SELECT q.id, q.image_id, q.text, i.path AS image_path, rp.ordinal
           FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
           JOIN claims cl ON cl.candidate_id = c.id JOIN questions q ON q.id = cl.question_id
           JOIN images i ON i.id = q.image_id
           ORDER BY q.image_id, q.id`,
        )
        .all() as { id: string; text: string; image_path: string; ordinal: number }[];
      const ordinals = [...new Set(rows.map((r) => r.ordinal))].sort((a, b) => a - b);
      const seen = new Set<string>();
      const slices = slicesOf(ordinals, CHUNK_PROMPTS).map((range) => {
        const inSlice = rows.filter((r) => r.ordinal >= range.from && r.ordinal < range.to);
        const fresh = inSlice.filter((r) => !seen.has(r.id) && (seen.add(r.id), true));
        return fresh.map((r) => ({ imagePath: path.isAbsolute(r.image_path) ? r.image_path : path.join(ROOT, r.image_path), text: r.text }));
      });
      return workload(`dev round (${prompts} prompts)`, slices);
    } finally {
      h.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall-clock and process CPU seconds of one call. */
async function seconds(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

/** The best (least) wall-clock and CPU times over repetitions. */
class Best {
  wall = Infinity;
  cpu = Infinity;
  add(t: { wall: number; cpu: number }): void {
    this.wall = Math.min(this.wall, t.wall);
    this.cpu = Math.min(this.cpu, t.cpu);
  }
}

/** The bare decoder feeds of one image's questions (prefix = chat template + image tokens), built before timing. */
async function bareFeeds(m: LlavaModel, session: ort.InferenceSession, groups: Group[]): Promise<{ feeds: Record<string, ort.Tensor>[]; perImage: (() => Promise<unknown>)[] }> {
  const g = m.graphs;
  const h = g.hidden;
  const img = m.info.imageTokenIndex;
  const feeds: Record<string, ort.Tensor>[] = [];
  const perImage: (() => Promise<unknown>)[] = [];
  for (const grp of groups) {
    const image = await readImage(grp.imagePath);
    const px = await m.pixelValues(image);
    const enc = await m.encodeImage(image);
    const ids = grp.questions.map((q) => m.promptIds(q + SUFFIX, enc.imageTokens));
    const p = ids[0]!.lastIndexOf(img) + 1; // the prefix ends after the image tokens
    // The prefix run: embeddings with the image features in place, then one decoder run keeping its cache.
    const table = await g.embedRowsOf(ids[0]!.slice(0, p));
    const prefixEmbeds = new Float32Array(p * h);
    let k = 0;
    for (let i = 0; i < p; i++) {
      const id = ids[0]![i]!;
      if (id === img) {
        prefixEmbeds.set(enc.features.data.subarray(k * h, (k + 1) * h), i * h);
        k++;
      } else {
        prefixEmbeds.set(table.get(id)!, i * h);
      }
    }
    const prefixFeeds = decoderFeeds(g.pastNames, h, m.info.numKvHeads, m.info.headDim, {
      rows: 1,
      seq: p,
      embeds: prefixEmbeds,
      mask: new BigInt64Array(p).fill(1n),
      positions: BigInt64Array.from({ length: p }, (_, i) => BigInt(i)),
      past: null,
    });
    const out = await session.run(prefixFeeds);
    const cache: KvCache = { rows: 1, length: p, data: g.presentNames.map((n) => out[n]!.data as Float32Array) };
    const conts = ids.map((r) => r.slice(p));
    for (const batch of planBatches(conts.map((c) => c.length), DEFAULT_PLAN)) {
      const lens = batch.map((i) => conts[i]!.length);
      const f = continuationFeeds(cache, lens);
      const t = await g.embedRowsOf(batch.flatMap((i) => conts[i]!));
      const embeds = new Float32Array(f.rows * f.seq * h);
      batch.forEach((i, r) => conts[i]!.forEach((id, j) => embeds.set(t.get(id)!, (r * f.seq + j) * h)));
      feeds.push(decoderFeeds(g.pastNames, h, m.info.numKvHeads, m.info.headDim, { ...f, embeds }));
    }
    const vision = g.sessions.vision;
    const visionFeeds = { [vision.inputNames[0]!]: new ort.Tensor('float32', px.data, px.dims) };
    perImage.push(async () => {
      await vision.run(visionFeeds);
      await session.run(prefixFeeds);
    });
  }
  return { feeds, perImage };
}

/**
 * The bare decoder feeds of each call's questions batched across its images, as the labelImages task batches them:
 * each image's prefix (chat template + image tokens) run before timing, every batch's past gathered row by row from
 * the prefix caches of its rows' images.
 */
async function bareFeedsAcross(
  m: LlavaModel,
  session: ort.InferenceSession,
  tasks: Group[][],
): Promise<{ feeds: Record<string, ort.Tensor>[]; perTask: (() => Promise<unknown>)[] }> {
  const g = m.graphs;
  const h = g.hidden;
  const img = m.info.imageTokenIndex;
  const feeds: Record<string, ort.Tensor>[] = [];
  const perTask: (() => Promise<unknown>)[] = [];
  for (const task of tasks) {
    const rows: { ids: number[]; cache: KvCache; p: number }[] = [];
    const pixels: Float32Array[] = [];
    const prefixEmbeds: Float32Array[] = [];
    for (const grp of task) {
      const image = await readImage(grp.imagePath);
      pixels.push((await m.pixelValues(image)).data);
      const enc = await m.encodeImage(image);
      const ids = grp.questions.map((q) => m.promptIds(q + SUFFIX, enc.imageTokens));
      const p = ids[0]!.lastIndexOf(img) + 1;
      const table = await g.embedRowsOf(ids[0]!.slice(0, p));
      const embeds = new Float32Array(p * h);
      let k = 0;
      for (let i = 0; i < p; i++) {
        const id = ids[0]![i]!;
        if (id === img) embeds.set(enc.features.data.subarray(k++ * h, k * h), i * h);
        else embeds.set(table.get(id)!, i * h);
      }
      prefixEmbeds.push(embeds);
      const out = await session.run(
        decoderFeeds(g.pastNames, h, m.info.numKvHeads, m.info.headDim, {
          rows: 1,
          seq: p,
          embeds,
          mask: new BigInt64Array(p).fill(1n),
          positions: BigInt64Array.from({ length: p }, (_, i) => BigInt(i)),
          past: null,
        }),
      );
      const cache: KvCache = { rows: 1, length: p, data: g.presentNames.map((n) => out[n]!.data as Float32Array) };
      for (const r of ids) rows.push({ ids: [...r], cache, p });
    }
    const p = rows[0]!.p;
    if (rows.some((r) => r.p !== p)) throw new Error('bareFeedsAcross: images of one call with prefixes of different lengths');
    const conts = rows.map((r) => r.ids.slice(p));
    for (const batch of planBatches(conts.map((c) => c.length), DEFAULT_PLAN)) {
      const lens = batch.map((i) => conts[i]!.length);
      const f = continuationLayout(p, lens);
      const past = gatherRows(batch.map((i) => ({ cache: rows[i]!.cache, row: 0 })));
      const t = await g.embedRowsOf(batch.flatMap((i) => conts[i]!));
      const embeds = new Float32Array(f.rows * f.seq * h);
      batch.forEach((i, r) => conts[i]!.forEach((id, j) => embeds.set(t.get(id)!, (r * f.seq + j) * h)));
      feeds.push(decoderFeeds(g.pastNames, h, m.info.numKvHeads, m.info.headDim, { ...f, embeds, past }));
    }
    // The call's image work, batched: one image-encoder run on all its images, one prefix run with a row per image.
    const n = task.length;
    const allPixels = new Float32Array(n * pixels[0]!.length);
    pixels.forEach((px, i) => allPixels.set(px, i * px.length));
    const allEmbeds = new Float32Array(n * p * h);
    prefixEmbeds.forEach((e, i) => allEmbeds.set(e, i * p * h));
    const prefixFeeds = decoderFeeds(g.pastNames, h, m.info.numKvHeads, m.info.headDim, {
      rows: n,
      seq: p,
      embeds: allEmbeds,
      mask: new BigInt64Array(n * p).fill(1n),
      positions: BigInt64Array.from({ length: n * p }, (_, i) => BigInt(i % p)),
      past: null,
    });
    const vision = g.sessions.vision;
    const visionFeeds = { [vision.inputNames[0]!]: new ort.Tensor('float32', allPixels, [n, 3, ...(await m.pixelValues(await readImage(task[0]!.imagePath))).dims.slice(-2)]) };
    perTask.push(async () => {
      await vision.run(visionFeeds);
      await session.run(prefixFeeds);
    });
  }
  return { feeds, perTask };
}

function decoderFeeds(
  pastNames: string[],
  hidden: number,
  heads: number,
  headDim: number,
  f: { rows: number; seq: number; embeds: Float32Array; mask: BigInt64Array; positions: BigInt64Array; past: KvCache | null },
): Record<string, ort.Tensor> {
  const pastLen = f.past ? f.past.length : 0;
  const feeds: Record<string, ort.Tensor> = {
    inputs_embeds: new ort.Tensor('float32', f.embeds, [f.rows, f.seq, hidden]),
    attention_mask: new ort.Tensor('int64', f.mask, [f.rows, pastLen + f.seq]),
    position_ids: new ort.Tensor('int64', f.positions, [f.rows, f.seq]),
  };
  pastNames.forEach((n, i) => (feeds[n] = new ort.Tensor('float32', f.past ? f.past.data[i]! : new Float32Array(0), [f.rows, heads, pastLen, headDim])));
  return feeds;
}

/** Labeler figures of one workload: rates of (a), (b0), (b), (c), (c×), (c') and the ratios with their targets. */
async function labelerRows(
  w: Workload,
  plain: LlavaModel,
  bare: ort.InferenceSession,
  threads: number,
  reps: number,
  log: (m: string) => void,
): Promise<LocalLabelRow[]> {
  const total = w.groups.reduce((a, g) => a + g.questions.length, 0);
  log(`local-label: ${w.name}: ${total} questions over ${w.groups.length} images, ${w.tasks.length} label calls, ${threads} onnxruntime thread(s)`);
  const yesNo = yesNoTokenIds(plain.vocabulary());
  // (a) the plain path, on its own model instance.
  const runPlain = async (gs: Group[]) => {
    for (const g of gs) {
      for (const q of g.questions) {
        const image = await RawImage.read(g.imagePath);
        yesNoFromLogits(await plain.firstTokenLogits(image, q + SUFFIX), yesNo, (i) => plain.tokenText(i), 5);
      }
    }
  };
  const failed = (res: LabelResult[]) => {
    const bad = res.find((r) => r.error);
    if (bad) throw new Error(`label task failed: ${bad.error}`);
  };
  // (b) what the label stage runs: the worker's tasks in-process (its own model instance, loaded by the task).
  const runRlaifv = async (tasks: Group[][]) => {
    for (const t of tasks) {
      if (t.length === 1) {
        failed((await runTask({ kind: 'label', model: LABELER, threads, imagePath: t[0]!.imagePath, questions: t[0]!.questions, suffix: SUFFIX })) as LabelResult[]);
      } else {
        const res = (await runTask({ kind: 'labelImages', model: LABELER, threads, items: t, suffix: SUFFIX })) as LabelResult[][];
        res.forEach(failed);
      }
    }
  };
  // (b0) the previous stage: one label task per image.
  const runPerImage = async (gs: Group[]) => runRlaifv(gs.map((g) => [g]));
  const { feeds, perImage } = await bareFeeds(plain, bare, w.groups);
  const { feeds: across, perTask } = await bareFeedsAcross(plain, bare, w.tasks);
  const runBare = async () => {
    for (const f of feeds) await bare.run(f, ['logits']);
  };
  const runBareAcross = async () => {
    for (const f of across) await bare.run(f, ['logits']);
  };
  const runBareWithImages = async () => {
    for (const f of perImage) await f();
    for (const f of feeds) await bare.run(f, ['logits']);
  };
  const runBareAcrossWithImages = async () => {
    for (const f of perTask) await f();
    for (const f of across) await bare.run(f, ['logits']);
  };

  // Warm-up (model loads, first-run allocations), then interleaved repetitions; the plain path on fewer of them.
  await runPlain(w.groups.slice(0, 3));
  await runRlaifv(w.tasks.slice(0, 2));
  await runPerImage(w.groups.slice(0, 3));
  await runBare();
  await runBareAcross();
  await runBareWithImages();
  await runBareAcrossWithImages();
  const best = { a: new Best(), b0: new Best(), b: new Best(), c: new Best(), cx: new Best(), c2: new Best(), cx2: new Best() };
  for (let r = 0; r < reps; r++) {
    if (r < Math.max(1, Math.ceil(reps / 2))) best.a.add(await seconds(() => runPlain(w.groups)));
    best.b.add(await seconds(() => runRlaifv(w.tasks)));
    best.b0.add(await seconds(() => runPerImage(w.groups)));
    best.c.add(await seconds(runBare));
    best.cx.add(await seconds(runBareAcross));
    best.c2.add(await seconds(runBareWithImages));
    best.cx2.add(await seconds(runBareAcrossWithImages));
    const q = (b: Best) => (total / b.cpu).toFixed(0);
    log(`local-label: ${w.name}: repetition ${r + 1}/${reps}: questions per CPU second a ${q(best.a)}, b0 ${q(best.b0)}, b ${q(best.b)}, c ${q(best.c)}, c× ${q(best.cx)}, c' ${q(best.c2)}, c×' ${q(best.cx2)}`);
  }
  const rate = (b: Best) => ({ cpu: total / b.cpu, wall: total / b.wall });
  const qa = rate(best.a);
  const qb0 = rate(best.b0);
  const qb = rate(best.b);
  const qc = rate(best.c);
  const qcx = rate(best.cx);
  const qc2 = rate(best.c2);
  const qcx2 = rate(best.cx2);
  const wall = (x: { wall: number }) => `wall clock ${r1(x.wall)}/s`;
  const n = `${w.name}: `;
  const perImg = (total / w.groups.length).toFixed(1);
  return [
    { name: `${n}(a) plain path`, value: r1(qa.cpu), unit: 'questions/s', note: `${total} questions over ${w.groups.length} images (${perImg} an image); one transformers.js forward per question, image re-read each time (RawImage.read); ${wall(qa)}` },
    { name: `${n}(b) rlaifv label stage calls`, value: r1(qb.cpu), unit: 'questions/s', note: `the worker's labelImages task in-process, as the label stage calls it (${w.tasks.length} calls of up to ${Math.max(...w.tasks.map((t) => t.length))} images): images encoded together, prefix once for all, continuations batched across images; ${wall(qb)}` },
    { name: `${n}(b0) per-image label tasks`, value: r1(qb0.cpu), unit: 'questions/s', note: `the worker's label task once per image (${w.groups.length} tasks), the stage before batching across images; ${wall(qb0)}` },
    { name: `${n}(c) bare decoder limit`, value: r1(qc.cpu), unit: 'questions/s', note: `bare onnxruntime-node decoder runs over the question tokens on precomputed prefix caches, batched per image; ${wall(qc)}` },
    { name: `${n}(c×) bare decoder, batched across images`, value: r1(qcx.cpu), unit: 'questions/s', note: `as (c), batched across the images of each call as (b) batches them; ${wall(qcx)}` },
    { name: `${n}(c') bare limit with image encoder and prefix`, value: r1(qc2.cpu), unit: 'questions/s', note: `(c) plus one image-encoder run and one prefix run per image; ${wall(qc2)}` },
    { name: `${n}(c×') bare limit of (b): batched across images, with image work`, value: r1(qcx2.cpu), unit: 'questions/s', note: `(c×) plus per call one image-encoder run on all its images and one prefix run with a row per image: the model work (b) does, as bare runs; ${wall(qcx2)}` },
    check(`${n}(b)/(a) rlaifv vs plain`, r1(qb.cpu / qa.cpu), '×', 10, `wall clock ${r1(qb.wall / qa.wall)}×`),
    check(`${n}(b)/(c) rlaifv vs bare limit`, r1((100 * qb.cpu) / qc.cpu), '%', 85, `wall clock ${r1((100 * qb.wall) / qc.wall)}%`),
    { name: `${n}(b)/(c×) rlaifv vs bare decoder batched across images`, value: r1((100 * qb.cpu) / qcx.cpu), unit: '%', note: `wall clock ${r1((100 * qb.wall) / qcx.wall)}%` },
    { name: `${n}(b)/(c') rlaifv vs bare limit with image work`, value: r1((100 * qb.cpu) / qc2.cpu), unit: '%', note: `wall clock ${r1((100 * qb.wall) / qc2.wall)}%` },
    { name: `${n}(b)/(c×') rlaifv vs its bare limit`, value: r1((100 * qb.cpu) / qcx2.cpu), unit: '%', note: `wall clock ${r1((100 * qb.wall) / qcx2.wall)}%` },
    { name: `${n}(b)/(b0) across images vs per image`, value: r1(qb.cpu / qb0.cpu), unit: '×', note: `wall clock ${r1(qb.wall / qb0.wall)}×` },
  ];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** Runs the bench; rows of figures (rates, ratios with their targets). */
export async function benchLocalLabel(opts: LocalLabelOptions = {}): Promise<{ rows: LocalLabelRow[] }> {
  const log = opts.log ?? (() => {});
  const threads = opts.threads ?? 1;
  const reps = opts.quick ? 2 : 5;
  const workloads = [devRoundWorkload(opts.roundPrompts ?? (opts.quick ? 16 : 50), log), testWorkload(opts.questions ?? (opts.quick ? 120 : 400))];
  const plain = await LlavaModel.load(LABELER, { threads });
  // (c) a bare decoder session of the same file, same threads.
  const bare = await ort.InferenceSession.create(path.join(LABELER, 'onnx', 'decoder_model_merged.onnx'), { intraOpNumThreads: threads, interOpNumThreads: 1 });
  const labelRows: LocalLabelRow[] = [];
  for (const w of workloads) labelRows.push(...(await labelerRows(w, plain, bare, threads, reps, log)));

  // Policy: per-seed sampling vs the worker's batched generate task, same prompts and seeds.
  const policyPrompts = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, opts.prompts ?? (opts.quick ? 3 : 8))
    .map((l) => JSON.parse(l) as { image: string; question: string });
  const decoding = { temperature: 0.7, top_p: 1, max_new_tokens: 512 }; // the config defaults
  const seedsOf = (i: number) => Array.from({ length: 10 }, (_, k) => ({ index: k, seed: 1000 * i + k }));
  const policy = await LlavaModel.load(POLICY, { threads });
  let perSeedTexts: string[] = [];
  const runPerSeed = async () => {
    perSeedTexts = [];
    for (const [i, p] of policyPrompts.entries()) {
      for (const s of seedsOf(i)) {
        const image = await readImage(path.join(DEV, p.image));
        const r = await policy.sample(image, p.question, { seed: s.seed, temperature: decoding.temperature, topP: decoding.top_p, maxNewTokens: decoding.max_new_tokens });
        perSeedTexts.push(r.text);
      }
    }
  };
  let batchedTexts: string[] = [];
  const runBatched = async () => {
    batchedTexts = [];
    for (const [i, p] of policyPrompts.entries()) {
      const res = (await runTask({ kind: 'generate', model: POLICY, threads, imagePath: path.join(DEV, p.image), question: p.question, samples: seedsOf(i), decoding })) as GenerateResult[];
      for (const r of res) batchedTexts.push('error' in r ? `error: ${r.error}` : r.text);
    }
  };
  const samples = policyPrompts.length * 10;
  await runPerSeed();
  await runBatched();
  const bestP = { perSeed: new Best(), batched: new Best() };
  for (let r = 0; r < Math.max(1, Math.ceil(reps / 2)); r++) {
    bestP.perSeed.add(await seconds(runPerSeed));
    bestP.batched.add(await seconds(runBatched));
  }
  const sp = { perSeed: samples / bestP.perSeed.cpu, batched: samples / bestP.batched.cpu };
  const spWall = { perSeed: samples / bestP.perSeed.wall, batched: samples / bestP.batched.wall };
  const same = perSeedTexts.filter((t, i) => t === batchedTexts[i]).length;
  await plain.dispose();
  await policy.dispose();

  const rows: LocalLabelRow[] = [
    ...labelRows,
    { name: 'policy: per-seed sampling', value: r1(sp.perSeed), unit: 'samples/s', note: `${policyPrompts.length} prompts × 10 seeds, LlavaModel.sample per seed; wall clock ${r1(spWall.perSeed)}/s` },
    { name: 'policy: batched sampling (generate task)', value: r1(sp.batched), unit: 'samples/s', note: `10 samples per prompt in one batch; ${same}/${samples} texts equal to the per-seed path; wall clock ${r1(spWall.batched)}/s` },
    { name: 'policy: batched / per-seed', value: r1(sp.batched / sp.perSeed), unit: '×', note: `wall clock ${r1(spWall.batched / spWall.perSeed)}×` },
  ];
  return { rows };
}

function check(name: string, value: number, unit: string, bound: number, note?: string): LocalLabelRow {
  return { name, value, unit, target: `≥ ${bound}${unit}`, met: value >= bound, ...(note ? { note } : {}) };
}

function parseArgs(argv: string[]): LocalLabelOptions {
  const o: LocalLabelOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v <= 0) throw new Error(`${a} needs a positive integer`);
      return v;
    };
    if (a === '--questions') o.questions = num();
    else if (a === '--prompts-round') o.roundPrompts = num();
    else if (a === '--threads') o.threads = num();
    else if (a === '--prompts') o.prompts = num();
    else if (a === '--quick') o.quick = true;
    else throw new Error(`unknown argument ${a} (allowed: --prompts-round N, --questions N, --threads T, --prompts N, --quick)`);
  }
  return o;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const opts = parseArgs(process.argv.slice(2));
  const { rows } = await benchLocalLabel({ ...opts, log: (m) => process.stderr.write(`${m}\n`) });
  const w = Math.max(...rows.map((r) => r.name.length));
  const fmt = (r: LocalLabelRow) => `${r.value}${r.unit === '%' ? '%' : r.unit === '×' ? '×' : ' ' + r.unit}`;
  const vw = Math.max(...rows.map((r) => fmt(r).length));
  for (const r of rows) {
    const t = r.target ? `  target ${r.target}: ${r.met ? 'met' : 'NOT met'}` : '';
    console.log(`${r.name.padEnd(w)}  ${fmt(r).padStart(vw)}${t}`);
  }
  console.log('');
  for (const r of rows) if (r.note) console.log(`${r.name}: ${r.note}`);
}
