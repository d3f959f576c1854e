// Figure 9: one rlaifv process against K served endpoints.
//
// Real rounds run one client against many endpoints. K simulated endpoints (scripts/bench/fleet-sim.mjs, a process of
// their own) each admit C requests at once and hold each for L ms, answering canned completions with no model work, so
// the client is what is measured. The client is the built `rlaifv generate` with the policy on all K base URLs
// (max_in_flight C each): achieved requests/s over the generate stage ÷ capacity K·C/L, the client's CPU per 1,000
// requests, its peak RSS, and the simulator's own CPU (both processes share the machine's cores).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, checked, info, repeatedPrompts, round, runCliOk, tempDir, writeConfig, type BenchOptions, type BenchResult, type Row } from './common.js';

/** Settings of the fleet bench. */
export interface FleetOptions extends BenchOptions {
  /** Endpoint counts to run. */
  ks?: number[];
  /** Slots per endpoint. */
  slots?: number;
  /** Latency per request, ms. */
  latencyMs?: number;
  /** Seconds of requests each K is given at full capacity. */
  seconds?: number;
}

interface SimStats {
  requests: number;
  served: number;
  peakActive: number;
  cpuSeconds: number;
  wallSeconds: number;
}

/** Starts the simulator; resolves with its ports once it listens. */
async function startSim(k: number, c: number, l: number): Promise<{ child: ChildProcess; ports: number[] }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench', 'fleet-sim.mjs'), '--endpoints', String(k), '--slots', String(c), '--latency-ms', String(l)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fleet-sim exited ${code} before listening`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { child, ports: (JSON.parse(first) as { ports: number[] }).ports };
}

async function simStats(port: number): Promise<SimStats> {
  const r = await fetch(`http://127.0.0.1:${port}/stats`);
  return (await r.json()) as SimStats;
}

/**
 * A hook the client process loads (NODE_OPTIONS --import): its peak RSS, and its CPU time sampled every 100 ms, so
 * the CPU of the generate stage alone (not start-up and reading the prompts) can be read off; written as it exits.
 */
function usageHook(dir: string): string {
  const file = path.join(dir, 'usage-hook.mjs');
  writeFileSync(
    file,
    [
      "import fs from 'node:fs';",
      "import { isMainThread } from 'node:worker_threads';",
      // Worker threads load the hook too; the process's CPU and RSS cover them, so only the main thread records.
      'if (isMainThread) {',
      '  const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };',
      '  const samples = [[Date.now(), cpu()]];',
      '  setInterval(() => samples.push([Date.now(), cpu()]), 100).unref();',
      "  process.on('exit', () => {",
      '    samples.push([Date.now(), cpu()]);',
      '    fs.writeFileSync(process.env.RLAIFV_BENCH_USAGE, JSON.stringify({ cpuSeconds: cpu(), maxRssBytes: process.resourceUsage().maxRSS * 1024, samples }));',
      '  });',
      '}',
      '',
    ].join('\n'),
  );
  return file;
}

/** CPU seconds used between two times (epoch ms), from the hook's samples (linear between samples). */
function cpuBetween(samples: [number, number][], from: number, to: number): number {
  const at = (t: number): number => {
    if (t <= samples[0]![0]) return samples[0]![1];
    for (let i = 1; i < samples.length; i++) {
      const [t1, c1] = samples[i]!;
      if (t <= t1) {
        const [t0, c0] = samples[i - 1]!;
        return c0 + ((c1 - c0) * (t - t0)) / Math.max(1, t1 - t0);
      }
    }
    return samples.at(-1)![1];
  };
  return at(to) - at(from);
}

interface Pass {
  k: number;
  inFlight: number;
  requests: number;
  seconds: number;
  rate: number;
  capacity: number;
  /** Client CPU seconds during the generate stage. */
  clientCpu: number;
  clientRssMb: number;
  simCpu: number;
  simPeak: number;
  wall: number;
}

async function pass(dir: string, hook: string, k: number, c: number, l: number, seconds: number, inFlight: number, log: (m: string) => void): Promise<Pass> {
  const capacity = (k * c) / (l / 1000);
  const requests = Math.max(2000, Math.round(capacity * seconds));
  const samples = 10;
  const prompts = Math.ceil(requests / samples);
  const { child, ports } = await startSim(k, c, l);
  try {
    const db = path.join(dir, `fleet-${k}-${inFlight}.sqlite`);
    const cfg = writeConfig(dir, `fleet-${k}-${inFlight}.json`, {
      prompts: repeatedPrompts(dir, prompts),
      db,
      generate: {
        samples,
        max_new_tokens: 64,
        backend: {
          type: 'openai', model: 'sim-policy', base_urls: ports.map((p) => `http://127.0.0.1:${p}/v1`),
          max_in_flight: inFlight, timeout_ms: 60_000, max_retries: 2, min_backoff_ms: 50, max_backoff_ms: 500,
        },
      },
    });
    const usageFile = path.join(dir, `usage-${k}.json`);
    log(`remote-fleet: K=${k} (capacity ${round(capacity, 0)} req/s), max_in_flight ${inFlight}: ${prompts} prompts × ${samples}`);
    const sim0 = await simStats(ports[0]!);
    const run = await runCliOk(['generate', '--config', cfg, '--quiet'], {
      env: { NODE_OPTIONS: `--import=${hook}`, RLAIFV_BENCH_USAGE: usageFile },
    });
    const sim1 = await simStats(ports[0]!);
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuSeconds: number; maxRssBytes: number; samples: [number, number][] };
    const h = new Database(db, { readonly: true });
    const stage = h.prepare(`SELECT items, seconds, started_at FROM stage_runs WHERE stage = 'generate' ORDER BY id DESC LIMIT 1`).get() as { items: number; seconds: number; started_at: string };
    const failures = (h.prepare(`SELECT count(*) AS n FROM failures`).get() as { n: number }).n;
    h.close();
    if (stage.items !== prompts * samples || failures) throw new Error(`remote-fleet: K=${k}: ${stage.items} answers, ${failures} failures`);
    return {
      k,
      inFlight,
      requests: stage.items,
      seconds: stage.seconds,
      rate: stage.items / stage.seconds,
      capacity,
      clientCpu: cpuBetween(usage.samples, Date.parse(stage.started_at), Date.parse(stage.started_at) + stage.seconds * 1000),
      clientRssMb: usage.maxRssBytes / 2 ** 20,
      simCpu: sim1.cpuSeconds - sim0.cpuSeconds,
      simPeak: sim1.peakActive,
      wall: run.seconds,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The largest K that held 95%, and what stopped the first that did not. */
function saturation(passes: Pass[], depth: string): Row {
  const holding = passes.filter((p) => p.rate / p.capacity >= 0.95).map((p) => p.k);
  const largest = holding.length ? Math.max(...holding) : 0;
  const first = passes.find((p) => p.rate / p.capacity < 0.95);
  let cause = 'every K run held 95%';
  if (first) {
    const clientCore = first.clientCpu / first.seconds;
    const simCore = first.simCpu / first.seconds;
    cause =
      clientCore > 0.85
        ? `client CPU (${round(100 * clientCore, 0)}% of a core during the stage: its event loop is busy)`
        : simCore > 0.85
          ? `the simulator (${round(100 * simCore, 0)}% of a core) sharing the ${os.availableParallelism()} cores`
          : `turnaround, not CPU (client ${round(100 * clientCore, 0)}%, simulator ${round(100 * simCore, 0)}% of a core): a slot is idle while its answer is handled and the next request sent`;
  }
  return info(`largest K holding ≥ 95% (max_in_flight ${depth})`, largest, 'endpoints', first ? `first below: K=${first.k}; cause: ${cause}` : cause);
}

/** Runs figure 9. */
export async function benchRemoteFleet(opts: FleetOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const c = opts.slots ?? 16;
  const l = opts.latencyMs ?? 250;
  const ks = opts.ks ?? (opts.quick ? [4, 16] : [4, 16, 32, 64]);
  const deepKs = opts.quick ? [16] : [16, 64, 128];
  const seconds = opts.seconds ?? (opts.quick ? 3 : 15);
  const tmp = tempDir('fleet');
  try {
    const hook = usageHook(tmp.dir);
    const rows: Row[] = [];
    // max_in_flight C keeps exactly the server's slots busy, so every request's turnaround in the client is a slot
    // idle; 2C keeps one request waiting in each slot's queue (as a server queues them), which hides it.
    for (const depth of [1, 2]) {
      const passes: Pass[] = [];
      for (const k of depth === 1 ? ks : deepKs) {
        const p = await pass(tmp.dir, hook, k, c, l, seconds, depth * c, log);
        passes.push(p);
        const share = (100 * p.rate) / p.capacity;
        const name = `K=${k}, max_in_flight ${depth === 1 ? 'C' : '2C'}`;
        const note =
          `${round(p.rate, 0)} of ${round(p.capacity, 0)} req/s over ${round(p.seconds, 1)} s (${p.requests} requests); ` +
          `during the stage the client used ${round((100 * p.clientCpu) / p.seconds, 0)}% of a core, the simulator ${round((100 * p.simCpu) / p.seconds, 0)}%`;
        rows.push(
          k === 16 && depth === 1 ? checked(`${name}: achieved ÷ capacity`, round(share, 1), '%', '>=', 95, note) : info(`${name}: achieved ÷ capacity`, round(share, 1), '%', note),
          info(`${name}: client CPU per 1,000 requests`, round((1000 * p.clientCpu) / p.requests, 3), 's', `during the generate stage; simulator: ${round((1000 * p.simCpu) / p.requests, 3)} s per 1,000`),
          info(`${name}: client peak RSS`, round(p.clientRssMb, 0), 'MB'),
        );
      }
      rows.push(saturation(passes, depth === 1 ? 'C' : '2C'));
    }
    return { rows };
  } finally {
    tmp.cleanup();
  }
}
