#!/usr/bin/env node
// K simulated OpenAI-compatible endpoints for the remote-fleet bench, in their own process (so they do not share the
// client's event loop). Each endpoint admits C requests at once, the rest wait in arrival order (as a server's
// scheduler makes requests wait), holds each for L ms and answers a canned chat completion: no model work, so the
// client is what is measured. It reads and parses every request body as a server does (they carry an image).
//
//   node scripts/bench/fleet-sim.mjs --endpoints K --slots C --latency-ms L
// Prints {"ports": [...]} on its first stdout line when listening; GET /stats on any port gives its counters, its own
// CPU time and the answers it completed per 100 ms (epoch-aligned buckets, so the bench can read a steady-state rate
// off the middle of a run, free of the ramp-up and the drain at its ends); SIGTERM ends it.
import http from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const K = arg('--endpoints', 4);
const C = arg('--slots', 16);
const L = arg('--latency-ms', 250);

const ANSWERS = [
  'There is a red circle in the top left. There is a blue square in the center.',
  'The image shows two shapes: a green triangle and a yellow star.',
  'There are three shapes. The large purple circle is on the right.',
  'There is a small orange square at the bottom.',
];
const BUCKET_MS = 100;
// holdMs sums how long slots were really held: a timer fires late when this process is busy, which lengthens L.
// firstArrivalAt and lastAnswerAt (epoch ms) bound the client's stage as seen from here.
const stats = {
  requests: 0, served: 0, peakActive: 0, peakQueued: 0, holdMs: 0, bodyBytes: 0,
  firstArrivalAt: 0, lastAnswerAt: 0, started: performance.now(),
};
/** Answers completed per BUCKET_MS, keyed by Math.floor(Date.now() / BUCKET_MS). */
const completions = new Map();

/**
 * A labeler's request (logprobs with top_logprobs, one token: what rlaifv's served labeler sends) gets a one-token
 * "Yes" or "No" with its top tokens, in the shape of OpenAI's chat completion logprobs as vLLM returns them
 * (vllm/entrypoints/openai/protocol.py: ChatCompletionLogProbs.content[i] = {token, logprob, bytes, top_logprobs}).
 * The verdict is a fixed function of the question text, so a run is repeatable; other requests get null.
 */
function labelAnswer(body) {
  if (body.logprobs !== true || !body.top_logprobs) return null;
  const last = body.messages?.at(-1)?.content;
  const text = Array.isArray(last) ? last.map((p) => p.text ?? '').join(' ') : String(last ?? '');
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  const yes = h % 3 !== 0;
  const top = (token, p) => ({ token, logprob: Math.log(p), bytes: [...Buffer.from(token)] });
  const first = yes ? [top('Yes', 0.9), top('No', 0.08)] : [top('No', 0.85), top('Yes', 0.12)];
  const tokens = [...first, top('yes', 0.01), top('no', 0.005)].slice(0, Math.max(2, Number(body.top_logprobs)));
  return { content: tokens[0].token, logprobs: { content: [{ ...tokens[0], top_logprobs: tokens }] } };
}

function endpoint() {
  let active = 0;
  const queue = [];
  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next();
  };
  const slot = () =>
    new Promise((resolve) => {
      const go = () => {
        active++;
        if (active > stats.peakActive) stats.peakActive = active;
        resolve();
      };
      if (active < C) go();
      else {
        queue.push(go);
        // The longest any one endpoint's queue got: 0 means the client never sent more than C to an endpoint.
        if (queue.length > stats.peakQueued) stats.peakQueued = queue.length;
      }
    });
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks);
    stats.bodyBytes += raw.length;
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'sim-policy', object: 'model', owned_by: 'vllm', root: 'sim', parent: null }] }));
    }
    if (req.method === 'GET' && req.url === '/stats') {
      const cpu = process.cpuUsage();
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          ...stats,
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          wallSeconds: (performance.now() - stats.started) / 1000,
          bucketMs: BUCKET_MS,
          completions: [...completions],
        }),
      );
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"detail":"Not Found"}');
    }
    let body;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'JSON decode error', type: 'BadRequestError', code: 400 } }));
    }
    if (stats.requests++ === 0) stats.firstArrivalAt = Date.now();
    await slot();
    const held = performance.now();
    await new Promise((r) => setTimeout(r, L));
    stats.holdMs += performance.now() - held;
    release();
    const label = labelAnswer(body);
    const content = label ? label.content : ANSWERS[(Number(body.seed) >>> 0) % ANSWERS.length];
    stats.served++;
    stats.lastAnswerAt = Date.now();
    const b = Math.floor(stats.lastAnswerAt / BUCKET_MS);
    completions.set(b, (completions.get(b) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${stats.served}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: label ? 'length' : 'stop', logprobs: label ? label.logprobs : null }],
        usage: { prompt_tokens: 600, completion_tokens: 20, total_tokens: 620 },
      }),
    );
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

const ports = await Promise.all(Array.from({ length: K }, () => endpoint()));
process.stdout.write(JSON.stringify({ ports }) + '\n');
process.on('SIGTERM', () => process.exit(0));
