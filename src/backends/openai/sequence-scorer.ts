// Answer log-probabilities from an OpenAI-compatible server that returns prompt log-probs of a chat request (vLLM:
// `prompt_logprobs`, an extra body field of /v1/chat/completions). The answer goes in as the assistant turn, one token
// is asked for, and the answer's tokens are read from the prompt's log-probs. OpenAI's own API has no such field.
//
// Where the answer starts and ends comes from two more requests per prompt, so no tokenizer is needed here: the
// conversation with the generation prompt (its length is where every answer starts) and with an empty answer (what the
// template adds after an answer: the end-of-turn token and anything after it). An answer's counted tokens are its own
// and the end-of-turn token, as the local scorer and scripts/shapes/dpo.py count them.
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { OpenAIBackend } from '../../config/schema.js';
import type { SequenceLogprob, SequenceScoreItem, SequenceScorer } from '../types.js';
import { BadResponseError, EndpointPool, FatalBackendError, displayUrl } from './endpoints.js';
import { imageUrl } from './images.js';
import { conversation, firstChoice } from './messages.js';

/** A templated conversation's prompt tokens: ids (null where the server gives none: the first) and log-probs. */
interface PromptTokens {
  ids: (number | null)[];
  logprobs: (number | null)[];
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
  list.forEach((entry, i) => {
    if (entry === null) {
      if (i > 0) throw new BadResponseError(`prompt_logprobs[${i}] is null (only the first prompt token has none)`);
      ids.push(null);
      logprobs.push(null);
      return;
    }
    const keys = entry && typeof entry === 'object' ? Object.keys(entry) : [];
    if (keys.length !== 1) throw new BadResponseError(`prompt_logprobs[${i}] lists ${keys.length} tokens; asked with prompt_logprobs 0 it lists the prompt token alone`);
    const lp = (entry as Record<string, { logprob?: unknown }>)[keys[0]!]?.logprob;
    const id = Number(keys[0]);
    if (!Number.isInteger(id) || typeof lp !== 'number' || !(lp <= 0)) throw new BadResponseError(`prompt_logprobs[${i}] is not {token id: {logprob}}`);
    ids.push(id);
    logprobs.push(lp);
  });
  return { ids, logprobs };
}

/**
 * The counted log-probs of an answer's conversation `a`, given the prompt with the generation prompt (`g`) and with an
 * empty answer (`e`): a's tokens from g's length on, up to and including the first token the template adds after the
 * answer (e's tokens past g). Throws (as a per-answer failure) when the template does not render them that way.
 */
export function answerSlice(g: PromptTokens, e: PromptTokens, a: PromptTokens): SequenceLogprob {
  const p = g.ids.length;
  const same = (x: PromptTokens, from: number, to: number, y: PromptTokens, at: number) => {
    for (let i = from; i < to; i++) if (i > 0 && x.ids[i] !== y.ids[at + i - from]) return false;
    return true;
  };
  const trailer = e.ids.length - p;
  if (trailer < 1 || !same(e, 0, p, g, 0)) throw new Error("the server's chat template does not render an assistant turn after the prompt");
  if (a.ids.length < e.ids.length || !same(a, 0, p, g, 0)) throw new Error("the server's chat template renders the prompt differently when an answer follows");
  if (!same(a, a.ids.length - trailer, a.ids.length, e, p)) throw new Error("the server's chat template ends this answer differently from an empty one");
  let sum = 0;
  const end = a.ids.length - trailer + 1;
  for (let i = p; i < end; i++) sum += a.logprobs[i]!;
  return { sum, tokens: end - p };
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
          return answerSlice(g, e, await this.tokens(msgs, a, it.imagePath));
        } catch (err) {
          if (err instanceof FatalBackendError) throw err;
          return asError(err);
        }
      }),
    );
    const byText = new Map(distinct.map((a, i) => [a, scored[i]!]));
    return it.answers.map((a) => byText.get(a)!);
  }

  /** The prompt tokens of the conversation with the answer as the assistant turn (null: with the generation prompt). */
  private tokens(msgs: ChatCompletionMessageParam[], answer: string | null, affinity: string): Promise<PromptTokens> {
    return this.pool.request(
      async (client: OpenAI) => {
        const body = {
          model: this.b.model,
          messages: answer === null ? msgs : [...msgs, { role: 'assistant' as const, content: answer }],
          max_tokens: 1,
          temperature: 0,
          // vLLM's extra fields: the prompt tokens' own log-probs, and no generation prompt after the answer.
          prompt_logprobs: 0,
          add_generation_prompt: answer === null,
        };
        const r = (await client.chat.completions.create(body as Parameters<typeof client.chat.completions.create>[0])) as ChatCompletion;
        firstChoice(r);
        const t = readPromptLogprobs(r);
        if (!t) {
          // A server that ignores the field is a setting to change, not a fault to retry (unless it gave them before).
          if (!this.sawPromptLogprobs) throw this.pool.stopWith(new FatalBackendError(this.pool.redact(noPromptLogprobsMessage(this.pool.role, displayUrl(client.baseURL), this.b.model))));
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

  async close(): Promise<void> {}
}
