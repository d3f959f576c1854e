// A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol and answers with the tiny models
// in models/ through rlaifv's own local backend (worker pool), so the logprobs it sends are real. Its divider model is
// rlaifv's rules divider answering the paper's split and convert prompts. Faults can be injected on demand.
//
// Standalone: npx tsx tests/helpers/openai-server.ts [--port 8000] [--latency-ms 0] [--max-concurrent 0]
import http from 'node:http';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerPool } from '../../src/backends/local/pool.js';
import type { ConversationLogprobs, TopResult } from '../../src/backends/local/local.worker.js';
import { yesNoFromTopLogprobs } from '../../src/feedback/yes-no.js';
import { pairConfidence, rejectProbability } from '../../src/feedback/gate.js';
import type { GenerateResult, DivideOutput, Turn } from '../../src/backends/types.js';
import { claimToQuestion } from '../../src/divide/question.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A fault to inject into the next matching responses. */
export type FaultKind = '429' | '500' | 'malformed' | 'drop' | 'nologprobs' | 'hang' | 'short' | 'garbage';
// 'short' drops the last bullet of a divider answer and 'garbage' replaces it with prose: faults of an LLM divider that
// the rules divider behind this server never makes, so they are injected.
export interface Fault {
  kind: FaultKind;
  /** How many matching requests get it. */
  times: number;
  /** Only requests for this model. */
  model?: string;
  /** Only requests whose JSON body contains this text. */
  match?: string;
  /** For 429: the Retry-After header, in seconds. */
  retryAfter?: number;
}

/** What a served model is: a vision model folder, or the rules divider as a text "LLM". */
export type ServedModel = { kind: 'vlm'; dir: string } | { kind: 'divider' } | { kind: 'judge'; dir: string };

export interface ServerOptions {
  models?: Record<string, ServedModel>;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Like vLLM's --max-logprobs. */
  maxLogprobs?: number;
  /**
   * `prompt_logprobs` (vLLM's extra field: the prompt tokens' log-probs): 'yes' returns them as vLLM does (the
   * default), 'ignore' answers as if the field were not there (a server that drops unknown fields), 'refuse' rejects
   * the request as OpenAI's API does.
   */
  promptLogprobs?: 'yes' | 'ignore' | 'refuse';
  /** Added to every response (ms). */
  latencyMs?: number;
  /** At most this many requests are worked on at once; the rest queue (0 = no limit). */
  maxConcurrent?: number;
  /** Worker threads for the models. */
  workers?: number;
  /** Share another server's worker pool (two endpoints, one set of models in memory). */
  pool?: WorkerPool;
  port?: number;
}

/** The default served models: the two tiny models of models/ and the rules divider. */
export const DEFAULT_MODELS: Record<string, ServedModel> = {
  'shapes-policy': { kind: 'vlm', dir: path.join(ROOT, 'models', 'shapes-policy') },
  'shapes-labeler': { kind: 'vlm', dir: path.join(ROOT, 'models', 'shapes-labeler') },
  'rules-divider': { kind: 'divider' },
};

/** A generative judge for the holistic rubric prompts and Anyprefer's pair prompt (see TestServer.judge), served when a test asks for it. */
export const RUBRIC_JUDGE: Record<string, ServedModel> = { 'rubric-judge': { kind: 'judge', dir: path.join(ROOT, 'models', 'shapes-labeler') } };

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'BadRequestError',
  ) {
    super(message);
  }
}

/** A running test server. */
export class TestServer {
  readonly faults: Fault[] = [];
  /** Counters: requests seen (by model), faults injected (by kind), peak requests being worked on at once. */
  readonly stats = { requests: 0, byModel: {} as Record<string, number>, injected: {} as Record<string, number>, peakActive: 0, served: 0 };
  latencyMs: number;
  maxConcurrent: number;
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly imgDir: string;
  private readonly hanging = new Set<http.ServerResponse>();
  private readonly questionOf = new Map<string, string>();

  private constructor(
    private readonly server: http.Server,
    readonly pool: WorkerPool,
    readonly opts: Required<Pick<ServerOptions, 'models' | 'maxLogprobs'>> & ServerOptions,
  ) {
    this.latencyMs = opts.latencyMs ?? 0;
    this.maxConcurrent = opts.maxConcurrent ?? 0;
    this.imgDir = path.join(os.tmpdir(), `rlaifv-test-server-${process.pid}`);
    mkdirSync(this.imgDir, { recursive: true });
  }

  /** Starts a server on 127.0.0.1 (a free port unless one is given). */
  static async start(opts: ServerOptions = {}): Promise<TestServer> {
    const server = http.createServer();
    server.keepAliveTimeout = 30_000;
    const pool = opts.pool ?? new WorkerPool(opts.workers ?? null);
    const s = new TestServer(server, pool, { ...opts, models: { ...(opts.models ?? DEFAULT_MODELS) }, maxLogprobs: opts.maxLogprobs ?? 20 });
    server.on('request', (req, res) => void s.handle(req, res));
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    return s;
  }

  /** The base URL to give a client (ends in /v1). */
  get url(): string {
    const a = this.server.address() as { port: number };
    return `http://127.0.0.1:${a.port}/v1`;
  }

  /**
   * Serves a checkpoint folder under a new name, as vLLM's runtime adapter loading does (POST /v1/load_lora_adapter
   * with {lora_name, lora_path}; vLLM needs VLLM_ALLOW_RUNTIME_LORA_UPDATING=True): the loop's deploy hook calls it.
   */
  private async loadAdapter(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: { lora_name?: unknown; lora_path?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new HttpError(400, 'Request body is not JSON.');
    }
    const name = body.lora_name;
    const dir = body.lora_path;
    if (typeof name !== 'string' || !name || typeof dir !== 'string' || !dir) throw new HttpError(400, 'lora_name and lora_path are required');
    if (!existsSync(path.join(dir, 'config.json'))) throw new HttpError(400, `${dir} is not a model folder (no config.json)`);
    if (this.opts.models[name]) throw new HttpError(400, `The lora adapter '${name}' has already been loaded.`);
    this.opts.models[name] = { kind: 'vlm', dir };
    return `Success: LoRA adapter '${name}' added successfully.`;
  }

  /** Adds a fault for the next `times` matching requests. */
  inject(f: Fault): void {
    this.faults.push({ ...f });
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (!this.opts.pool) await this.pool.close();
  }

  private takeFault(model: string, raw: string): Fault | null {
    const f = this.faults.find((x) => x.times > 0 && (!x.model || x.model === model) && (!x.match || raw.includes(x.match)));
    if (!f) return null;
    f.times--;
    this.stats.injected[f.kind] = (this.stats.injected[f.kind] ?? 0) + 1;
    return f;
  }

  private async slot(): Promise<void> {
    if (this.maxConcurrent > 0 && this.active >= this.maxConcurrent) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    this.stats.peakActive = Math.max(this.stats.peakActive, this.active);
  }

  private free(): void {
    this.active--;
    this.queue.shift()?.();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const fail = (e: HttpError) => send(e.status, { error: { message: e.message, type: e.type, code: e.status } });
    try {
      if (this.opts.apiKey && req.headers.authorization !== `Bearer ${this.opts.apiKey}`) {
        throw new HttpError(401, 'Invalid API key.', 'AuthenticationError');
      }
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        return send(200, { object: 'list', data: Object.keys(this.opts.models).map((id) => ({ id, object: 'model', owned_by: 'rlaifv-tests' })) });
      }
      if (req.method === 'POST' && url.pathname === '/v1/load_lora_adapter') return send(200, await this.loadAdapter(req));
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') throw new HttpError(404, `No route ${req.method} ${url.pathname}`, 'NotFoundError');
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: any;
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        body = JSON.parse(raw);
      } catch {
        throw new HttpError(400, 'Request body is not JSON.');
      }
      this.stats.requests++;
      const model = String(body.model ?? '');
      this.stats.byModel[model] = (this.stats.byModel[model] ?? 0) + 1;
      const served = this.opts.models[model];
      if (!served) throw new HttpError(404, `The model \`${model}\` does not exist.`, 'NotFoundError');
      if (body.logprobs && typeof body.top_logprobs === 'number' && body.top_logprobs > this.opts.maxLogprobs) {
        throw new HttpError(400, `Requested sample logprobs of ${body.top_logprobs}, which is greater than max allowed: ${this.opts.maxLogprobs}`);
      }
      const fault = this.takeFault(model, raw);
      if (fault?.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'hang') {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      if (fault?.kind === '429') return send(429, { error: { message: 'Too many requests', type: 'RateLimitError', code: 429 } }, { 'retry-after': String(fault.retryAfter ?? 1) });
      if (fault?.kind === '500') return send(500, { error: { message: 'Internal server error (injected)', type: 'InternalServerError', code: 500 } });
      await this.slot();
      let out: any;
      const t0 = performance.now();
      try {
        out =
          served.kind === 'vlm'
            ? await this.vlm(served.dir, model, body)
            : served.kind === 'judge'
              ? await this.judge(served.dir, model, body)
              : await this.divider(model, body);
        const wait = this.latencyMs - (performance.now() - t0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      } finally {
        this.free();
      }
      this.stats.served++;
      if (fault?.kind === 'malformed') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(out).slice(0, 40));
      }
      if (fault?.kind === 'nologprobs') for (const c of out.choices) c.logprobs = null;
      if (fault?.kind === 'short') for (const c of out.choices) c.message.content = c.message.content.replace(/\n[^\n]*$/, '');
      if (fault?.kind === 'garbage') for (const c of out.choices) c.message.content = 'I am sorry, I cannot help with that.';
      return send(200, out);
    } catch (e) {
      if (e instanceof HttpError) return fail(e);
      return fail(new HttpError(500, (e as Error).message, 'InternalServerError'));
    }
  }

  /**
   * The conversation of a request: the text of the last user message, the turns before it (text only, as the local
   * policy takes them) and the one image, wherever a user message carries it (a multi-turn client sends it in the first).
   */
  private async userTurn(body: any): Promise<{ image: string | null; text: string; history: Turn[] }> {
    const { image, turns } = await this.turns(body, 'user');
    return { image, text: turns.at(-1)!.content, history: turns.slice(0, -1) };
  }

  /** The turns of a request up to its last user message, or all of them (a last assistant turn too), and its image. */
  private async turns(body: any, upTo: 'user' | 'all'): Promise<{ image: string | null; turns: Turn[] }> {
    const msgs = Array.isArray(body.messages) ? body.messages : [];
    const last = msgs.map((m: any) => m?.role).lastIndexOf('user');
    if (last < 0) throw new HttpError(400, 'messages: no user message');
    let image: string | null = null;
    const turns: Turn[] = [];
    for (const msg of upTo === 'all' ? msgs : msgs.slice(0, last + 1)) {
      if (msg?.role !== 'user' && msg?.role !== 'assistant') throw new HttpError(400, `messages[].role ${msg?.role} is not supported here`);
      const parts = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : msg.content;
      if (!Array.isArray(parts)) throw new HttpError(400, 'messages[].content must be a string or a list of parts');
      let text = '';
      for (const p of parts) {
        if (p?.type === 'text') text += String(p.text ?? '');
        else if (p?.type === 'image_url' && msg.role === 'user') {
          if (image) throw new HttpError(400, 'this server takes one image per conversation');
          image = this.saveDataUrl(String(p.image_url?.url ?? ''));
        } else throw new HttpError(400, `unsupported content part type ${p?.type}`);
      }
      turns.push({ role: msg.role, content: text });
    }
    return { image, turns };
  }

  /**
   * vLLM's `prompt_logprobs`: the whole templated conversation (a last assistant turn included; the generation prompt
   * as `add_generation_prompt` says, default true) with each prompt token's log-prob from the real model, in vLLM's
   * shape (null for the first token, then {token id: {logprob, decoded_token}}). Only prompt_logprobs 0 (the prompt
   * tokens themselves) is served; the one completion token is not sampled (the scorer never reads it).
   */
  private async promptLogprobs(dir: string, model: string, body: any): Promise<any> {
    const k = Number(body.prompt_logprobs);
    if (!Number.isInteger(k) || k < 0) throw new HttpError(400, '`prompt_logprobs` must be a positive value.');
    if (k > this.opts.maxLogprobs) throw new HttpError(400, `Requested prompt logprobs of ${k}, which is greater than max allowed: ${this.opts.maxLogprobs}`);
    if (k !== 0) throw new HttpError(400, 'this test server returns prompt_logprobs 0 only (each prompt token\'s own log-prob)');
    const { image, turns } = await this.turns(body, 'all');
    if (!image) throw new HttpError(400, `${model} is a vision model: send one image_url part`);
    const r = await this.pool.run<ConversationLogprobs>({
      kind: 'conversationLogprobs', model: dir, threads: this.pool.size.threadsPerWorker, imagePath: image, turns,
      addGenerationPrompt: body.add_generation_prompt ?? true,
    });
    return {
      id: `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`, object: 'chat.completion',
      created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length', logprobs: null }],
      usage: { prompt_tokens: r.ids.length, completion_tokens: 1, total_tokens: r.ids.length + 1 },
      prompt_logprobs: r.logprobs.map((lp, i) => (lp === null ? null : { [r.ids[i]!]: { logprob: lp, decoded_token: r.tokens[i] } })),
    };
  }

  /** Keeps a data-URL image as a file for the models (by content hash). */
  private saveDataUrl(u: string): string {
    const m = /^data:image\/[a-z+.-]+;base64,(.*)$/s.exec(u);
    if (!m) throw new HttpError(400, 'image_url: this server accepts only base64 data URLs (it is offline)');
    const bytes = Buffer.from(m[1]!, 'base64');
    const file = path.join(this.imgDir, createHash('sha256').update(bytes).digest('hex').slice(0, 32) + '.img');
    if (!existsSync(file)) writeFileSync(file, bytes);
    return file;
  }

  private async vlm(dir: string, model: string, body: any): Promise<any> {
    if (body.prompt_logprobs !== undefined && body.prompt_logprobs !== null) {
      const mode = this.opts.promptLogprobs ?? 'yes';
      if (mode === 'refuse') throw new HttpError(400, 'Unrecognized request argument supplied: prompt_logprobs');
      if (mode === 'yes') return this.promptLogprobs(dir, model, body);
    }
    const { image, text, history } = await this.userTurn(body);
    if (!image) throw new HttpError(400, `${model} is a vision model: send one image_url part`);
    const threads = this.pool.size.threadsPerWorker;
    const n = Number(body.n ?? 1);
    const created = Math.floor(Date.now() / 1000);
    const id = `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
    if (body.logprobs) {
      const maxTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? 1);
      if (maxTokens !== 1) throw new HttpError(400, 'this test server returns logprobs only for max_tokens 1');
      if (history.length > 0) throw new HttpError(400, 'this test server returns logprobs only for single-turn requests');
      const k = Number(body.top_logprobs ?? 0);
      const r = await this.pool.run<TopResult>({ kind: 'top', model: dir, threads, imagePath: image, text, k: Math.max(1, k) });
      const first = r.top[0]!;
      return {
        id, object: 'chat.completion', created, model,
        choices: [{
          index: 0,
          message: { role: 'assistant', content: first.token },
          finish_reason: 'length',
          logprobs: { content: [{ token: first.token, logprob: first.logprob, bytes: [...Buffer.from(first.token)], top_logprobs: r.top.slice(0, k).map((t) => ({ token: t.token, logprob: t.logprob, bytes: [...Buffer.from(t.token)] })) }] },
        }],
        usage: { prompt_tokens: r.promptTokens, completion_tokens: 1, total_tokens: r.promptTokens + 1 },
      };
    }
    const seed = Number.isInteger(body.seed) ? Number(body.seed) : Math.floor(Math.random() * 2 ** 31);
    const samples = Array.from({ length: n }, (_, i) => ({ index: i, seed: (seed + i) & 0x7fffffff }));
    const results = await this.pool.run<GenerateResult[]>({
      kind: 'generate', model: dir, threads, imagePath: image, question: text, history, samples,
      decoding: { temperature: Number(body.temperature ?? 1), top_p: Number(body.top_p ?? 1), max_new_tokens: Number(body.max_tokens ?? body.max_completion_tokens ?? 512) },
    });
    let promptTokens = 0;
    let completionTokens = 0;
    const choices = results.map((r, i) => {
      if ('error' in r) throw new Error(r.error);
      promptTokens = r.promptTokens ?? 0;
      completionTokens += r.completionTokens ?? 0;
      return { index: i, message: { role: 'assistant', content: r.text }, finish_reason: r.finishReason, logprobs: null };
    });
    return { id, object: 'chat.completion', created, model, choices, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } };
  }

  /**
   * A generative judge for the Table 13 rubric prompts and Anyprefer's pair prompt, made of real parts since no tiny
   * model can write prose: the rules divider splits a response into claims, the real tiny labeler answers each claim's
   * question from the image. A rubric reply is a one-line justification and the score on its own last line
   * (hallucination: 3 minus the rejected claims; helpfulness: the number of claims, at most 3). A pair reply is a line on
   * both responses and "Score: N/10", N = 10 × the probability that the positive response has fewer false claims
   * (the labeler's p(yes)/p(no) taken as independent verdicts, src/feedback/gate.ts), rounded, at least 1.
   */
  private async judge(dir: string, model: string, body: any): Promise<any> {
    const { image, text } = await this.userTurn(body);
    if (!image) throw new HttpError(400, `${model} judges an image: send one image_url part`);
    const pair = /Query:\s*([\s\S]*?)\s*\n\s*Positive Response:\s*([\s\S]*?)\s*\n\s*Negative Response:\s*([\s\S]*?)\s*$/.exec(text);
    const q = /<user-question>\s*([\s\S]*?)\s*<\/user-question>/.exec(text);
    const a = /<response>\s*([\s\S]*?)\s*<\/response>/.exec(text);
    let content: string;
    if (pair) {
      // Anyprefer's reward-model prompt: the pair's score is how sure the claims' labels make "positive is better".
      const pos = await this.claimProbs(dir, image, pair[1]!, pair[2]!);
      const neg = await this.claimProbs(dir, image, pair[1]!, pair[3]!);
      const score = Math.min(10, Math.max(1, Math.round(10 * pairConfidence(pos, neg, 'rejc'))));
      const false_ = (ps: number[]) => ps.filter((x) => x >= 0.5).length;
      content =
        `The positive response states ${pos.length} facts, ${false_(pos)} of which do not match the image; ` +
        `the negative response states ${neg.length}, ${false_(neg)} of which do not match.\nScore: ${score}/10`;
    } else {
      if (!q || !a) throw new HttpError(400, `${model} answers only the Table 13 rubric prompts and Anyprefer's pair prompt`);
      const probs = await this.claimProbs(dir, image, q[1]!, a[1]!);
      const rejected = probs.filter((x) => x >= 0.5).length;
      const helpfulness = /relevant to the user's inquiry/.test(text);
      const score = helpfulness ? Math.min(3, probs.length) : Math.max(0, 3 - rejected);
      const why = helpfulness
        ? `The response states ${probs.length} facts about the image.`
        : `Of the ${probs.length} facts in the response, ${rejected} do not match the image.`;
      content = `${why}\n${score}`;
    }
    const id = `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
    return {
      id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: text.length, completion_tokens: content.length, total_tokens: text.length + content.length },
    };
  }

  /** Each claim of an answer (the rules divider's) with its probability of being false, from the real tiny labeler. */
  private async claimProbs(dir: string, image: string, question: string, answer: string): Promise<number[]> {
    const [out] = await this.pool.run<DivideOutput[]>({ kind: 'divide', items: [{ question, answer }], maxWords: null });
    if (!out || 'error' in out) throw new Error('divider failed');
    const probs: number[] = [];
    for (const c of out.claims) {
      const r = await this.pool.run<TopResult>({ kind: 'top', model: dir, threads: this.pool.size.threadsPerWorker, imagePath: image, text: `${c.question} Please answer yes or no.`, k: 20 });
      const yn = yesNoFromTopLogprobs(r.top.map((t) => ({ token: t.token, logprob: t.logprob })));
      // No yes/no verdict counts as rejected, as the rubric judge always took it.
      probs.push(yn.pYes !== null && yn.pNo !== null ? rejectProbability(yn.pYes, yn.pNo) : 1);
    }
    return probs;
  }

  /** The paper's split and convert prompts, answered by rlaifv's rules divider. */
  private async divider(model: string, body: any): Promise<any> {
    const { text } = await this.userTurn(body);
    let content: string;
    const qa = /### Question-answer pair:\s*\nQuestion:\s*([\s\S]*?)\nAnswer:\s*([\s\S]*)$/.exec(text);
    const decl = /### Declarative sentences:\s*\n([\s\S]*)$/.exec(text);
    if (qa) {
      const [out] = await this.pool.run<DivideOutput[]>({ kind: 'divide', items: [{ question: qa[1]!.trim(), answer: qa[2]!.trim() }], maxWords: null });
      if (!out || 'error' in out) throw new Error('divider failed');
      for (const c of out.claims) this.questionOf.set(c.claim, c.question);
      content = `### Facts:\n${out.claims.map((c) => `- ${c.claim}`).join('\n')}`;
    } else if (decl) {
      const claims = decl[1]!.split('\n').map((l) => l.replace(/^\s*-\s*/, '').trim()).filter(Boolean);
      // The rules divider made each claim's question along with it; a claim it never saw is converted on its own.
      const qs = claims.map((c) => this.questionOf.get(c) ?? claimToQuestion(c));
      content = `### Modified sentences:\n${qs.filter((q) => q !== null).map((q) => `- ${q}`).join('\n')}`;
    } else {
      throw new HttpError(400, `${model} answers only the paper's split and convert prompts`);
    }
    const words = text.split(/\s+/).length;
    return {
      id: `chatcmpl-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`, object: 'chat.completion',
      created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: words, completion_tokens: content.split(/\s+/).length, total_tokens: words + content.split(/\s+/).length },
    };
  }
}

// Standalone use: serve until killed.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const s = await TestServer.start({ port: arg('--port') ?? 8000, latencyMs: arg('--latency-ms') ?? 0, maxConcurrent: arg('--max-concurrent') ?? 0 });
  process.stdout.write(`rlaifv test server on ${s.url} serving ${Object.keys(s.opts.models).join(', ')}\n`);
}
