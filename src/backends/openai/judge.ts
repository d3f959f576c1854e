// A generative judge on an OpenAI-compatible server: one chat completion with the image and a prompt, the reply's
// text returned (the holistic method parses its last line; the quality gate's pair judge its "N/10").
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { OpenAIBackend } from '../../config/schema.js';
import { BadResponseError, EndpointPool } from './endpoints.js';
import { imageUrl } from './images.js';
import { firstChoice, noContent, userMessage } from './messages.js';
import { samplingFields } from './server-kind.js';

/** A served VLM asked for free text (Table 13's rubric, Anyprefer's pair rating) instead of a one-token yes/no. */
export class OpenAIJudge {
  readonly id: string;
  readonly pool: EndpointPool;
  constructor(
    private readonly b: OpenAIBackend,
    private readonly opts: { temperature: number; maxTokens: number },
    role = 'score',
  ) {
    this.pool = new EndpointPool(role, b);
    this.id = b.model;
  }

  /** The reply to `prompt` about the image; attempt > 0 samples again (at temperature 0 a server repeats itself). */
  async complete(imagePath: string, prompt: string, attempt: number): Promise<string> {
    const url = await imageUrl(imagePath);
    return this.pool.request(
      async (http, shape) => {
        const r: ChatCompletion = await http.chat({
          model: this.b.model,
          messages: userMessage(url, prompt),
          seed: attempt,
          ...samplingFields(shape, { temperature: attempt === 0 ? this.opts.temperature : Math.max(this.opts.temperature, 0.7), max_tokens: this.opts.maxTokens }),
        });
        const c = firstChoice(r);
        if (typeof c.message?.content !== 'string') throw new BadResponseError(noContent(c));
        return { value: c.message.content, usage: r.usage };
      },
      { affinity: imagePath },
    );
  }

  /**
   * Asks until `parse` reads the reply: the first attempt, then `retries` more sampled anew. Returns the parsed value
   * with its reply and the attempts it took, or null with the last reply (server faults throw, after the pool's retries).
   */
  async completeParsed<T>(
    imagePath: string,
    prompt: string,
    retries: number,
    parse: (reply: string) => T | null,
  ): Promise<{ value: T; reply: string; attempts: number } | { value: null; reply: string }> {
    let reply = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      reply = await this.complete(imagePath, prompt, attempt);
      const value = parse(reply);
      if (value !== null) return { value, reply, attempts: attempt + 1 };
    }
    return { value: null, reply };
  }
}
