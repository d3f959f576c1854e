// Figure 2: remote labeling against the test server's capacity.
//
// The test server (scripts/mimic/openai-server.ts) holds each request for a fixed latency L and works on at most C
// requests at once, so it can answer at most C/L requests per second. rlaifv's label stage, through the OpenAI labeler
// backend (a child `rlaifv label` process), should keep it busy: achieved requests/s ÷ (C/L) ≥ 95%.
//
// The server computes each answer with the real tiny labeler first and then sleeps for what is left of L; so L must be
// well above the answer's compute time while C requests share the machine's cores. A calibration pass (L = 0) measures
// what the machine can compute and answer per second; the figure is only meaningful when that is well above C/L.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { TestServer } from '../mimic/openai-server.js';
import { DEV_PROMPTS, checked, info, round, runCliOk, tempDir, writeConfig, type BenchOptions, type BenchResult, type Row } from './common.js';

/** Settings of the remote-labeling bench. */
export interface RemoteLabelOptions extends BenchOptions {
  /** Server latency per request, ms. */
  latencyMs?: number;
  /** Requests the server works on at once. */
  maxConcurrent?: number;
  /** Prompts of the dev split to make questions from (200 = all). */
  prompts?: number;
}

interface Pass {
  name: string;
  requests: number;
  seconds: number;
  rate: number;
  peakActive: number;
  failures: number;
}

function labelConfig(prompts: string, db: string, baseUrl: string, maxInFlight: number): unknown {
  return {
    prompts,
    db,
    label: {
      backend: {
        type: 'openai',
        model: 'shapes-labeler',
        base_urls: [baseUrl],
        max_in_flight: maxInFlight,
        max_retries: 2,
        min_backoff_ms: 50,
        max_backoff_ms: 500,
      },
    },
  };
}

/** Sends `n` label requests at once straight to the server, so every worker has loaded the model before timing. */
async function warmUp(server: TestServer, n: number): Promise<void> {
  const first = JSON.parse(readFileSync(DEV_PROMPTS, 'utf8').split('\n')[0]!) as { image: string };
  const png = readFileSync(path.resolve(path.dirname(DEV_PROMPTS), first.image)).toString('base64');
  const body = (i: number) =>
    JSON.stringify({
      model: 'shapes-labeler',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }, { type: 'text', text: `Is there a circle ${i}? Please answer yes or no.` }] }],
      max_tokens: 1,
      temperature: 0,
      logprobs: true,
      top_logprobs: 20,
    });
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const r = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(i) });
      if (!r.ok) throw new Error(`warm-up request: HTTP ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    }),
  );
}

function readLabelRun(db: string): { seconds: number; labels: number; failures: number; requests: number } {
  const h = new Database(db, { readonly: true });
  try {
    const s = h.prepare(`SELECT seconds FROM stage_runs WHERE stage = 'label' ORDER BY id DESC LIMIT 1`).get() as { seconds: number };
    const labels = (h.prepare(`SELECT count(*) AS n FROM labels`).get() as { n: number }).n;
    const failures = (h.prepare(`SELECT count(*) AS n FROM failures WHERE stage = 'label'`).get() as { n: number }).n;
    const usage = h.prepare(`SELECT coalesce(sum(requests), 0) AS n FROM usage WHERE stage = 'label'`).get() as { n: number };
    return { seconds: s.seconds, labels, failures, requests: usage.n };
  } finally {
    h.close();
  }
}

/** Runs figure 2. */
export async function benchRemoteLabel(opts: RemoteLabelOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const L = opts.latencyMs ?? 250;
  const C = opts.maxConcurrent ?? 16;
  const nPrompts = opts.prompts ?? (opts.quick ? 40 : 200);
  const tmp = tempDir('remote');
  let server: TestServer | null = null;
  try {
    // Questions to label: a round's answers (local policy) divided by the rules divider, labels still to do.
    const base = path.join(tmp.dir, 'base.sqlite');
    const prepCfg = writeConfig(tmp.dir, 'prep.json', labelConfig(DEV_PROMPTS, base, 'http://127.0.0.1:9/v1', C));
    log(`remote-label: generating and dividing ${nPrompts} dev prompts × 10 samples (local)`);
    await runCliOk(['generate', '--config', prepCfg, '--limit', String(nPrompts), '--quiet']);
    await runCliOk(['divide', '--config', prepCfg, '--quiet']);

    server = await TestServer.start({ maxLogprobs: 20 });
    await warmUp(server, 4 * server.pool.size.workers);
    const srv = server;

    const pass = async (name: string, latencyMs: number, maxConcurrent: number, inFlight: number): Promise<Pass> => {
      srv.latencyMs = latencyMs;
      srv.maxConcurrent = maxConcurrent;
      srv.stats.peakActive = 0;
      const served0 = srv.stats.served;
      const db = path.join(tmp.dir, `${name}.sqlite`);
      copyFileSync(base, db);
      const cfg = writeConfig(tmp.dir, `${name}.json`, labelConfig(DEV_PROMPTS, db, srv.url, inFlight));
      log(`remote-label: pass ${name} (L ${latencyMs} ms, C ${maxConcurrent || '∞'}, max_in_flight ${inFlight})`);
      await runCliOk(['label', '--config', cfg, '--quiet']);
      const r = readLabelRun(db);
      const requests = srv.stats.served - served0;
      if (requests === 0 || r.labels === 0) throw new Error(`remote-label: pass ${name} labeled nothing (${requests} requests, ${r.labels} labels)`);
      return { name, requests, seconds: r.seconds, rate: requests / r.seconds, peakActive: srv.stats.peakActive, failures: r.failures };
    };

    // What the machine computes and answers per second with no added latency (client and server share the cores).
    const cal = await pass('calibration', 0, C, C);
    const capacity = C / (L / 1000);
    const main = await pass('main', L, C, C);
    const deep = await pass('deep', L, C, 2 * C);

    const rows: Row[] = [];
    const headroom = cal.rate / capacity;
    const note = `C=${C}, L=${L} ms, ${main.requests} requests`;
    rows.push(
      checked('remote labeling: achieved ÷ server capacity (max_in_flight = C)', round((100 * main.rate) / capacity, 1), '%', '>=', 95,
        `${round(main.rate, 1)} of ${round(capacity, 1)} req/s; ${note}; peak at server ${main.peakActive}`),
      checked('remote labeling: achieved ÷ server capacity (max_in_flight = 2C)', round((100 * deep.rate) / capacity, 1), '%', '>=', 95,
        `${round(deep.rate, 1)} of ${round(capacity, 1)} req/s; ${note}; peak at server ${deep.peakActive}`),
      info('remote labeling: compute-bound rate (L = 0) ÷ capacity C/L', round(headroom, 2), '×',
        `${round(cal.rate, 1)} req/s with no added latency; ${headroom < 1.5 ? 'TOO LOW: the tiny model\'s compute, not rlaifv, may limit the figure above' : 'the model\'s compute is not the bottleneck'}`),
    );
    const fails = cal.failures + main.failures + deep.failures;
    if (fails) rows.push(info('remote labeling: label failures', fails, 'questions', 'should be 0'));
    return { rows };
  } finally {
    // The test server removes the folder of images it was sent when it closes.
    if (server) await server.close();
    tmp.cleanup();
  }
}
