// Chat messages as every server backend sends them, and the one check every response gets.
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { BadResponseError } from '../errors.js';
import type { Turn } from '../types.js';

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
