// Chat messages as every server backend sends them, and the one check every response gets.
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { BadResponseError } from '../errors.js';
import type { Turn } from '../../domain.js';

/** One user message: the image (a URL or data URL) first when there is one, then the text. */
export function userMessage(image: string | null, text: string) {
  const content: ChatCompletionContentPart[] = [];
  if (image) content.push({ type: 'image_url', image_url: { url: image } });
  content.push({ type: 'text', text });
  return [{ role: 'user' as const, content }];
}

/** The whole conversation as chat messages: the earlier turns, then the question; the image in the first user message. */
export function conversation(image: string | null, question: string, history: readonly Turn[] = []): ChatCompletionMessageParam[] {
  if (history.length === 0) return userMessage(image, question);
  const [first, ...rest] = history;
  return [
    ...userMessage(image, first!.content),
    ...rest.map((t) => ({ role: t.role, content: t.content })),
    { role: 'user' as const, content: question },
  ];
}

/** The first choice of a response; a response without one is a bad response (retried). */
export function firstChoice(r: ChatCompletion): ChatCompletion.Choice {
  if (!r || typeof r !== 'object' || !Array.isArray(r.choices)) throw new BadResponseError('the response has no choices');
  const c = r.choices[0];
  if (!c) throw new BadResponseError('the response has no choices');
  return c;
}

/** Why a choice has no text: a reasoning parser that took the whole reply as thinking is named, with the fix. */
export function noContent(c: ChatCompletion.Choice): string {
  const m = c.message as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  if (typeof m?.reasoning_content === 'string' || typeof m?.reasoning === 'string') {
    return (
      'the choice has only reasoning (the server\'s reasoning parser took the whole reply as thinking); set the ' +
      'backend\'s chat_template_kwargs to {"enable_thinking": false}, or raise its max tokens'
    );
  }
  return 'the choice has no message content';
}

const TOKEN_ID = /^token_id:(\d+)$/;
const detokenized = new Map<string, Map<number, string>>();

/**
 * The top tokens with their texts. A vLLM started with --return-tokens-as-token-ids names them "token_id:N" (if it
 * ignores the request's return_tokens_as_token_ids: false); those are read back through its POST /detokenize, once
 * per id and server. A token that can't be read back keeps its name (no yes/no is then found in it).
 */
export async function tokenTexts(
  top: readonly { token: string; logprob: number }[],
  client: { baseURL: string; apiKey: string | null },
  model: string,
): Promise<{ token: string; logprob: number }[]> {
  if (!top.some((t) => TOKEN_ID.test(t.token))) return top.map((t) => ({ token: t.token, logprob: t.logprob }));
  const root = client.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  let known = detokenized.get(root);
  if (!known) detokenized.set(root, (known = new Map()));
  const texts = known;
  const ids = [...new Set(top.map((t) => TOKEN_ID.exec(t.token)?.[1]).filter((x): x is string => !!x).map(Number))].filter((id) => !texts.has(id));
  await Promise.all(
    ids.map(async (id) => {
      try {
        const r = await fetch(`${root}/detokenize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(client.apiKey && client.apiKey !== 'EMPTY' ? { authorization: `Bearer ${client.apiKey}` } : {}) },
          body: JSON.stringify({ model, tokens: [id] }),
          signal: AbortSignal.timeout(10_000),
        });
        const j = (await r.json()) as { prompt?: unknown };
        if (r.ok && typeof j.prompt === 'string') texts.set(id, j.prompt);
      } catch {
        // left as "token_id:N"
      }
    }),
  );
  return top.map((t) => {
    const id = TOKEN_ID.exec(t.token)?.[1];
    return { token: id !== undefined ? (texts.get(Number(id)) ?? t.token) : t.token, logprob: t.logprob };
  });
}
