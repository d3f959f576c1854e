// The judges of `rlaifv compare`: which of two answers to the same prompt is better.
// - truth: the shapes checker (fewer false claims wins, then more true claims);
// - claims: rlaifv's own divider and labeler, no truth (fewer rejected claims wins, then more accepted claims);
// - a served VLM asked ConvBench's pairwise question ("Overall, Response X is better"), with the image.
import { createHash } from 'node:crypto';
import type { OpenAIBackend } from '../../../config/schema.js';
import { parseModelAtUrl } from '../../../config/model-url.js';
import { ConfigError } from '../../../config/load.js';
import { FatalBackendError } from '../../../backends/errors.js';
import { fillTemplate } from '../../../backends/openai/index.js';
import { OpenAIJudge } from '../../../backends/openai/judge.js';
import { judgeContext } from '../../../methods/pair-judge.js';
import type { Turn } from '../../../domain.js';

/** What `--judge` / `loop.judge` names. */
export type JudgeSpec = { type: 'truth' } | { type: 'claims' } | { type: 'served'; backend: OpenAIBackend };

/**
 * Reads a judge: "truth", "claims", or MODEL@URL (a served VLM at an OpenAI-compatible base URL ending in /v1).
 * @example parseJudgeSpec('judge-34b@http://10.0.0.5:8000/v1') // { type: 'served', backend: { model: 'judge-34b', base_urls: [...] } }
 */
export function parseJudgeSpec(s: string, field = '--judge', apiKeyEnv?: string): JudgeSpec {
  if (s === 'truth' || s === 'claims') return { type: s };
  const backend = parseModelAtUrl(s, field, apiKeyEnv);
  if (!backend) throw new ConfigError(`${field}: "${s}" is not a judge: use truth, claims, or MODEL@URL (a served VLM, e.g. judge@http://127.0.0.1:8000/v1).`);
  return { type: 'served', backend };
}

/** A judge's name as results print it. */
export function judgeName(j: JudgeSpec): string {
  return j.type === 'served' ? `${j.backend.model}@${j.backend.base_urls.join(',')}` : j.type;
}

/** An answer as the deterministic judges read it: a key compared lexicographically (larger is better). */
export type AnswerKey = readonly number[];

/** Which of two keys is better: 'first', 'second', or 'tie' when equal. */
export function compareKeys(first: AnswerKey, second: AnswerKey): 'first' | 'second' | 'tie' {
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    const d = (first[i] ?? 0) - (second[i] ?? 0);
    if (d > 0) return 'first';
    if (d < 0) return 'second';
  }
  return 'tie';
}

/**
 * ConvBench's pairwise grading prompt (its appendix, Fig. 17), for one turn with the image attached in place of its
 * annotated image description: {context} (earlier turns, if any), {question}, {response_a}, {response_b}.
 */
export const COMPARE_PROMPT = `You are ImageTaskEvaluationGPT, an expert language model at judging whether or not a response adequately addresses an instruction in the context of an image. You will be given the image, the user's instruction and two responses from two AI assistants (AI assistant A and AI assistant B).

Your job is to judge whether the response from Assistant A or the response from Assistant B is better. A and B are randomly ordered.

Some things to remember:

- You should choose the assistant that follows the user's instruction and answers the user's question better.
- You are capable of judging response quality, accounting for important factors like correctness, relevance, fluency etc.
- Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision.
- Do not allow the length of the responses to influence your evaluation.
- Do not favor certain names of the assistants. Be as objective as possible.
- You think step-by-step, but ultimately respond with "Response A" or "Response B".

{context}

<[The Start of Assistant A's Conversation with User]>

### The question from user:

{question}

### The response from Assistant A:

{response_a}

<[The End of Assistant A's Conversation with User]>

<[The Start of Assistant B's Conversation with User]>

### The question from user:

{question}

### The response from Assistant B:

{response_b}

<[The End of Assistant B's Conversation with User]>

Think step-by-step, compare the responses from the two assistants, and finish your response with "Overall, Response X is better," where X is either A or B.`;

/** The second prompt for a reply the first parse could not read (ConvBench extracts its verdicts the same way): {reply}. */
export const COMPARE_EXTRACT_PROMPT = `Below is a judge's comparison of two responses, Response A and Response B.

{reply}

Which response did the judge choose in the end? Answer with exactly one line: "Overall, Response A is better" or "Overall, Response B is better".`;

/**
 * The verdict of a pairwise reply: the last "Overall, Response X is better" (markdown emphasis allowed), as shown:
 * 'first' for A, 'second' for B; null when there is none.
 * @example parseCompareVerdict('… Therefore, "Overall, Response B is better."') // 'second'
 */
export function parseCompareVerdict(reply: string): 'first' | 'second' | null {
  const all = [...reply.matchAll(/Overall,?\s*[*_"]*\s*Response\s*[*_"]*\s*([AB])\b\s*[*_"]*\s+is\s+(?:the\s+)?better/gi)];
  const last = all.at(-1);
  if (!last) return null;
  return last[1]!.toUpperCase() === 'A' ? 'first' : 'second';
}

/** A pairwise prompt as the served judge sees it. */
export interface JudgedComparison {
  imagePath: string;
  question: string;
  history: readonly Turn[];
  first: string;
  second: string;
}

/** A served VLM judging two answers in one order. */
export class ServedCompareJudge {
  /** The model and a hash of the prompts (stored with each verdict). */
  readonly id: string;
  private readonly judge: OpenAIJudge;
  constructor(readonly backend: OpenAIBackend) {
    this.judge = new OpenAIJudge(backend, { temperature: 0, maxTokens: 1024 }, 'compare');
    const h = createHash('sha256').update(JSON.stringify([COMPARE_PROMPT, COMPARE_EXTRACT_PROMPT])).digest('hex').slice(0, 12);
    this.id = `${backend.model}|convbench:${h}`;
  }

  get pool() {
    return this.judge.pool;
  }

  prompt(c: JudgedComparison): string {
    return fillTemplate(COMPARE_PROMPT, {
      context: judgeContext(c.history),
      question: c.question,
      response_a: c.first.trim(),
      response_b: c.second.trim(),
    }).replace(/\n{3,}/g, '\n\n');
  }

  /**
   * One order's verdict at temperature 0; a reply without "Overall, Response X is better" gets the extraction prompt
   * once. Server faults are retried by the endpoint pool; a fatal one (bad key, unknown model) throws.
   */
  async decide(c: JudgedComparison): Promise<{ winner: 'first' | 'second'; reply: string; attempts: number } | { error: string; reply?: string }> {
    try {
      const reply = await this.judge.complete(c.imagePath, this.prompt(c), 0);
      const v = parseCompareVerdict(reply);
      if (v) return { winner: v, reply, attempts: 1 };
      const extracted = await this.judge.complete(c.imagePath, fillTemplate(COMPARE_EXTRACT_PROMPT, { reply: reply.trim() }), 0);
      const v2 = parseCompareVerdict(extracted);
      const both = `${reply}\n--- extraction ---\n${extracted}`;
      if (v2) return { winner: v2, reply: both, attempts: 2 };
      return { error: 'compare judge: no "Overall, Response X is better" in the reply or in the extraction reply', reply: both };
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { error: `compare judge: ${(e as Error).message}` };
    }
  }
}
