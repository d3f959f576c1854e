// Backends on OpenAI-compatible servers (vLLM, SGLang, OpenAI): the policy, the LLM divider and the labeler.
import type { LlmDividerBackend, OpenAIBackend } from '../../config/schema.js';
import { yesNoFromTopLogprobs } from '../../feedback/yes-no.js';
import { cutWords } from '../../feedback/words.js';
import { locateSentences } from '../../feedback/claim-spans.js';
import type { DivideOutput, Divider, GenerateRequest, GenerateResult, Generator, LabelResult, Labeler } from '../types.js';
import { parseBullets } from './bullets.js';
import { BadResponseError, EndpointPool, FatalBackendError, type UsageCounts } from './endpoints.js';
import { imageUrl } from './images.js';
import { conversation, firstChoice, noContent, tokenTexts, userMessage } from './messages.js';
import { samplingFields } from './server-kind.js';

export { EndpointPool, FatalBackendError, BadResponseError } from './endpoints.js';

/** A backend whose calls go to servers: how many tasks keep them busy, and what it has used. */
export interface RemoteBackend {
  readonly pool: EndpointPool;
}

/** True for backends that run on servers. */
export function isRemote(b: unknown): b is RemoteBackend {
  return !!b && typeof b === 'object' && (b as { pool?: unknown }).pool instanceof EndpointPool;
}

/** The policy on a server: one request per sample, each with the sample's seed. */
export class OpenAIGenerator implements Generator {
  readonly id: string;
  readonly pool: EndpointPool;
  constructor(private readonly b: OpenAIBackend) {
    this.pool = new EndpointPool('generate', b);
    this.id = b.model;
  }
  async generate(req: GenerateRequest): Promise<GenerateResult[]> {
    const url = await imageUrl(req.imagePath);
    return Promise.all(
      req.samples.map(async (s): Promise<GenerateResult> => {
        try {
          return await this.pool.request(
            async (http, shape, endpoint) => {
              // The whole decoding goes with every sample, so a server's defaults (generation_config.json) can't change it,
              // except where a server caps max_tokens with them (some vLLM releases): the generate stage's guard sees that.
              const r = await http.chat({
                model: this.b.model,
                messages: conversation(url, req.question, req.history),
                n: 1,
                seed: s.seed,
                ...samplingFields(shape, { temperature: req.decoding.temperature, top_p: req.decoding.top_p, max_tokens: req.decoding.max_new_tokens }),
              });
              const c = firstChoice(r);
              if (typeof c.message?.content !== 'string') throw new BadResponseError(noContent(c));
              return {
                value: {
                  index: s.index,
                  seed: s.seed,
                  text: c.message.content,
                  finishReason: c.finish_reason ?? 'unknown',
                  promptTokens: r.usage?.prompt_tokens ?? null,
                  completionTokens: r.usage?.completion_tokens ?? null,
                  endpoint,
                },
                usage: r.usage,
              };
            },
            { affinity: req.imagePath },
          );
        } catch (e) {
          if (e instanceof FatalBackendError) throw e;
          return { index: s.index, seed: s.seed, error: (e as Error).message };
        }
      }),
    );
  }
  stopEndpoint(endpoint: string, reason: string): void {
    this.pool.stop(endpoint, reason);
  }
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** The labeler on a server: a 1-token greedy completion with top_logprobs; p_yes/p_no from the listed tokens. */
export class OpenAILabeler implements Labeler {
  readonly id: string;
  readonly pool: EndpointPool;
  private sawLogprobs = false;
  constructor(
    private readonly b: OpenAIBackend,
    private readonly suffix: string,
    private readonly topLogprobs: number,
  ) {
    // A reasoning model would start with <think>: the labeler wants its answer as the first token.
    this.pool = new EndpointPool('label', b, { chatTemplateKwargs: { enable_thinking: false } });
    // The same id scheme as the local labeler: the model and the exact question template.
    this.id = `${b.model}|${JSON.stringify(suffix)}`;
  }
  async label(imagePath: string, questions: string[]): Promise<LabelResult[]> {
    const url = await imageUrl(imagePath);
    // All of an image's questions go out together (and to the same endpoint when possible): the server's prefix
    // cache then reuses the encoded image.
    return Promise.all(questions.map((q) => this.one(url, imagePath, q)));
  }
  private async one(url: string, imagePath: string, question: string): Promise<LabelResult> {
    try {
      return await this.pool.request(
        async (http, shape) => {
          // Greedy with top_p 1: the first token's distribution as the model gives it (SGLang returns log-probs after
          // top-p when its batch samples). vLLM: token texts, not "token_id:N", whatever the server's default.
          const r = await http.chat({
            model: this.b.model,
            messages: userMessage(url, question + this.suffix),
            ...samplingFields(shape, { temperature: 0, top_p: 1, max_tokens: 1 }),
            logprobs: true,
            top_logprobs: this.topLogprobs,
            ...(shape.kind === 'vllm' ? { return_tokens_as_token_ids: false } : {}),
          });
          const c = firstChoice(r);
          const top = c.logprobs?.content?.[0]?.top_logprobs;
          if (!Array.isArray(top) || top.length === 0) {
            throw new BadResponseError('the response has no logprobs (choices[0].logprobs.content[0].top_logprobs)');
          }
          this.sawLogprobs = true;
          const yn = yesNoFromTopLogprobs(await tokenTexts(top, http, this.b.model));
          return { value: { pYes: yn.pYes, pNo: yn.pNo, top: yn.top, boundUsed: yn.boundUsed }, usage: r.usage };
        },
        { affinity: imagePath },
      );
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      const msg = (e as Error).message;
      if (!this.sawLogprobs && /no logprobs/.test(msg)) {
        throw this.pool.stopWith(new FatalBackendError(
          `label endpoint(s) ${this.pool.shownUrls.join(', ')} never returned logprobs for model "${this.b.model}"; ` +
            `the labeler needs logprobs: true with top_logprobs (vLLM and SGLang support them; start vLLM with --max-logprobs ≥ label.top_logprobs).`,
        ));
      }
      return { pYes: null, pNo: null, top: [], boundUsed: false, error: msg };
    }
  }
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Fills {name} placeholders in one pass (text put in is never filled again). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? values[k]! : m));
}

/** The LLM divider: the paper's split call, then its convert call, with a count check between claims and questions. */
export class LlmDivider implements Divider {
  readonly id: string;
  readonly pool: EndpointPool;
  constructor(
    private readonly b: LlmDividerBackend,
    private readonly maxWords: number | null,
  ) {
    this.pool = new EndpointPool('divide', b);
    this.id = `llm:${b.model}`;
  }

  divide(items: { question: string; answer: string }[]): Promise<DivideOutput[]> {
    return Promise.all(items.map((it) => this.one(it.question, it.answer)));
  }

  private async complete(prompt: string, attempt: number): Promise<string> {
    return this.pool.request(async (http, shape) => {
      const r = await http.chat({
        model: this.b.model,
        messages: userMessage(null, prompt),
        seed: attempt,
        // A retry after unusable output samples again (at temperature 0 the server would repeat itself).
        ...samplingFields(shape, { temperature: attempt === 0 ? this.b.temperature : Math.max(this.b.temperature, 0.7), max_tokens: this.b.max_tokens }),
      });
      const c = firstChoice(r);
      if (typeof c.message?.content !== 'string') throw new BadResponseError(noContent(c));
      return { value: c.message.content, usage: r.usage };
    });
  }

  private async one(question: string, answer: string): Promise<DivideOutput> {
    const { text, truncated } = cutWords(answer, this.maxWords);
    try {
      let claims: string[] | null = null;
      let raw = '';
      for (let a = 0; a <= this.b.content_retries && claims === null; a++) {
        raw = await this.complete(fillTemplate(this.b.split_prompt, { question, answer: text }), a);
        const p = parseBullets(raw, /facts/i);
        // No bullets is a valid "no facts" only when the model kept the format's header.
        if (p.items.length > 0 || p.header) claims = p.items;
      }
      if (claims === null) return { error: `split: no "- fact" bullets in the output after ${this.b.content_retries + 1} attempts`, raw };
      if (claims.length === 0) return { claims: [], skipped: [], truncated };
      let questions: string[] | null = null;
      let got = 0;
      const list = claims.map((c) => `- ${c}`).join('\n');
      for (let a = 0; a <= this.b.content_retries && questions === null; a++) {
        raw = await this.complete(fillTemplate(this.b.convert_prompt, { claims: list }), a);
        const p = parseBullets(raw, /modified/i);
        got = p.items.length;
        // Never zip-truncate: a different count means the questions can't be matched to their claims.
        if (p.items.length === claims.length) questions = p.items;
      }
      if (questions === null) {
        return {
          error: `convert: ${got} questions for ${claims.length} claims after ${this.b.content_retries + 1} attempts`,
          raw,
        };
      }
      const qs = questions;
      // A fact the LLM copied from the answer has its place there; a rewritten one has none.
      const spans = locateSentences(text, claims);
      return {
        claims: claims.map((c, i) => ({ sentence: c, claim: c, question: qs[i]!, start: spans[i]?.start ?? null, end: spans[i]?.end ?? null })),
        skipped: [],
        truncated,
      };
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { error: (e as Error).message };
    }
  }
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Usage counts of every remote backend, flattened. */
export function takeUsage(backends: unknown[]): { stage: string; endpoint: string; counts: UsageCounts }[] {
  return backends.filter(isRemote).flatMap((b) => b.pool.takeUsage());
}
