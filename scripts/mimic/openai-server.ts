// A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol and answers with the tiny models
// in models/ through rlaifv's own local backend (worker pool), so the logprobs it sends are real. Its divider model is
// rlaifv's rules divider answering the paper's split and convert prompts. Faults can be injected on demand.
//
// `mimic` makes it behave like a real server, flaws included (scripts/mimic/mimic.ts names the upstream code of each
// behaviour): vLLM (nested errors, generation_config defaults, runtime LoRA behind VLLM_ALLOW_RUNTIME_LORA_UPDATING,
// /tokenize), vLLM before 0.10.1 (flat errors), SGLang (flat errors, seeds ignored without deterministic inference,
// top logprobs merged by text, no prompt_logprobs, LoRA routes at the root and "base:adapter" names).
//
// Standalone: npx tsx scripts/mimic/openai-server.ts [--port 8000] [--latency-ms 0] [--max-concurrent 0]
//   [--mimic vllm|vllm-legacy|sglang] [--generation-config FILE] [--chat-template chatml|llava-hf|vicuna]
//   [--lora-updating] [--deterministic] [--max-logprobs 20] and the quirks of scripts/mimic/quirks.ts:
//   [--seed-ignored] [--cap-max-tokens N] [--no-list-adapters] [--inplace-reload-ms N] [--max-lora-rank N]
//   [--lora-disabled] [--no-get-model-info]
import http from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerPool } from '../../src/backends/local/pool.js';
import type { ConversationLogprobs, TopResult } from '../../src/backends/local/local.worker.js';
import { yesNoFromTopLogprobs } from '../../src/feedback/yes-no.js';
import { pairConfidence, rejectProbability } from '../../src/feedback/gate.js';
import type { GenerateResult, DivideOutput } from '../../src/backends/types.js';
import type { Turn } from '../../src/domain.js';
import { claimToQuestion } from '../../src/divide/question.js';
import { Adapters } from './adapters.js';
import { metricsText, quirksOn, versionBody, type Quirks } from './quirks.js';
import { CHAT_TEMPLATES, HttpError, MIMICS, NoRoute, TEMPLATES, TEXTS, effectiveSampling, errorBody, renderable, type Mimic, type TemplateName } from './mimic.js';

export { HttpError } from './mimic.js';
export type { Mimic, TemplateName } from './mimic.js';

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

/**
 * What a served model is: a vision model folder, or the rules divider as a text "LLM". A `thinking` model starts every
 * answer with <think> unless the request's chat_template_kwargs say enable_thinking false (Qwen3's templates); a
 * model that `refusesMaxTokens` answers max_tokens as OpenAI's reasoning models do.
 */
export type ServedModel =
  | { kind: 'vlm'; dir: string; thinking?: boolean; refusesMaxTokens?: boolean }
  | { kind: 'divider' }
  | { kind: 'judge'; dir: string }
  | { kind: 'rewriter'; dir: string }
  | { kind: 'teacher'; dir: string }
  | { kind: 'lister'; dir: string };

export interface ServerOptions extends Quirks {
  models?: Record<string, ServedModel>;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Like vLLM's --max-logprobs. */
  maxLogprobs?: number;
  /**
   * `prompt_logprobs` (vLLM's extra field: the prompt tokens' log-probs): 'yes' returns them as vLLM does (the
   * default), 'ignore' answers as if the field were not there (a server that drops unknown fields), 'refuse' rejects
   * the request as OpenAI's API does. SGLang mode always ignores it.
   */
  promptLogprobs?: 'yes' | 'ignore' | 'refuse';
  /** Which real server to behave like (default 'rlaifv': as this server always answered). */
  mimic?: Mimic;
  /** A model's generation_config.json: vllm and sglang modes fill every sampling field a request leaves out from it. */
  generationConfig?: Record<string, unknown> | null;
  /** The chat template prompt_logprobs and /tokenize render with (default: the model folder's own). */
  chatTemplate?: TemplateName;
  /** vLLM: VLLM_ALLOW_RUNTIME_LORA_UPDATING=True with --enable-lora (the adapter routes exist). Default: on, but off in vllm modes. */
  loraUpdating?: boolean;
  /** SGLang: --enable-deterministic-inference (the only way it honours `seed`). */
  deterministic?: boolean;
  /** vLLM: --return-tokens-as-token-ids (top tokens named "token_id:N" unless the request says otherwise). */
  returnTokensAsTokenIds?: boolean;
  /** vLLM and SGLang: --reasoning-parser (a thinking model's <think> part goes to reasoning_content). */
  reasoningParser?: boolean;
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

/** A generative judge for the holistic rubric prompts, Anyprefer's pair prompt and ConvBench's pairwise prompt (see TestServer.judge), served when a test asks for it. */
export const RUBRIC_JUDGE: Record<string, ServedModel> = { 'rubric-judge': { kind: 'judge', dir: path.join(ROOT, 'models', 'shapes-labeler') } };

/**
 * A rewriter for the `llm` correction editor (pair.rewriter), made of real parts: the rules divider finds the sentences
 * that make the listed claims, the real tiny policy answers the question greedily, and each such sentence becomes the
 * policy's sentence that shares the most words with it (none: it is dropped). See TestServer.rewriter.
 */
export const REWRITER: Record<string, ServedModel> = { rewriter: { kind: 'rewriter', dir: path.join(ROOT, 'models', 'shapes-policy') } };

/**
 * A FIRE teacher for the `refine` editor (pair.refine.teacher), made of real parts: it reads FIRE's A15 prompt, divides
 * the student's response and the groundtruth with the rules divider, and asks the real tiny labeler about each claim
 * the groundtruth does not make; it answers in prose, as a served teacher would. See TestServer.teacher.
 */
export const TEACHER: Record<string, ServedModel> = { teacher: { kind: 'teacher', dir: path.join(ROOT, 'models', 'shapes-labeler') } };

/**
 * A served VLM for the `vlm` knowledge tool (label.tools): asked to list the image's objects, it answers as the real
 * tiny policy describes the image ("Describe the image in detail.", the instruction it knows that names every
 * object's colour, size and cell), through the same chat path as any served VLM here, so the reply is shaped as vLLM's
 * or SGLang's (V chat_completion/serving.py chat_completion_full_generator; S serving_chat.py; SERVERS.md row 5).
 */
export const LISTER: Record<string, ServedModel> = { lister: { kind: 'lister', dir: path.join(ROOT, 'models', 'shapes-policy') } };

/** Words the rewriter stand-in does not count as shared. */
const REWRITE_STOP = new Set(['a', 'an', 'the', 'there', 'is', 'are', 'in', 'of', 'image', 'no', 'not']);

/** The tiny models' decoder context (config.json max_position_embeddings): their max_model_len. */
const MAX_MODEL_LEN = 160;

/** What the first token of a thinking model looks like when it thinks: <think> first, then other openings. */
const THINKING_TOP = ['<think>', '\n', 'Okay', 'Let', 'The', 'I', 'First', 'We', 'So', 'Hmm', 'Looking', 'In', 'This', 'To', 'Well', 'There', 'Sure', 'Alright', 'Based', 'From'];

/** A running test server. */
export class TestServer {
  readonly faults: Fault[] = [];
  /** Counters: requests seen (by model), faults injected (by kind), peak requests being worked on at once. */
  readonly stats = {
    requests: 0,
    byModel: {} as Record<string, number>,
    injected: {} as Record<string, number>,
    peakActive: 0,
    served: 0,
    /** Requests per route other than chat completions (e.g. "POST /tokenize"). */
    routes: {} as Record<string, number>,
    /** The effective sampling of each generation request, as the mimic resolved it. */
    sampling: [] as ReturnType<typeof effectiveSampling>[],
  };
  latencyMs: number;
  maxConcurrent: number;
  readonly mode: Mimic;
  readonly adapters: Adapters;
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
    this.mode = opts.mimic ?? 'rlaifv';
    // The images requests carry, one folder per server, removed by close(): a folder per process was left behind.
    this.imgDir = mkdtempSync(path.join(os.tmpdir(), 'rlaifv-test-server-'));
    this.adapters = new Adapters(this.mode, opts.models, opts.loraUpdating ?? !this.mode.startsWith('vllm'), opts);
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
    return `${this.root}/v1`;
  }

  /** The server's root (where vLLM's /tokenize and SGLang's native routes live). */
  get root(): string {
    const a = this.server.address() as { port: number };
    return `http://127.0.0.1:${a.port}`;
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
    rmSync(this.imgDir, { recursive: true, force: true });
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

  private async json(req: http.IncomingMessage): Promise<{ body: any; raw: string }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      return { body: JSON.parse(raw), raw };
    } catch {
      // Both servers are FastAPI apps: a body that is not JSON fails request validation (answered as a 400).
      throw new HttpError(400, `[{'type': 'json_invalid', 'loc': ('body', 0), 'msg': 'JSON decode error', 'input': {}, 'ctx': {'error': 'Expecting value'}}]`);
    }
  }

  /** The routes each mode has besides chat completions and GET /models; null: not a route here. */
  private route(method: string, p: string): ((req: http.IncomingMessage) => Promise<unknown>) | null {
    const vllm = this.mode === 'vllm' || this.mode === 'vllm-legacy' || this.mode === 'rlaifv';
    const sglang = this.mode === 'sglang';
    const post = method === 'POST';
    if (post && p === '/v1/load_lora_adapter' && vllm && this.adapters.enabled) return async (req) => this.adapters.loadVllm((await this.json(req)).body);
    if (post && p === '/v1/unload_lora_adapter' && vllm && this.adapters.enabled) return async (req) => this.adapters.unloadVllm((await this.json(req)).body);
    if (post && p === '/load_lora_adapter' && sglang) return async (req) => this.adapters.loadSglang((await this.json(req)).body);
    if (post && p === '/unload_lora_adapter' && sglang) return async (req) => this.adapters.unloadSglang((await this.json(req)).body);
    if (post && p === '/update_weights_from_disk' && sglang) return async (req) => this.adapters.updateWeights((await this.json(req)).body);
    if (method === 'GET' && p === '/model_info' && sglang) return async () => this.adapters.modelInfo();
    if (method === 'GET' && p === '/get_model_info' && sglang && !this.opts.noGetModelInfo) return async () => this.adapters.modelInfo();
    if (method === 'GET' && p === '/metrics' && vllm && this.mode !== 'rlaifv') return async () => metricsText(this.adapters.reloads);
    if (post && p === '/tokenize' && vllm && this.mode !== 'rlaifv') return async (req) => this.tokenize((await this.json(req)).body);
    if (post && p === '/detokenize' && vllm && this.mode !== 'rlaifv') return async (req) => this.detokenize((await this.json(req)).body);
    if (method === 'GET' && p === '/version' && vllm && this.mode !== 'rlaifv') return async () => versionBody(this.mode, quirksOn(this.mode, this.opts));
    if (method === 'GET' && p === '/health' && this.mode !== 'rlaifv') return async () => '';
    return null;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // vLLM answers the adapter routes with plain text; everything else is JSON.
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const fail = (e: HttpError | NoRoute) => {
      const { status, body } = errorBody(this.mode, e);
      send(status, body);
    };
    try {
      if (this.opts.apiKey && req.headers.authorization !== `Bearer ${this.opts.apiKey}`) {
        throw new HttpError(401, 'Invalid API key.', 'AuthenticationError');
      }
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname === '/v1/models') return send(200, this.adapters.modelList());
      const other = this.route(req.method ?? 'GET', url.pathname);
      if (other) {
        this.stats.routes[`${req.method} ${url.pathname}`] = (this.stats.routes[`${req.method} ${url.pathname}`] ?? 0) + 1;
        const out = await other(req);
        // SGLang's native routes answer with their own body and status.
        if (out && typeof out === 'object' && 'status' in out && 'body' in out) return send((out as { status: number }).status, (out as { body: unknown }).body);
        return send(200, out);
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') throw new NoRoute(`No route ${req.method} ${url.pathname}`);
      const { body, raw } = await this.json(req);
      this.stats.requests++;
      const model = String(body.model ?? '');
      this.stats.byModel[model] = (this.stats.byModel[model] ?? 0) + 1;
      const served = this.adapters.resolve(model);
      if (body.logprobs && typeof body.top_logprobs === 'number' && body.top_logprobs > this.opts.maxLogprobs && this.mode !== 'sglang') {
        throw new HttpError(400, TEXTS.sampleLogprobs(body.top_logprobs, this.opts.maxLogprobs));
      }
      if (served.kind === 'vlm' && served.refusesMaxTokens && body.max_tokens !== undefined) {
        // OpenAI's reasoning models (o-series, gpt-5).
        throw new HttpError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'invalid_request_error', 'max_tokens');
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
      if (fault?.kind === '500') return send(500, errorBody(this.mode, new HttpError(500, 'Internal server error (injected)', 'InternalServerError')).body);
      await this.slot();
      let out: any;
      const t0 = performance.now();
      // vLLM's sticky load_inplace: the adapter is read from disk again before this generation (quirks.ts).
      const reload = this.adapters.reloadMs(model);
      if (reload > 0) await new Promise((r) => setTimeout(r, reload));
      try {
        out =
          served.kind === 'vlm'
            ? await this.vlm(served, model, body)
            : served.kind === 'judge'
              ? await this.judge(served.dir, model, body)
              : served.kind === 'rewriter'
                ? await this.rewriter(served.dir, model, body)
                : served.kind === 'teacher'
                  ? await this.teacher(served.dir, model, body)
                : served.kind === 'lister'
                  ? await this.lister(served.dir, model, body)
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
      if (e instanceof HttpError || e instanceof NoRoute) return fail(e);
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
    let msgs = Array.isArray(body.messages) ? body.messages : [];
    // SGLang (S serving_chat.py _handle_last_assistant_message): a last assistant message becomes a user message
    // unless continue_final_message is set.
    if (this.mode === 'sglang' && msgs.at(-1)?.role === 'assistant' && !body.continue_final_message) msgs = [...msgs.slice(0, -1), { ...msgs.at(-1), role: 'user' }];
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

  /** The template and continue_final_message of a request, for the worker's rendering. */
  private rendering(body: any): { template?: string; continueFinal?: boolean } {
    const t = this.opts.chatTemplate ?? 'default';
    return { ...(t !== 'default' ? { template: renderable(CHAT_TEMPLATES[t]) } : {}), ...(body.continue_final_message ? { continueFinal: true } : {}) };
  }

  /** Runs a worker task; a prompt over the model's context or an image it cannot read is the server's 400. */
  private async work<T>(task: Parameters<WorkerPool["run"]>[0]): Promise<T> {
    try {
      return await this.pool.run<T>(task);
    } catch (e) {
      const msg = (e as Error).message;
      const long = /prompt is (\d+) tokens/.exec(msg);
      if (long && this.mode !== 'rlaifv') throw new HttpError(400, TEXTS.contextLength(this.mode, Number(long[1]), MAX_MODEL_LEN));
      if (/image|PNG|JPEG|decode|unsupported/i.test(msg) && this.mode !== 'rlaifv') throw new HttpError(400, TEXTS.badImage());
      throw e;
    }
  }

  /**
   * vLLM's `prompt_logprobs`: the whole templated conversation (a last assistant turn included; the generation prompt
   * as `add_generation_prompt` says, default true) with each prompt token's log-prob from the real model, in vLLM's
   * shape (null for the first token, then {token id: {logprob, rank, decoded_token}}). Only prompt_logprobs 0 (the
   * prompt tokens themselves) is served; the one completion token is not sampled (the scorer never reads it).
   */
  private async promptLogprobs(dir: string, model: string, body: any): Promise<any> {
    const k = Number(body.prompt_logprobs);
    if (!Number.isInteger(k) || k < 0) throw new HttpError(400, '`prompt_logprobs` must be a positive value.');
    if (k > this.opts.maxLogprobs) throw new HttpError(400, TEXTS.promptLogprobs(k, this.opts.maxLogprobs));
    if (k !== 0) throw new HttpError(400, 'this test server returns prompt_logprobs 0 only (each prompt token\'s own log-prob)');
    if (body.add_generation_prompt && body.continue_final_message) {
      throw new HttpError(400, 'Cannot set both `continue_final_message` and `add_generation_prompt` to True.');
    }
    const { image: sent, turns } = await this.turns(body, 'all');
    const image = sent ?? (await this.blankImage());
    const r = await this.work<ConversationLogprobs>({
      kind: 'conversationLogprobs', model: dir, threads: this.pool.size.threadsPerWorker, imagePath: image, turns,
      addGenerationPrompt: body.add_generation_prompt ?? true, ...this.rendering(body),
    });
    return {
      id: `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`, object: 'chat.completion',
      created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length', logprobs: null }],
      usage: { prompt_tokens: r.ids.length, completion_tokens: 1, total_tokens: r.ids.length + 1 },
      prompt_logprobs: r.logprobs.map((lp, i) => (lp === null ? null : { [r.ids[i]!]: { logprob: Math.max(lp, -9999), rank: null, decoded_token: r.tokens[i] } })),
    };
  }

  /**
   * vLLM's POST /tokenize (V entrypoints/openai/serving_tokenization.py): `prompt` (with add_special_tokens) or
   * `messages` through the chat template (add_generation_prompt, continue_final_message); answers
   * {count, max_model_len, tokens, token_strs}. An image in the messages is expanded to its tokens, as the engine's
   * prompt is.
   */
  private async tokenize(body: any): Promise<unknown> {
    const served = this.adapters.resolve(String(body.model ?? ''));
    if (served.kind !== 'vlm') throw new HttpError(400, 'this test server tokenizes for its vision models only');
    let r: { ids: number[]; tokens: string[] };
    if (Array.isArray(body.messages)) {
      if (body.add_generation_prompt && body.continue_final_message) {
        throw new HttpError(400, 'Cannot set both `continue_final_message` and `add_generation_prompt` to True.');
      }
      const { image, turns } = await this.turns(body, 'all');
      r = await this.work({
        kind: 'tokenize', model: served.dir, threads: this.pool.size.threadsPerWorker, imagePath: image, turns,
        addGenerationPrompt: body.add_generation_prompt ?? true, ...this.rendering(body),
      });
    } else if (typeof body.prompt === 'string') {
      r = await this.work({ kind: 'tokenize', model: served.dir, threads: this.pool.size.threadsPerWorker, text: body.prompt });
    } else throw new HttpError(400, 'Either `prompt` or `messages` must be given.');
    return { count: r.ids.length, max_model_len: MAX_MODEL_LEN, tokens: r.ids, token_strs: body.return_token_strs ? r.tokens : null };
  }

  /** vLLM's POST /detokenize: {model, tokens} → {prompt}. */
  private async detokenize(body: any): Promise<unknown> {
    const served = this.adapters.resolve(String(body.model ?? ''));
    if (served.kind !== 'vlm' || !Array.isArray(body.tokens)) throw new HttpError(400, 'tokens: a list of token ids is required');
    const r = await this.pool.run<{ text: string }>({ kind: 'detokenize', model: served.dir, threads: this.pool.size.threadsPerWorker, ids: body.tokens.map(Number) });
    return { prompt: r.text };
  }

  /**
   * A blank 64×64 grey PNG, for a text-only request to a vision model: made once per server. Checked and written with
   * an await between, concurrent text-only requests each wrote it, truncating the file under a worker that was reading
   * it ("cannot identify image file", a 400 for a request with no image: seen in a fresh clone's mimic-quirks run).
   */
  private blank: Promise<string> | null = null;
  private blankImage(): Promise<string> {
    this.blank ??= (async () => {
      const file = path.join(this.imgDir, 'blank.png');
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toBuffer();
      writeFileSync(`${file}.part`, png);
      renameSync(`${file}.part`, file);
      return file;
    })();
    return this.blank;
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

  /** Whether a thinking model thinks on this request (Qwen3's templates read chat_template_kwargs.enable_thinking). */
  private thinks(served: ServedModel, body: any): boolean {
    return served.kind === 'vlm' && !!served.thinking && body.chat_template_kwargs?.enable_thinking !== false;
  }

  private async vlm(served: Extract<ServedModel, { kind: 'vlm' }>, model: string, body: any): Promise<any> {
    const { dir } = served;
    if (body.prompt_logprobs !== undefined && body.prompt_logprobs !== null && this.mode !== 'sglang') {
      const mode = this.opts.promptLogprobs ?? 'yes';
      if (mode === 'refuse') throw new HttpError(400, 'Unrecognized request argument supplied: prompt_logprobs');
      if (mode === 'yes') return this.promptLogprobs(dir, model, body);
    }
    const { image: sent, text, history } = await this.userTurn(body);
    // A VLM answers a text-only request too; the tiny models always take an image, so they get a blank one.
    const image = sent ?? (await this.blankImage());
    const threads = this.pool.size.threadsPerWorker;
    const n = Number(body.n ?? 1);
    const created = Math.floor(Date.now() / 1000);
    const id = `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
    const thinking = this.thinks(served, body);
    if (body.logprobs) {
      const maxTokens = Number(body.max_completion_tokens ?? body.max_tokens ?? 1);
      if (maxTokens !== 1) throw new HttpError(400, 'this test server returns logprobs only for max_tokens 1');
      if (history.length > 0) throw new HttpError(400, 'this test server returns logprobs only for single-turn requests');
      const k = Number(body.top_logprobs ?? 0);
      const r = await this.work<TopResult>({ kind: 'top', model: dir, threads, imagePath: image, text, k: Math.max(1, k) });
      let top = r.top;
      // A thinking model puts nearly all of its first token's mass on <think>; no yes/no is among its top tokens.
      if (thinking) top = THINKING_TOP.map((token, i) => ({ token, logprob: i === 0 ? -0.0005 : -9 - i }));
      // SGLang (S entrypoints/openai/utils.py to_openai_style_logprobs): the top tokens are a dict keyed by their
      // decoded text, so tokens with the same text are one entry and fewer than K can come back.
      if (this.mode === 'sglang') top = mergeByText(top);
      // vLLM --return-tokens-as-token-ids names tokens "token_id:N"; a request's return_tokens_as_token_ids wins.
      const asIds = (body.return_tokens_as_token_ids ?? this.opts.returnTokensAsTokenIds ?? false) === true && this.mode !== 'sglang';
      const ids = asIds ? await this.pool.run<{ ids: number[] }>({ kind: 'tokenIds', model: dir, threads, tokens: top.map((t) => t.token) }) : null;
      const shown = top.map((t, i) => ({ ...t, token: ids ? `token_id:${ids.ids[i]}` : t.token }));
      const first = shown[0]!;
      return {
        id, object: 'chat.completion', created, model,
        choices: [{
          index: 0,
          message: { role: 'assistant', content: first.token },
          finish_reason: 'length',
          logprobs: { content: [{ token: first.token, logprob: first.logprob, bytes: [...Buffer.from(first.token)], top_logprobs: shown.slice(0, k).map((t) => ({ token: t.token, logprob: t.logprob, bytes: [...Buffer.from(t.token)] })) }] },
        }],
        usage: { prompt_tokens: r.promptTokens, completion_tokens: 1, total_tokens: r.promptTokens + 1 },
      };
    }
    const s = this.sampling(body);
    // SGLang uses the seed only with --enable-deterministic-inference (S sampling_batch_info.py from_schedule_batch).
    const seeded = Number.isInteger(body.seed) && (this.mode !== 'sglang' || this.opts.deterministic);
    // --seed-ignored (quirks.ts, S #15746): one seed for every request, whatever it asked; 42 is SGLang's default.
    const seed = this.opts.seedIgnored ? 42 : seeded ? Number(body.seed) : Math.floor(Math.random() * 2 ** 31);
    const samples = Array.from({ length: n }, (_, i) => ({ index: i, seed: (seed + i) & 0x7fffffff }));
    // --cap-max-tokens (quirks.ts, V get_max_tokens): the generation config's max_new_tokens caps an explicit max_tokens.
    const maxTokens = Math.min(s.max_tokens ?? 512, this.opts.capMaxTokens ?? Infinity);
    const results = await this.work<GenerateResult[]>({
      kind: 'generate', model: dir, threads, imagePath: image, question: text, history, samples,
      decoding: { temperature: s.temperature, top_p: s.top_p, max_new_tokens: maxTokens, top_k: s.top_k, min_p: s.min_p, repetition_penalty: s.repetition_penalty },
    });
    let promptTokens = 0;
    let completionTokens = 0;
    const choices = results.map((r, i) => {
      if ('error' in r) {
        if (/prompt is \d+ tokens/.test(r.error) && this.mode !== 'rlaifv') {
          throw new HttpError(400, TEXTS.contextLength(this.mode, Number(/prompt is (\d+)/.exec(r.error)![1]), MAX_MODEL_LEN));
        }
        throw new Error(r.error);
      }
      promptTokens = r.promptTokens ?? 0;
      completionTokens += r.completionTokens ?? 0;
      const reasoning = thinking ? 'The user asks about the image. Let me look at the shapes.' : null;
      const message =
        reasoning && this.opts.reasoningParser
          ? { role: 'assistant', content: r.text, ...(this.mode === 'vllm' ? { reasoning } : { reasoning_content: reasoning }) }
          : { role: 'assistant', content: reasoning ? `<think>\n${reasoning}\n</think>\n\n${r.text}` : r.text };
      return { index: i, message, finish_reason: r.finishReason, logprobs: null };
    });
    return { id, object: 'chat.completion', created, model, choices, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } };
  }

  /** The sampling a generation request gets: as sent, with the mimic's generation_config defaults for what it left out. */
  private sampling(body: any): ReturnType<typeof effectiveSampling> {
    const genConfig = this.mode === 'rlaifv' ? null : (this.opts.generationConfig ?? null);
    const s = effectiveSampling(body, genConfig);
    this.stats.sampling.push(s);
    return s;
  }

  /**
   * A generative judge for the Table 13 rubric prompts, Anyprefer's pair prompt and ConvBench's pairwise prompt (with
   * its extraction prompt), made of real parts since no tiny
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
    const cmp = /### The question from user:\s*([\s\S]*?)\s*### The response from Assistant A:\s*([\s\S]*?)\s*<\[The End of Assistant A's Conversation with User\]>[\s\S]*?### The response from Assistant B:\s*([\s\S]*?)\s*<\[The End of Assistant B's Conversation with User\]>/.exec(text);
    const extract = /Which response did the judge choose in the end\?/.test(text);
    let content: string;
    if (extract) {
      // The extraction prompt: the quoted reply's last "Response X" it named, as a text model would read it.
      const named = [...text.replace(/Which response did the judge[\s\S]*$/, '').matchAll(/Response ([AB])\b/g)].at(-1);
      content = named ? `Overall, Response ${named[1]} is better` : 'I cannot tell which response the judge chose.';
    } else if (cmp) {
      // ConvBench's pairwise prompt: fewer claims the labeler rejects wins, then more claims. With nothing between them
      // it hedges, picks the response shown first and does not use the phrase (a position bias, and a reply only the
      // extraction prompt reads), as forced-choice judges do.
      const a = await this.claimProbs(dir, image, cmp[1]!, cmp[2]!);
      const b = await this.claimProbs(dir, image, cmp[1]!, cmp[3]!);
      const false_ = (ps: number[]) => ps.filter((x) => x >= 0.5).length;
      const [fa, fb] = [false_(a), false_(b)];
      const why =
        `Response A states ${a.length} facts, ${fa} of which do not match the image. ` +
        `Response B states ${b.length} facts, ${fb} of which do not match the image.`;
      const winner = fa !== fb ? (fa < fb ? 'A' : 'B') : a.length !== b.length ? (a.length > b.length ? 'A' : 'B') : null;
      content = winner ? `${why}\nOverall, Response ${winner} is better.` : `${why}\nBoth are equally good, so I go with Response A, the first one.`;
    } else if (pair) {
      // Anyprefer's reward-model prompt: the pair's score is how sure the claims' labels make "positive is better".
      const pos = await this.claimProbs(dir, image, pair[1]!, pair[2]!);
      const neg = await this.claimProbs(dir, image, pair[1]!, pair[3]!);
      const score = Math.min(10, Math.max(1, Math.round(10 * pairConfidence(pos, neg, 'rejc'))));
      const false_ = (ps: number[]) => ps.filter((x) => x >= 0.5).length;
      content =
        `The positive response states ${pos.length} facts, ${false_(pos)} of which do not match the image; ` +
        `the negative response states ${neg.length}, ${false_(neg)} of which do not match.\nScore: ${score}/10`;
    } else {
      if (!q || !a) throw new HttpError(400, `${model} answers only the Table 13 rubric prompts, Anyprefer's pair prompt and ConvBench's pairwise prompt`);
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

  /**
   * The `llm` editor's rewriter (REWRITER). It reads rlaifv's rewrite prompt (REWRITE_PROMPT's "- claim" lines, then
   * "Question:" and "Answer:"); the rules divider finds the answer's sentences that make a listed claim; the real tiny
   * policy answers the question at T 0; each such sentence is replaced by the policy's sentence sharing the most
   * words with it that the answer does not already hold, or dropped when none shares one. Like a real rewriter it can
   * be wrong (the policy's greedy answer is wrong about 13% of claims) and it answers in prose, with no verdicts.
   */
  /** The `vlm` tool's stand-in (LISTER): a listing request answered by the tiny policy's own detailed description. */
  private async lister(dir: string, model: string, body: any): Promise<any> {
    const { image, text } = await this.userTurn(body);
    if (!image) throw new HttpError(400, `${model} lists the objects of an image: send one image_url part`);
    if (!/\blist\b/i.test(text)) throw new HttpError(400, `${model} answers only a request to list the image's objects`);
    const messages = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${readFileSync(image).toString('base64')}` } }, { type: 'text', text: 'Describe the image in detail.' }] }];
    return this.vlm({ kind: 'vlm', dir }, model, { ...body, messages });
  }

  private async rewriter(dir: string, model: string, body: any): Promise<any> {
    const { image, text } = await this.userTurn(body);
    if (!image) throw new HttpError(400, `${model} rewrites an answer about an image: send one image_url part`);
    const m = /\n\s*Question:\s*([\s\S]*?)\n\s*Answer:\s*([\s\S]*)$/.exec(text);
    if (!m) throw new HttpError(400, `${model} answers only rlaifv's rewrite prompt (its "Question:" and "Answer:" lines)`);
    const listed = new Set([...text.slice(0, m.index).matchAll(/^- (.+)$/gm)].map((x) => x[1]!.trim()));
    const [question, answer] = [m[1]!.trim(), m[2]!.trim()];
    const [div] = await this.pool.run<DivideOutput[]>({ kind: 'divide', items: [{ question, answer }], maxWords: null });
    if (!div || 'error' in div) throw new Error('divider failed');
    const flagged = [...new Set(div.claims.filter((c) => listed.has(c.claim)).map((c) => c.sentence))];
    const [greedy] = await this.work<GenerateResult[]>({
      kind: 'generate', model: dir, threads: this.pool.size.threadsPerWorker, imagePath: image, question, history: [],
      samples: [{ index: 0, seed: 0 }],
      decoding: { temperature: 0, top_p: 1, max_new_tokens: 128 },
    });
    if (!greedy || 'error' in greedy) throw new Error(greedy && 'error' in greedy ? greedy.error : 'generation failed');
    const words = (t: string) => new Set(t.toLowerCase().match(/[a-z0-9]+/g)?.filter((w) => !REWRITE_STOP.has(w)) ?? []);
    const pool = greedy.text.split(/(?<=[.!?])\s+/).map((x) => x.trim()).filter((x) => x !== '');
    let content = answer;
    for (const f of flagged) {
      const fw = words(f);
      let best: { s: string; shared: number } | null = null;
      for (const c of pool) {
        if (content.includes(c)) continue;
        const shared = [...words(c)].filter((w) => fw.has(w)).length;
        if (shared > 0 && (!best || shared > best.shared)) best = { s: c, shared };
      }
      content = best ? content.replace(f, best.s) : content.replace(f, '').replace(/\s{2,}/g, ' ').trim();
    }
    const id = `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
    return {
      id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: text.length, completion_tokens: content.length, total_tokens: text.length + content.length },
    };
  }

  /**
   * The `refine` editor's FIRE teacher (TEACHER). It reads FIRE's teacher prompt (Fig. A15: "Question: … Groundtruth:
   * …" and "Here is the student response: …, now please provide the feedback:"); a claim of the response (the rules
   * divider's) that the groundtruth also makes is right, any other is asked of the real tiny labeler. The reply is a
   * FIRE-shaped "Score: N" (1–10) and a prose "Feedback:" that names the wrong statements without the groundtruth, so
   * it is as wrong as the labeler, and worded unlike rlaifv's own verdict teacher. Its chat.completion object is the
   * same as the other stand-ins' (OpenAI API reference, "The chat completion object").
   */
  private async teacher(dir: string, model: string, body: any): Promise<any> {
    const { image, text } = await this.userTurn(body);
    if (!image) throw new HttpError(400, `${model} comments on an answer about an image: send one image_url part`);
    const q = /Question:\s*([\s\S]*?)\s*Groundtruth:\s*([\s\S]*?)\n/.exec(text);
    const a = /Here is the student response:\s*([\s\S]*?),\s*now please provide the feedback:/.exec(text);
    if (!q || !a) throw new HttpError(400, `${model} answers only FIRE's teacher prompt (its "Question: … Groundtruth:" and "Here is the student response:" parts)`);
    const [question, reference, answer] = [q[1]!.trim(), q[2]!.trim(), a[1]!.trim()];
    const [said, ref] = await this.pool.run<DivideOutput[]>({ kind: 'divide', items: [{ question, answer }, { question, answer: reference }], maxWords: null });
    if (!said || 'error' in said || !ref || 'error' in ref) throw new Error('divider failed');
    const norm = (t: string) => t.trim().toLowerCase().replace(/[.!]+$/, '');
    const known = new Set(ref.claims.map((c) => norm(c.claim)));
    const wrong: string[] = [];
    for (const c of said.claims) {
      if (known.has(norm(c.claim))) continue;
      const r = await this.pool.run<TopResult>({ kind: 'top', model: dir, threads: this.pool.size.threadsPerWorker, imagePath: image, text: `${c.question} Please answer yes or no.`, k: 20 });
      const yn = yesNoFromTopLogprobs(r.top.map((t) => ({ token: t.token, logprob: t.logprob })));
      if (yn.pYes === null || yn.pNo === null || rejectProbability(yn.pYes, yn.pNo) > 0.5) wrong.push(c.claim);
    }
    const missing = ref.claims.filter((c) => !said.claims.some((x) => norm(x.claim) === norm(c.claim))).length;
    const n = said.claims.length;
    const score = n === 0 ? 1 : Math.max(1, Math.round(10 * (1 - wrong.length / n)));
    const lower = (t: string) => t.charAt(0).toLowerCase() + t.slice(1).replace(/[.!]+$/, '');
    const feedback =
      n === 0
        ? 'Your response does not describe the image. Look at the image and answer the question.'
        : wrong.length
          ? `Some statements in your answer do not match the image: it is not correct that ${wrong.map(lower).join('; nor that ')}. Check these parts again and correct them.`
          : `Your answer matches the image.${missing ? ' It could mention more of what is there.' : ''}`;
    const content = `Score: ${score}\nFeedback: ${feedback}`;
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

/** Top tokens merged by their text, the first (most likely) of each text kept, as SGLang's dict keyed by text keeps it. */
export function mergeByText(top: readonly { token: string; logprob: number }[]): { token: string; logprob: number }[] {
  const seen = new Map<string, { token: string; logprob: number }>();
  for (const t of top) {
    const text = decodedText(t.token);
    if (!seen.has(text)) seen.set(text, { token: text, logprob: t.logprob });
  }
  return [...seen.values()];
}

/** A token's text as SGLang's detokenizer gives it: special tokens skipped (so all of them read ""). */
function decodedText(token: string): string {
  return /^<\/?[a-z_|]+>$/i.test(token) ? '' : token;
}

// Standalone use: serve until killed.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string) => (value(name) === undefined ? undefined : Number(value(name)));
  const mimic = (value('--mimic') ?? 'rlaifv') as Mimic;
  if (!MIMICS.includes(mimic)) throw new Error(`--mimic must be one of ${MIMICS.join(', ')}`);
  const template = (value('--chat-template') ?? 'default') as TemplateName;
  if (!TEMPLATES.includes(template)) throw new Error(`--chat-template must be one of ${TEMPLATES.join(', ')}`);
  const genFile = value('--generation-config');
  const s = await TestServer.start({
    port: num('--port') ?? 8000,
    latencyMs: num('--latency-ms') ?? 0,
    maxConcurrent: num('--max-concurrent') ?? 0,
    maxLogprobs: num('--max-logprobs') ?? 20,
    mimic,
    chatTemplate: template,
    generationConfig: genFile ? (JSON.parse(readFileSync(genFile, 'utf8')) as Record<string, unknown>) : null,
    ...(argv.includes('--lora-updating') ? { loraUpdating: true } : {}),
    ...(argv.includes('--deterministic') ? { deterministic: true } : {}),
    ...(argv.includes('--return-tokens-as-token-ids') ? { returnTokensAsTokenIds: true } : {}),
    ...(argv.includes('--reasoning-parser') ? { reasoningParser: true } : {}),
    ...(argv.includes('--seed-ignored') ? { seedIgnored: true } : {}),
    ...(num('--cap-max-tokens') !== undefined ? { capMaxTokens: num('--cap-max-tokens') } : {}),
    ...(argv.includes('--no-list-adapters') ? { listAdapters: false } : {}),
    ...(num('--inplace-reload-ms') !== undefined ? { inplaceReloadMs: num('--inplace-reload-ms') } : {}),
    ...(num('--max-lora-rank') !== undefined ? { maxLoraRank: num('--max-lora-rank') } : {}),
    ...(argv.includes('--lora-disabled') ? { loraDisabled: true } : {}),
    ...(argv.includes('--no-get-model-info') ? { noGetModelInfo: true } : {}),
  });
  const on = quirksOn(mimic, s.opts);
  process.stdout.write(`rlaifv test server (${mimic}${on.length ? `: ${on.join(', ')}` : ''}) on ${s.url} serving ${Object.keys(s.opts.models).join(', ')}\n`);
}
