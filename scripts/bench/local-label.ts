// Local labeling and local sampling speed (issue 6): rlaifv's batched paths against the plain path and the bare limit.
//
//   npx tsx scripts/bench/local-label.ts [--questions N] [--threads T] [--quick]
//
// Labeler, on the same questions (the first N of data/shapes/test/questions.jsonl, grouped by image as the label
// stage groups them: consecutive questions of one image, at most 64 a group):
//   (a) plain path: per question, transformers.js reads the image and runs one full forward (image encoder, prompt),
//       as a per-question script does;
//   (b) rlaifv: the worker's `label` task, in-process: per image, decode and encode the image once, run the shared
//       prompt prefix once, the questions as batched continuations of its cache, then p(yes)/p(no) and the top tokens;
//   (c) bare limit: a bare onnxruntime-node loop of decoder runs only, over the questions' tokens after the prefix
//       (chat template + image tokens), batched the same way, with feeds (embeddings, prefix caches, masks) built
//       before timing;
//   (c') as (c), plus per image the image encoder run and the prefix run (pixels and embeddings built before timing):
//       all the model work an image's questions need.
// Policy: samples/s of per-seed sampling (`LlavaModel.sample`, one transformers.js loop per seed) against the worker's
// `generate` task (all samples of a prompt in one batch on one run of the prompt), same prompts and seeds.
//
// Every path uses the same onnxruntime thread count, in one process, on the same questions; best of several
// interleaved repetitions. Rates are per second of the process's CPU time: with one onnxruntime thread every path is
// one busy thread at a time, so on an idle machine that is the wall-clock rate, and on a shared machine (other jobs
// taking turns on the cores) it is the figure that does not depend on them. Wall-clock rates are in the notes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-node';
import { RawImage } from '@huggingface/transformers';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import { DEFAULT_PLAN, continuationFeeds, planBatches } from '../../src/backends/local/batched.js';
import type { KvCache } from '../../src/backends/local/graphs.js';
import runTask from '../../src/backends/local/local.worker.js';
import { yesNoFromLogits, yesNoTokenIds } from '../../src/feedback/yes-no.js';
import type { GenerateResult, LabelResult } from '../../src/backends/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LABELER = path.join(ROOT, 'models', 'shapes-labeler');
const POLICY = path.join(ROOT, 'models', 'shapes-policy');
const TEST = path.join(ROOT, 'data', 'shapes', 'test');
const DEV = path.join(ROOT, 'data', 'shapes', 'dev');
const SUFFIX = ' Please answer yes or no.'; // the default label.suffix
const MAX_PER_TASK = 64; // as src/stages/label.ts groups questions

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

/** The first `n` test questions, grouped as the label stage groups them. */
function questionGroups(n: number): Group[] {
  const lines = readFileSync(path.join(TEST, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, n);
  const groups: Group[] = [];
  for (const l of lines) {
    const q = JSON.parse(l) as { image: string; question: string };
    const imagePath = path.join(TEST, q.image);
    const g = groups.at(-1);
    if (g && g.imagePath === imagePath && g.questions.length < MAX_PER_TASK) g.questions.push(q.question);
    else groups.push({ imagePath, questions: [q.question] });
  }
  return groups;
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

/** Runs the bench; rows of figures (rates, ratios with their targets). */
export async function benchLocalLabel(opts: LocalLabelOptions = {}): Promise<{ rows: LocalLabelRow[] }> {
  const log = opts.log ?? (() => {});
  const n = opts.questions ?? (opts.quick ? 120 : 400);
  const threads = opts.threads ?? 1;
  const reps = opts.quick ? 2 : 5;
  const groups = questionGroups(n);
  const total = groups.reduce((a, g) => a + g.questions.length, 0);
  log(`local-label: ${total} questions over ${groups.length} images, ${threads} onnxruntime thread(s)`);

  // (a) the plain path, on its own model instance.
  const plain = await LlavaModel.load(LABELER, { threads });
  const yesNo = yesNoTokenIds(plain.vocabulary());
  const runPlain = async (gs: Group[]) => {
    for (const g of gs) {
      for (const q of g.questions) {
        const image = await RawImage.read(g.imagePath);
        yesNoFromLogits(await plain.firstTokenLogits(image, q + SUFFIX), yesNo, (i) => plain.tokenText(i), 5);
      }
    }
  };
  // (b) the worker's label task, in-process (its own model instance, loaded by the task as in a worker thread).
  const runRlaifv = async (gs: Group[]) => {
    for (const g of gs) {
      const res = (await runTask({ kind: 'label', model: LABELER, threads, imagePath: g.imagePath, questions: g.questions, suffix: SUFFIX })) as LabelResult[];
      if (res.some((r) => r.error)) throw new Error(`label task failed: ${res.find((r) => r.error)!.error}`);
    }
  };
  // (c) a bare decoder session of the same file, same threads.
  const bare = await ort.InferenceSession.create(path.join(LABELER, 'onnx', 'decoder_model_merged.onnx'), { intraOpNumThreads: threads, interOpNumThreads: 1 });
  const { feeds, perImage } = await bareFeeds(plain, bare, groups);
  const runBare = async () => {
    for (const f of feeds) await bare.run(f, ['logits']);
  };
  const runBareWithImages = async () => {
    for (const f of perImage) await f();
    for (const f of feeds) await bare.run(f, ['logits']);
  };

  // Warm-up (model loads, first-run allocations), then interleaved repetitions; the plain path on fewer of them.
  const warm = groups.slice(0, 3);
  await runPlain(warm);
  await runRlaifv(warm);
  await runBare();
  await runBareWithImages();
  const best = { a: new Best(), b: new Best(), c: new Best(), c2: new Best() };
  for (let r = 0; r < reps; r++) {
    if (r < Math.max(1, Math.ceil(reps / 2))) best.a.add(await seconds(() => runPlain(groups)));
    best.b.add(await seconds(() => runRlaifv(groups)));
    best.c.add(await seconds(runBare));
    best.c2.add(await seconds(runBareWithImages));
    log(`local-label: repetition ${r + 1}/${reps}: questions per CPU second a ${(total / best.a.cpu).toFixed(0)}, b ${(total / best.b.cpu).toFixed(0)}, c ${(total / best.c.cpu).toFixed(0)}, c' ${(total / best.c2.cpu).toFixed(0)}`);
  }
  const rate = (b: Best) => ({ cpu: total / b.cpu, wall: total / b.wall });
  const qa = rate(best.a);
  const qb = rate(best.b);
  const qc = rate(best.c);
  const qc2 = rate(best.c2);

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

  const r1 = (x: number) => Math.round(x * 10) / 10;
  const wall = (x: { wall: number }) => `wall clock ${r1(x.wall)}/s`;
  const rows: LocalLabelRow[] = [
    { name: '(a) plain path', value: r1(qa.cpu), unit: 'questions/s', note: `one transformers.js forward per question, image re-read each time (RawImage.read); ${wall(qa)}` },
    { name: '(b) rlaifv label task', value: r1(qb.cpu), unit: 'questions/s', note: `the worker's label task in-process: image once, prefix cache once, batched continuations (${groups.length} tasks); ${wall(qb)}` },
    { name: '(c) bare decoder limit', value: r1(qc.cpu), unit: 'questions/s', note: `bare onnxruntime-node decoder runs over the question tokens on precomputed prefix caches, same batches; ${wall(qc)}` },
    { name: "(c') bare limit with image encoder and prefix", value: r1(qc2.cpu), unit: 'questions/s', note: `(c) plus one image-encoder run and one prefix run per image (the model work (b) cannot skip); ${wall(qc2)}` },
    check('(b)/(a) rlaifv vs plain', r1(qb.cpu / qa.cpu), '×', 10, `wall clock ${r1(qb.wall / qa.wall)}×`),
    check('(b)/(c) rlaifv vs bare limit', r1((100 * qb.cpu) / qc.cpu), '%', 85, `wall clock ${r1((100 * qb.wall) / qc.wall)}%`),
    { name: "(b)/(c') rlaifv vs bare limit with image work", value: r1((100 * qb.cpu) / qc2.cpu), unit: '%', note: `wall clock ${r1((100 * qb.wall) / qc2.wall)}%` },
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
    else if (a === '--threads') o.threads = num();
    else if (a === '--prompts') o.prompts = num();
    else if (a === '--quick') o.quick = true;
    else throw new Error(`unknown argument ${a} (allowed: --questions N, --threads T, --prompts N, --quick)`);
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
