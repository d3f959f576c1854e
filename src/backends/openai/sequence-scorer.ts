// Answer log-probabilities from an OpenAI-compatible server that returns prompt log-probs of a chat request (vLLM:
// `prompt_logprobs`, an extra body field of /v1/chat/completions). The answer goes in as the assistant turn, one token
// is asked for, and the answer's tokens are read from the prompt's log-probs. OpenAI's own API has no such field, and
// SGLang drops it.
//
// Where the answer starts comes from the conversation with the generation prompt (its length is where every answer
// starts). Which tokens are the answer's comes from the server's own tokenizer (vLLM's POST /tokenize of the answer
// alone), so no template is assumed: the tokens after the prompt must be exactly those, then the first token the
// template puts after an answer is counted too when it is the end of the turn (<|im_end|>, </s>: a token an empty
// answer also gets, that is not white space). An answer's counted tokens are its own and that end token, as the local
// scorer and scripts/shapes/dpo.py count them; a template that ends an answer with no such token (llava-hf's
// "ASSISTANT: {answer} ") gives the answer's own tokens alone. Without /tokenize, the template must render an empty
// answer's tail exactly as any answer's (true of ChatML), else the failure says so.
//
// Cost on vLLM: it skips its prefix cache for every request with prompt_logprobs, so each of a prompt's 2 + N requests
// (N distinct answers) prefills the image and prompt again.
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { OpenAIBackend } from '../../config/schema.js';
import type { SequenceLogprob, SequenceScoreItem, SequenceScorer } from '../types.js';
import { BadResponseError, EndpointPool, FatalBackendError, displayUrl } from './endpoints.js';
import type { Transport } from './transport.js';
import { imageUrl } from './images.js';
import { conversation, firstChoice } from './messages.js';

/** A templated conversation's prompt tokens: ids (null where the server gives none: the first), log-probs, texts. */
export interface PromptTokens {
  ids: (number | null)[];
  logprobs: (number | null)[];
  /** Each token's decoded text where the server gives it (vLLM's decoded_token). */
  texts?: (string | null)[];
}

/** The message naming the endpoint and the setting when a server gives no prompt log-probs. */
export function noPromptLogprobsMessage(role: string, endpoint: string, model: string): string {
  return (
    `${role} endpoint ${endpoint} returned no prompt_logprobs for model "${model}"; answer log-probs need a server ` +
    `that returns the prompt's log-probs of a chat request (vLLM does, with prompt_logprobs; OpenAI's API does not).`
  );
}

/**
 * The prompt log-probs of a vLLM-style response (`prompt_logprobs`: per prompt token null or {token id: {logprob}},
 * asked with prompt_logprobs 0 so each entry holds the prompt token alone); null when the response has none.
 */
export function readPromptLogprobs(r: unknown): PromptTokens | null {
  const list = (r as { prompt_logprobs?: unknown })?.prompt_logprobs;
  if (!Array.isArray(list) || list.length === 0) return null;
  const ids: (number | null)[] = [];
  const logprobs: (number | null)[] = [];
  const texts: (string | null)[] = [];
  list.forEach((entry, i) => {
    if (entry === null) {
      if (i > 0) throw new BadResponseError(`prompt_logprobs[${i}] is null (only the first prompt token has none)`);
      ids.push(null);
      logprobs.push(null);
      texts.push(null);
      return;
    }
    const keys = entry && typeof entry === 'object' ? Object.keys(entry) : [];
    if (keys.length !== 1) throw new BadResponseError(`prompt_logprobs[${i}] lists ${keys.length} tokens; asked with prompt_logprobs 0 it lists the prompt token alone`);
    const info = (entry as Record<string, { logprob?: unknown; decoded_token?: unknown }>)[keys[0]!];
    const lp = info?.logprob;
    const id = Number(keys[0]);
    if (!Number.isInteger(id) || typeof lp !== 'number' || !(lp <= 0)) throw new BadResponseError(`prompt_logprobs[${i}] is not {token id: {logprob}}`);
    ids.push(id);
    logprobs.push(lp);
    texts.push(typeof info?.decoded_token === 'string' ? info.decoded_token : null);
  });
  return { ids, logprobs, texts };
}

/** Whether a[from, from + n) equals b[at, at + n) (a null first id matches anything: it is the first token). */
function sameIds(a: readonly (number | null)[], from: number, n: number, b: readonly (number | null)[], at: number): boolean {
  for (let i = 0; i < n; i++) if (from + i > 0 && a[from + i] !== b[at + i]) return false;
  return true;
}

/**
 * The counted log-probs of an answer's conversation `a`, given the prompt with the generation prompt (`g`), with an
 * empty answer (`e`) and, when the server can tokenize, the answer's own token ids: a's tokens from g's length on,
 * then the end-of-turn token (see the file's head). Throws (a per-answer failure) naming what the template did.
 */
export function answerSlice(g: PromptTokens, e: PromptTokens, a: PromptTokens, answerIds: readonly number[] | null = null, model = ''): SequenceLogprob {
  const p = g.ids.length;
  const template = `the server's chat template${model ? ` for ${model}` : ''}`;
  if (a.ids.length < p || !sameIds(a.ids, 0, p, g.ids, 0)) throw new Error(`${template} renders the prompt differently when an answer follows`);
  let end: number;
  if (answerIds) {
    const n = answerIds.length;
    if (!sameIds(a.ids, p, n, answerIds, 0) || a.ids.length < p + n) {
      const found = a.ids.slice(p, p + Math.max(n, 1) + 2).join(', ');
      throw new Error(`${template} does not put the answer's own ${n} tokens right after the prompt (expected [${answerIds.join(', ')}], found [${found}])`);
    }
    end = p + n;
    // The end of the turn: a token an empty answer gets too, and not white space (llava-hf's trailing " ").
    const next = a.ids[end];
    const text = a.texts?.[end];
    if (next !== undefined && next !== null && e.ids.slice(p).includes(next) && (text === undefined || text === null || text.trim() !== '')) end++;
  } else {
    const trailer = e.ids.length - p;
    if (trailer < 1 || !sameIds(e.ids, 0, p, g.ids, 0)) throw new Error(`${template} does not render an assistant turn after the prompt (and the server has no /tokenize to find the answer's tokens)`);
    if (a.ids.length < e.ids.length) throw new Error(`${template} renders the prompt differently when an answer follows`);
    if (!sameIds(a.ids, a.ids.length - trailer, trailer, e.ids, p)) {
      throw new Error(`${template} ends this answer differently from an empty one (and the server has no /tokenize to find the answer's tokens)`);
    }
    end = a.ids.length - trailer + 1;
  }
  const perToken = a.logprobs.slice(p, end) as number[];
  let sum = 0;
  for (const v of perToken) sum += v;
  return { sum, tokens: end - p, perToken };
}

/**
 * A served model as a scorer of whole answers: per prompt, two requests for where answers start and end, then one
 * request per distinct answer (the conversation with the answer as the assistant turn, max_tokens 1, prompt_logprobs 0,
 * add_generation_prompt false), all through the backend's endpoints with its retries and limits.
 * @example new OpenAISequenceScorer({ ...server, model: 'my-dpo-checkpoint' }, 'policy').logprobs([{ imagePath, question, answers }])
 */
export class OpenAISequenceScorer implements SequenceScorer {
  readonly id: string;
  readonly pool: EndpointPool;
  private sawPromptLogprobs = false;
  /** Set when the server has no /tokenize (an older or other server): answers then end where an empty one does. */
  private noTokenize = false;

  constructor(
    private readonly b: OpenAIBackend,
    role = 'score',
  ) {
    this.pool = new EndpointPool(role, b);
    this.id = b.model;
  }

  logprobs(items: SequenceScoreItem[]): Promise<(SequenceLogprob | Error)[][]> {
    return Promise.all(items.map((it) => this.item(it)));
  }

  private async item(it: SequenceScoreItem): Promise<(SequenceLogprob | Error)[]> {
    const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
    let msgs: ChatCompletionMessageParam[];
    let g: PromptTokens;
    let e: PromptTokens;
    try {
      msgs = conversation(await imageUrl(it.imagePath), it.question, it.history);
      [g, e] = await Promise.all([this.tokens(msgs, null, it.imagePath), this.tokens(msgs, '', it.imagePath)]);
    } catch (err) {
      if (err instanceof FatalBackendError) throw err;
      return it.answers.map(() => asError(err));
    }
    const distinct = [...new Set(it.answers)];
    const scored = await Promise.all(
      distinct.map(async (a) => {
        try {
          const [ids, tokens] = await Promise.all([this.answerIds(a, it.imagePath), this.tokens(msgs, a, it.imagePath)]);
          return answerSlice(g, e, tokens, ids, this.b.model);
        } catch (err) {
          if (err instanceof FatalBackendError) throw err;
          return asError(err);
        }
      }),
    );
    const byText = new Map(distinct.map((a, i) => [a, scored[i]!]));
    return it.answers.map((a) => byText.get(a)!);
  }

  /**
   * The answer's own token ids from the server's tokenizer (vLLM's POST /tokenize, no special tokens); null where the
   * server has no such route (then the template's rendering of an empty answer decides where answers end).
   */
  private async answerIds(answer: string, affinity: string): Promise<number[] | null> {
    if (this.noTokenize) return null;
    const ids = await this.pool.request(
      async (http, shape) => {
        if (shape.kind !== 'vllm') return { value: null };
        let r: { tokens?: unknown };
        try {
          r = await http.root<{ tokens?: unknown }>('/tokenize', { model: this.b.model, prompt: answer, add_special_tokens: false });
        } catch (err) {
          // No such route here (a proxy in front, an old server): not this request's fault, nor a setting to fix.
          const OpenAI = (await import('openai')).default;
          if (err instanceof OpenAI.APIError && (err.status === 404 || err.status === 405)) return { value: null };
          throw err;
        }
        if (!Array.isArray(r?.tokens) || !r.tokens.every((t) => Number.isInteger(t))) throw new BadResponseError('/tokenize answered without a tokens list');
        return { value: r.tokens as number[] };
      },
      { affinity },
    );
    if (ids === null) this.noTokenize = true;
    return ids;
  }

  /** The prompt tokens of the conversation with the answer as the assistant turn (null: with the generation prompt). */
  private tokens(msgs: ChatCompletionMessageParam[], answer: string | null, affinity: string): Promise<PromptTokens> {
    return this.pool.request(
      async (http: Transport) => {
        const body = {
          model: this.b.model,
          messages: answer === null ? msgs : [...msgs, { role: 'assistant' as const, content: answer }],
          max_tokens: 1,
          temperature: 0,
          // vLLM's extra fields: the prompt tokens' own log-probs, and no generation prompt after the answer.
          prompt_logprobs: 0,
          add_generation_prompt: answer === null,
        };
        const r = await http.chat(body);
        firstChoice(r);
        const t = readPromptLogprobs(r);
        if (!t) {
          // A server that ignores the field is a setting to change, not a fault to retry (unless it gave them before).
          if (!this.sawPromptLogprobs) throw this.pool.stopWith(new FatalBackendError(this.pool.redact(noPromptLogprobsMessage(this.pool.role, displayUrl(http.baseURL), this.b.model))));
          throw new BadResponseError('the response has no prompt_logprobs');
        }
        if (typeof r.usage?.prompt_tokens === 'number' && r.usage.prompt_tokens !== t.ids.length) {
          throw new BadResponseError(`prompt_logprobs has ${t.ids.length} entries for ${r.usage.prompt_tokens} prompt tokens`);
        }
        this.sawPromptLogprobs = true;
        return { value: t, usage: r.usage };
      },
      { affinity },
    );
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
