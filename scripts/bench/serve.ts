// Figure 10: `rlaifv serve` under a trainer's load, against the offline divide, label and score stages on the same
// answers in the same run.
//
// Local stack (tiny models, rules divider, 2 workers): (a) N concurrent single-sample OpenRLHF requests (/get_reward,
// 128 images × 8 by default, the VLM example's rollout): answers/s over the whole burst and per-request p50/p99 latency;
// (b) one /v1/rewards request of M items (512 × 5 by default, a verl/EasyR1 step); (c) the offline stages on the same N
// answers in a fresh store; (d) the HTTP floor: the same N requests from the same client to a server that answers at
// once (scripts/bench/noop-reward.mjs), what the client and HTTP alone cost on this machine. Each run gets a fresh
// store, so none reuses another's labels. Labeler calls per claim: questions labeled ÷ claims stored.
// Served labeler (the test server, scripts/mimic/openai-server.ts, as K endpoints with C slots and L ms each): the
// labeler requests served per second while the server scores a burst, ÷ the fleet's capacity K·C/L.
// The server is the built CLI in its own process; this process is only the client.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CLI, DEV_PROMPTS, ROOT, checked, info, readJsonl, round, tempDir, writeConfig, type BenchOptions, type BenchResult, type Row } from './common.js';
import { loadConfig } from '../../src/config/load.js';
import { createBackends, selectRound, stageConcurrency } from '../../src/pipeline/round.js';
import { openDb, putOnlineAnswers, type Db, type ImageRow } from '../../src/store/index.js';
import { checkImage, makePrompt } from '../../src/input/prompts.js';
import { imageStoreDir } from '../../src/image/store.js';
import { contentId } from '../../src/stages/ids.js';
import { wordCount } from '../../src/feedback/words.js';
import { type StageContext } from '../../src/stages/context.js';
import { silentProgress } from '../../src/progress.js';
import { runDivide } from '../../src/stages/divide.js';
import { runLabel } from '../../src/stages/label.js';
import { runScore } from '../../src/stages/score.js';

interface DevPrompt {
  image: string;
  question: string;
  meta: { truth: { objects: { color: string; shape: string; position: string }[] } };
}
interface Answer {
  image: string;
  question: string;
  completion: string;
}

const DEV = path.dirname(DEV_PROMPTS);

/** `perImage` answers to each of `images` dev prompts: true sentences about its shapes, a false one on odd samples. */
function answers(images: number, perImage: number): Answer[] {
  const ps = readJsonl<DevPrompt>(DEV_PROMPTS);
  const out: Answer[] = [];
  for (let i = 0; i < images; i++) {
    const p = ps[i % ps.length]!;
    const objs = p.meta.truth.objects;
    for (let k = 0; k < perImage; k++) {
      const o = objs[k % objs.length]!;
      const o2 = objs[(k + 1) % objs.length]!;
      const text = [`The ${o.color} ${o.shape} is in the ${o.position}.`, ...(k % 2 ? [`There is a ${o2.color === 'green' ? 'red' : 'green'} hexagon.`] : []), ...(k % 3 === 0 ? [`There is a ${o2.color} ${o2.shape}.`] : []), `(${i}.${k})`];
      out.push({ image: p.image, question: p.question, completion: text.join(' ') });
    }
  }
  return out;
}

/** Starts the built `rlaifv serve` on a free port; resolves with its URL. */
async function serve(config: string, cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`rlaifv serve exited ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const m = /listening on (\S+)/.exec(l);
      if (m) resolve(m[1]!);
    });
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function postJson(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** scripts/bench/noop-reward.mjs in its own process: answers /get_reward at once (the HTTP floor). */
async function noopServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench', 'noop-reward.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`noop-reward exited ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Loads the server's models before a measured run (a first batch pays the model load, which a trainer's first step pays once). */
async function warm(url: string): Promise<void> {
  const w = answers(4, 2).map((a, i) => ({ id: String(i), image: { path: a.image }, question: a.question, completion: `${a.completion} [warm-up]` }));
  await postJson(`${url}/v1/rewards`, { items: w });
}

/** N concurrent /get_reward requests of one sample each: answers/s over the burst, per-request latencies. */
async function burst(url: string, as: Answer[]): Promise<{ perSecond: number; p50: number; p99: number }> {
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    as.map(async (a) => {
      const s = performance.now();
      const q = `<|im_start|>user\n<|vision_start|>${'<|image_pad|>'.repeat(256)}<|vision_end|>${a.question}<|im_end|>\n<|im_start|>assistant\n${a.completion}<|im_end|>`;
      await postJson(`${url}/get_reward`, { query: [q], prompts: [''], labels: [JSON.stringify({ image: a.image, question: a.question })] });
      lat.push(performance.now() - s);
    }),
  );
  return { perSecond: as.length / ((performance.now() - t0) / 1000), p50: quantile(lat, 0.5), p99: quantile(lat, 0.99) };
}

/** Questions labeled ÷ claims stored in a store. */
function callsPerClaim(db: string): number {
  const h = new Database(db, { readonly: true });
  try {
    const labels = (h.prepare('SELECT COUNT(*) AS n FROM labels').get() as { n: number }).n;
    const claims = (h.prepare('SELECT COUNT(*) AS n FROM claims').get() as { n: number }).n;
    return labels / claims;
  } finally {
    h.close();
  }
}

/** Stores answers as candidates of a round (their images checked before). */
function store(db: Db, roundId: number, as: Answer[], images: Map<string, ImageRow>): void {
  putOnlineAnswers(
    db,
    roundId,
    as.map((a) => {
      const image = images.get(a.image)!;
      const p = makePrompt({ question: a.question }, image, 'bench');
      return { image, prompt: { id: p.id, image_id: image.id, question: a.question, meta_json: null, content_hash: p.contentHash, source: 'bench' }, text: a.completion, words: wordCount(a.completion), model: 'bench' };
    }),
    (pid, i) => contentId(roundId, pid, i),
  );
}

/** The offline divide, label and score stages on the same answers in a fresh store: answers/s over the three stages. */
async function offline(dir: string, as: Answer[], edit: (c: ReturnType<typeof loadConfig>['config']) => void, onStart?: () => Promise<void>): Promise<number> {
  const { config } = loadConfig(undefined, { db: path.join(dir, 'offline.sqlite'), workers: 2 });
  edit(config);
  const backends = createBackends(config);
  const db = openDb(config.db);
  try {
    const round = selectRound(db, config, 'next', { policy: 'online', labeler: backends.labeler.id, divider: backends.divider.id });
    const images = new Map<string, ImageRow>();
    for (const a of as) if (!images.has(a.image)) images.set(a.image, await checkImage(a.image, DEV, config.limits, { imagesDir: imageStoreDir(config.db) }));
    store(db, round.id, as, images);
    const ctx: StageContext = { db, round, config, progress: silentProgress, backends };
    // The models load on the first call: a warm-up round of 8 answers first, as the server gets one.
    const warmRound = selectRound(db, config, 'next', { policy: 'online', labeler: backends.labeler.id, divider: backends.divider.id });
    store(db, warmRound.id, answers(4, 2).map((a) => ({ ...a, completion: `${a.completion} [warm-up]` })), images);
    const wctx = { ...ctx, round: warmRound };
    await runDivide(wctx, stageConcurrency(backends, backends.divider));
    await runLabel(wctx, stageConcurrency(backends, backends.labeler));
    await onStart?.();
    const t0 = performance.now();
    await runDivide(ctx, stageConcurrency(backends, backends.divider));
    await runLabel(ctx, stageConcurrency(backends, backends.labeler));
    await runScore(ctx, backends.labeler.id);
    return as.length / ((performance.now() - t0) / 1000);
  } finally {
    db.close();
    await backends.close();
  }
}

/** The served labeler: scripts/bench/fleet-sim.mjs, K endpoints with C slots holding each request L ms (no model work). */
async function fleet(k: number, c: number, l: number): Promise<{ urls: string[]; child: ChildProcess; stats: () => Promise<{ served: number }> }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench', 'fleet-sim.mjs'), '--endpoints', String(k), '--slots', String(c), '--latency-ms', String(l)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fleet-sim exited ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { ports: number[] }).ports));
  });
  return {
    urls: ports.map((p) => `http://127.0.0.1:${p}/v1`),
    child,
    stats: async () => (await (await fetch(`http://127.0.0.1:${ports[0]}/stats`)).json()) as { served: number },
  };
}

/** Runs figure 10. */
export async function benchServe(opts: BenchOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const [images, per, batchImages] = opts.quick ? [16, 8, 64] : [128, 8, 512];
  const single = answers(images, per);
  const batch = answers(batchImages, 5).map((a) => ({ ...a, completion: `${a.completion} [b]` }));
  const tmp = tempDir('serve');
  const rows: Row[] = [];
  try {
    const local = { workers: 2, serve: { image_root: DEV } };
    log(`serve: offline divide+label+score on ${single.length} answers`);
    const off = await offline(tmp.dir, single, () => {});
    log(`serve: ${single.length} concurrent requests to a server that answers at once (the HTTP floor)`);
    const n = await noopServer();
    let floor;
    try {
      await postJson(`${n.url}/get_reward`, { query: [], prompts: [], labels: [] });
      floor = await burst(n.url, single);
    } finally {
      await stop(n.child);
    }
    log(`serve: ${single.length} concurrent single-sample /get_reward requests`);
    const a = await serve(writeConfig(tmp.dir, 'a.json', { ...local, db: path.join(tmp.dir, 'a.sqlite') }), tmp.dir);
    let b1;
    try {
      await warm(a.url);
      b1 = await burst(a.url, single);
    } finally {
      await stop(a.child);
    }
    log(`serve: one /v1/rewards request of ${batch.length} items`);
    const b = await serve(writeConfig(tmp.dir, 'b.json', { ...local, db: path.join(tmp.dir, 'b.sqlite') }), tmp.dir);
    let batchRate;
    try {
      await warm(b.url);
      const t0 = performance.now();
      await postJson(`${b.url}/v1/rewards`, { items: batch.map((x, i) => ({ id: String(i), image: { path: x.image }, question: x.question, completion: x.completion })) });
      batchRate = batch.length / ((performance.now() - t0) / 1000);
    } finally {
      await stop(b.child);
    }
    rows.push(
      info('offline divide+label+score, local', round(off), 'answers/s', `${single.length} answers`),
      info(`serve, ${single.length} concurrent OpenRLHF requests`, round(b1.perSecond), 'answers/s'),
      checked('serve ÷ offline, same answers', round(b1.perSecond / off, 2), '×', '>=', 0.8),
      checked('p99 latency, concurrent burst', round(b1.p99 / 1000, 2), 's', '<=', 2, `p50 ${round(b1.p50 / 1000, 2)} s; every request was sent at once, so latency includes the wait behind the whole burst`),
      info('HTTP floor: the same burst to a server that answers at once', round(floor.perSecond), 'answers/s', `p50 ${round(floor.p50 / 1000, 2)} s, p99 ${round(floor.p99 / 1000, 2)} s: the client and HTTP alone on this machine (scripts/bench/noop-reward.mjs)`),
      info(`serve, one /v1/rewards of ${batch.length} items`, round(batchRate), 'answers/s'),
      info('labeler calls per claim (served answers)', round(callsPerClaim(path.join(tmp.dir, 'a.sqlite')), 3), '', 'questions labeled ÷ claims; same-image questions share a label'),
    );
    // The served labeler fleet, slower than this machine's divider and client (capacity 80 requests/s: about 220/s of
    // questions come out of the offline stages here), so the labeler is the bottleneck whose use is measured.
    const [k, c, l] = [2, 8, 200];
    const fleetAnswers = answers(opts.quick ? 16 : 64, 8).map((x) => ({ ...x, completion: `${x.completion} [f]` }));
    log(`serve: labeler fleet ${k} endpoints × ${c} slots × ${l} ms, ${fleetAnswers.length} answers`);
    const f = await fleet(k, c, l);
    try {
      const remote = { type: 'openai', model: 'sim-policy', base_urls: f.urls, max_in_flight: c, server: 'vllm' };
      let offBefore = 0;
      const offRemote = await offline(
        tmp.dir,
        fleetAnswers,
        (cfg) => {
          cfg.db = path.join(tmp.dir, 'offline-fleet.sqlite');
          cfg.label.backend = remote as typeof cfg.label.backend;
        },
        async () => {
          offBefore = (await f.stats()).served; // after the warm-up's requests
        },
      );
      const offServed = (await f.stats()).served - offBefore;
      const s = await serve(writeConfig(tmp.dir, 'f.json', { ...local, db: path.join(tmp.dir, 'f.sqlite'), label: { backend: remote } }), tmp.dir);
      let fr;
      let served;
      try {
        await warm(s.url);
        const before = (await f.stats()).served;
        fr = await burst(s.url, fleetAnswers);
        served = (await f.stats()).served - before;
      } finally {
        await stop(s.child);
      }
      const secs = fleetAnswers.length / fr.perSecond;
      const capacity = (k * c) / (l / 1000);
      rows.push(
        info('offline stages, served labeler', round(offRemote), 'answers/s'),
        info('serve, served labeler', round(fr.perSecond), 'answers/s', `p50 ${round(fr.p50 / 1000, 2)} s, p99 ${round(fr.p99 / 1000, 2)} s`),
        checked('serve ÷ offline, served labeler', round(fr.perSecond / offRemote, 2), '×', '>=', 0.8),
        info('labeler fleet capacity used by the offline stages', round((100 * offServed) / (fleetAnswers.length / offRemote) / capacity, 1), '%', 'the same answers through divide, label, score in-process: what this machine lets any client reach'),
        checked('labeler fleet capacity used while serving', round((100 * served) / secs / capacity, 1), '%', '>=', 95, `${served} labeler requests in ${round(secs, 1)} s; capacity ${capacity}/s`),
      );
    } finally {
      await stop(f.child);
    }
    return { rows };
  } finally {
    tmp.cleanup();
  }
}
