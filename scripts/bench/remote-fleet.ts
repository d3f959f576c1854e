// Figure 9: one rlaifv process against K served endpoints.
//
// Real rounds run one client against many endpoints. K simulated endpoints (scripts/bench/fleet-sim.mjs, a process of
// their own) each admit C requests at once and hold each for L ms, answering canned completions with no model work, so
// the client is what is measured. The client is the built `rlaifv generate` with the policy on all K base URLs
// (max_in_flight C each): achieved requests/s over the generate stage ÷ capacity K·C/L, the client's CPU per 1,000
// requests, its peak RSS, and the simulator's own CPU (both processes share the machine's cores).
//
// The stage's figure includes its ends: before the first request leaves, the client opens K × max_in_flight
// connections and builds that many requests at once (0.1 s at K = 16, 0.8 s at K = 128 with 2C), and the slots empty
// unevenly over the last wave. So the simulator's own count of answers per 100 ms also gives the steady-state rate of
// the stage's middle (what a long round holds); that and the client's event-loop utilisation name the cause where a K
// falls below 95%. The dev images are ~4 KB: per-byte costs of real images (base64 in every request) are not in this.
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
  /** The longest one endpoint's FIFO queue got. */
  peakQueued: number;
  /** Slot time really held, summed (L plus the simulator's timer lateness). */
  holdMs: number;
  /** Epoch ms of the first chat request's arrival and of the last answer. */
  firstArrivalAt: number;
  lastAnswerAt: number;
  cpuSeconds: number;
  wallSeconds: number;
  bucketMs: number;
  /** [bucket, answers completed in it], bucket = floor(epoch ms / bucketMs). */
  completions: [number, number][];
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
 * A hook the client process loads (NODE_OPTIONS --import): its peak RSS, and its CPU time and main-thread event-loop
 * busy time sampled every 100 ms, so both can be read off for the generate stage alone (not start-up and reading the
 * prompts); written as it exits. CPU can exceed one core (GC and libuv threads); the event loop cannot, so its
 * utilisation is what says whether the one JavaScript thread is the limit.
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
      '  const busy = () => performance.eventLoopUtilization().active / 1000;',
      '  const sample = () => [Date.now(), cpu(), busy()];',
      '  const samples = [sample()];',
      '  setInterval(() => samples.push(sample()), 100).unref();',
      "  process.on('exit', () => {",
      '    samples.push(sample());',
      '    fs.writeFileSync(process.env.RLAIFV_BENCH_USAGE, JSON.stringify({ cpuSeconds: cpu(), maxRssBytes: process.resourceUsage().maxRSS * 1024, samples }));',
      '  });',
      '}',
      '',
    ].join('\n'),
  );
  return file;
}

/** A hook sample: [epoch ms, CPU seconds, event-loop busy seconds], each cumulative. */
type Sample = [number, number, number];

/** How much of column `col` (1 CPU, 2 event loop) was used between two times (epoch ms); linear between samples. */
function usedBetween(samples: Sample[], col: 1 | 2, from: number, to: number): number {
  const at = (t: number): number => {
    if (t <= samples[0]![0]) return samples[0]![col];
    for (let i = 1; i < samples.length; i++) {
      const s1 = samples[i]!;
      if (t <= s1[0]) {
        const s0 = samples[i - 1]!;
        return s0[col] + ((s1[col] - s0[col]) * (t - s0[0])) / Math.max(1, s1[0] - s0[0]);
      }
    }
    return samples.at(-1)![col];
  };
  return at(to) - at(from);
}

/**
 * Answers per second over the middle of the run, from the simulator's 100 ms counts: a fifth of the span between the
 * first and last answer is left off each end (the ramp-up and the drain), so this is the rate a long run holds.
 */
function steadyRate(s: SimStats): { rate: number; seconds: number } {
  const keys = s.completions.map(([b]) => b);
  const first = Math.min(...keys);
  const last = Math.max(...keys);
  const trim = Math.max(1, Math.floor((last - first + 1) / 5));
  const [from, to] = [first + trim, last - trim];
  const n = s.completions.reduce((a, [b, c]) => (b >= from && b <= to ? a + c : a), 0);
  const seconds = ((to - from + 1) * s.bucketMs) / 1000;
  return { rate: n / seconds, seconds };
}

interface Pass {
  k: number;
  /** Slots per endpoint (C). */
  slots: number;
  inFlight: number;
  requests: number;
  seconds: number;
  rate: number;
  capacity: number;
  /** Answers per second in the stage's steady middle (simulator's count), and over how many seconds. */
  steady: number;
  steadySeconds: number;
  /** Client CPU seconds during the generate stage (all its threads). */
  clientCpu: number;
  /** Share of the stage the client's event loop was busy (0..1). */
  clientElu: number;
  clientRssMb: number;
  simCpu: number;
  simServed: number;
  simPeakQueued: number;
  /** Mean time a request really held its slot in the simulator, ms (L plus timer lateness). */
  simHoldMs: number;
  /** From the stage's start to the first request reaching the simulator, ms (start-up inside the stage). */
  rampMs: number;
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
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuSeconds: number; maxRssBytes: number; samples: Sample[] };
    const h = new Database(db, { readonly: true });
    const stage = h.prepare(`SELECT items, seconds, started_at FROM stage_runs WHERE stage = 'generate' ORDER BY id DESC LIMIT 1`).get() as { items: number; seconds: number; started_at: string };
    const failures = (h.prepare(`SELECT count(*) AS n FROM failures`).get() as { n: number }).n;
    h.close();
    if (stage.items !== prompts * samples || failures) throw new Error(`remote-fleet: K=${k}: ${stage.items} answers, ${failures} failures`);
    // The simulator is fresh per pass, so every answer it gave went to this stage: fewer than the stage stored would
    // mean the stage's count is wrong; more would be retries (none are expected, and they would show here).
    const simServed = sim1.served - sim0.served;
    if (simServed < stage.items) throw new Error(`remote-fleet: K=${k}: the simulator answered ${simServed} requests, the stage stored ${stage.items}`);
    // stage_runs.started_at is taken before the backend's preflight (GET /models on every endpoint), which the
    // stage's seconds leave out; the stage ends when its last answer is stored, a few ms after the simulator sent it.
    // So the stage's window, for the client's CPU, ends at the last answer and lasts the stage's seconds.
    const to = sim1.lastAnswerAt;
    const from = to - stage.seconds * 1000;
    const steady = steadyRate(sim1);
    return {
      k,
      slots: c,
      inFlight,
      requests: stage.items,
      seconds: stage.seconds,
      rate: stage.items / stage.seconds,
      capacity,
      steady: steady.rate,
      steadySeconds: steady.seconds,
      clientCpu: usedBetween(usage.samples, 1, from, to),
      clientElu: usedBetween(usage.samples, 2, from, to) / stage.seconds,
      clientRssMb: usage.maxRssBytes / 2 ** 20,
      simCpu: sim1.cpuSeconds - sim0.cpuSeconds,
      simServed,
      simPeakQueued: sim1.peakQueued,
      simHoldMs: sim1.holdMs / Math.max(1, sim1.served),
      rampMs: sim1.firstArrivalAt - from,
      wall: run.seconds,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

/** Why a pass fell below 95%: the first of these that applies, each from what was measured during its stage. */
function cause(p: Pass, l: number): string {
  const pct = (x: number) => `${round(100 * x, 0)}%`;
  const clientCore = p.clientCpu / p.seconds;
  const simCore = p.simCpu / p.seconds;
  const cores = os.availableParallelism();
  const seen = `client event loop busy ${pct(p.clientElu)} of the stage, client CPU ${pct(clientCore)} of a core, simulator ${pct(simCore)}`;
  if (p.clientElu >= 0.85) return `the client's event loop, its one JavaScript thread (${seen})`;
  if (simCore >= 0.85) return `the simulator, not the client (${seen})`;
  if (clientCore + simCore >= 0.85 * cores) return `the machine's ${cores} cores, shared by the two processes (${seen})`;
  if (round((100 * p.steady) / p.capacity, 1) >= 95) {
    return (
      `the stage's ends, not its rate: its steady middle held ${pct(p.steady / p.capacity)}; the first request reached the simulator ` +
      `${round(p.rampMs, 0)} ms into the ${round(p.seconds, 1)} s stage, the slots fill over the first wave and empty unevenly over the last (${seen})`
    );
  }
  // Each of the K·C slots cycles through L held at the simulator and the time between its answer and its next
  // request, so a slot's cycle is L × capacity ÷ the steady rate.
  const cycleMs = (l * p.capacity) / p.steady;
  if (p.inFlight > p.slots) {
    return (
      `slots idle though requests may wait at each endpoint (max_in_flight ${p.inFlight} > C ${p.slots}), without a CPU at its limit (${seen}): ` +
      `a slot cycled every ${round(cycleMs, 1)} ms for ${round(p.simHoldMs, 1)} ms held, so the client did not keep the queues filled`
    );
  }
  return (
    `turnaround, not CPU (${seen}): in the steady middle a slot cycled every ${round(cycleMs, 1)} ms, ${round(p.simHoldMs, 1)} ms held ` +
    `(L ${l} ms), so ${round(cycleMs - p.simHoldMs, 1)} ms per request passed between an answer leaving the simulator and the slot's next request ` +
    `reaching it (both event loops' queues, the client's handling); a request waiting in each endpoint's queue (max_in_flight above C) hides it`
  );
}

/**
 * The largest K that held 95% with every smaller K holding too, and what stopped the first that did not: once by the
 * stage's figure (the target's), once by its steady middle (what a long run holds: where one process saturates).
 */
function saturation(passes: Pass[], depth: string, l: number): Row[] {
  const measures: [string, (p: Pass) => number][] = [
    ['over the stage', (p) => p.rate],
    ['in the steady middle', (p) => p.steady],
  ];
  return measures.map(([how, rate]) => {
    // Judged on the share as shown (one decimal), as the target row is.
    const first = passes.find((p) => round((100 * rate(p)) / p.capacity, 1) < 95);
    const largest = Math.max(0, ...passes.filter((p) => !first || p.k < first.k).map((p) => p.k));
    const note = first
      ? `first below: K=${first.k} (${round((100 * rate(first)) / first.capacity, 1)}%, ${round(rate(first), 0)} req/s); cause: ${cause(first, l)}`
      : `every K run held 95% (the largest run: ${largest})`;
    return info(`largest K holding ≥ 95% ${how} (max_in_flight ${depth})`, largest, 'endpoints', note);
  });
}

/** The five rows of one pass. */
function passRows(p: Pass, depth: string, target: boolean): Row[] {
  const name = `K=${p.k}, max_in_flight ${depth}`;
  const share = round((100 * p.rate) / p.capacity, 1);
  const shareNote =
    `of K·C/L = ${round(p.capacity, 0)} req/s; steady middle (${round(p.steadySeconds, 1)} s, simulator's count) ${round((100 * p.steady) / p.capacity, 1)}%; ` +
    `slots held ${round(p.simHoldMs, 1)} ms on average; longest endpoint queue ${p.simPeakQueued}`;
  const core = (cpu: number) => `${round((100 * cpu) / p.seconds, 0)}% of a core during the stage`;
  return [
    info(`${name}: achieved requests/s`, round(p.rate, 0), 'req/s',
      `${p.requests} answers over the generate stage's ${round(p.seconds, 1)} s; the simulator answered ${p.simServed}, ${round(p.steady, 0)}/s in the steady middle; ` +
        `first request ${round(p.rampMs, 0)} ms into the stage`),
    target ? checked(`${name}: achieved ÷ capacity`, share, '%', '>=', 95, shareNote) : info(`${name}: achieved ÷ capacity`, share, '%', shareNote),
    info(`${name}: client CPU per 1,000 requests`, round((1000 * p.clientCpu) / p.requests, 3), 's',
      `${core(p.clientCpu)}; its event loop busy ${round(100 * p.clientElu, 0)}% of the stage`),
    info(`${name}: simulator CPU per 1,000 requests`, round((1000 * p.simCpu) / p.requests, 3), 's', core(p.simCpu)),
    info(`${name}: client peak RSS`, round(p.clientRssMb, 0), 'MB'),
  ];
}

/** Runs figure 9. */
export async function benchRemoteFleet(opts: FleetOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const c = opts.slots ?? 16;
  const l = opts.latencyMs ?? 250;
  // Finer steps (24, 96) where a depth's 95% is lost, so the largest K that holds is measured, not bracketed wide.
  const ks = opts.ks ?? (opts.quick ? [4, 16] : [4, 16, 24, 32, 64]);
  const deepKs = opts.quick ? [16] : [16, 64, 96, 128];
  // 8 s even when quick, for a steady middle of ~5 s. The stage's ends (~0.3 s at K = 16) still cost a short stage's
  // figure ~4%, so the quick run's target row can miss where the full run's 15 s stages hold it.
  const seconds = opts.seconds ?? (opts.quick ? 8 : 15);
  const tmp = tempDir('fleet');
  try {
    const hook = usageHook(tmp.dir);
    const rows: Row[] = [];
    // max_in_flight C keeps exactly the server's slots busy, so every request's turnaround is a slot idle; 2C keeps
    // one request waiting in each slot's queue (as a server queues them), which hides it.
    for (const depth of [1, 2]) {
      const passes: Pass[] = [];
      const shown = depth === 1 ? 'C' : '2C';
      for (const k of depth === 1 ? ks : deepKs) {
        const p = await pass(tmp.dir, hook, k, c, l, seconds, depth * c, log);
        passes.push(p);
        rows.push(...passRows(p, shown, k === 16 && depth === 1));
      }
      rows.push(...saturation(passes, shown, l));
    }
    return { rows };
  } finally {
    tmp.cleanup();
  }
}
