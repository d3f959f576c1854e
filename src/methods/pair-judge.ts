// The quality gate's judge model (Anyprefer's surrogate reward model, its Appendix D.2): a generative VLM on a server
// rates a candidate pair 1–10 for its use in preference training, and the pair's confidence is score/10. It judges any
// feedback method's pairs (divide's own gate reads its claims' probabilities instead; feedback/gate.ts).
import { createHash } from 'node:crypto';
import type { GateJudgeConfig } from '../config/schema.js';
import type { Turn } from '../domain.js';
import { FatalBackendError } from '../backends/errors.js';
import { fillTemplate } from '../backends/openai/index.js';
import { OpenAIJudge } from '../backends/openai/judge.js';
import { KnowledgeContext } from '../tools/context.js';
import type { Tool } from '../tools/types.js';

/**
 * The score of a judge's reply: the last "N/10" in it, N an integer 1–10 (as the prompt asks: "in the format of
 * score/10"); null when there is none.
 * @example parseJudgeScore('The negative response names a circle that is not there. Score: 8/10') // 8
 */
export function parseJudgeScore(reply: string): number | null {
  const all = [...reply.matchAll(/(?<!\d|\d\.)(10|[1-9])\s*\/\s*10(?!\d|\.\d)/g)];
  const last = all.at(-1);
  return last ? Number(last[1]) : null;
}

/** A candidate pair as the judge sees it: the prompt (image, question, earlier turns) and the two answers. */
export interface JudgedPair {
  imagePath: string;
  question: string;
  history: readonly Turn[];
  positive: string;
  negative: string;
}

/** The judge's verdict (score 1–10, the whole reply, the attempts it took), or why there is none. */
export type PairVerdict = { score: number; reply: string; attempts: number } | { error: string; raw?: string };

/**
 * The prompt's {context}: the earlier turns of a conversation, and the knowledge tools' findings about the image
 * (label.tools; Anyprefer's knowledge base); empty for a single-turn prompt without tools.
 */
export function judgeContext(history: readonly Turn[], knowledge = ''): string {
  const turns = history.length === 0 ? '' : `Conversation so far:\n${history.map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.content}`).join('\n')}`;
  return [knowledge, turns].filter((x) => x !== '').join('\n\n');
}

/** Anyprefer's reward model on an OpenAI-compatible server, rating candidate pairs for the quality gate. */
export class PairJudge {
  /** The model and a hash of the prompt as filled for every pair (stored with each verdict). */
  readonly id: string;
  readonly concurrency: number;
  private readonly judge: OpenAIJudge;
  private readonly knowledge: KnowledgeContext;
  constructor(
    private readonly cfg: GateJudgeConfig,
    tools: readonly Tool[] = [],
  ) {
    this.judge = new OpenAIJudge(cfg.backend, { temperature: cfg.temperature, maxTokens: cfg.max_tokens }, 'pair');
    this.knowledge = new KnowledgeContext(tools);
    // Tools change the prompt as filled, so they are part of the judge's identity (rounds before tools keep theirs).
    const key = [cfg.prompt, cfg.task_field, cfg.examples, ...(tools.length ? [tools.map((t) => t.id)] : [])];
    const h = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 12);
    this.id = `${cfg.backend.model}|anyprefer:${h}`;
    this.concurrency = Math.max(1, this.judge.pool.capacity);
  }

  /** The judge's endpoint pool (usage, preflight and concurrency come from it). */
  get pool() {
    return this.judge.pool;
  }

  /** The prompt the judge gets for a pair (runs of blank lines left by empty fields are closed up). */
  prompt(p: JudgedPair, knowledge = ''): string {
    const filled = fillTemplate(this.cfg.prompt, {
      task_field: this.cfg.task_field,
      examples: this.cfg.examples,
      context: judgeContext(p.history, knowledge),
      query: p.question,
      positive: p.positive.trim(),
      negative: p.negative.trim(),
    });
    return filled.replace(/\n{3,}/g, '\n\n');
  }

  /**
   * Rates a pair: a reply without an "N/10" is asked again (content_retries, sampling at T 0.7), then is a failure
   * with the raw reply. Server faults are retried by the endpoint pool; a fatal one (bad key, unknown model) throws.
   */
  async rate(p: JudgedPair): Promise<PairVerdict> {
    let r: { value: number; reply: string; attempts: number } | { value: null; reply: string };
    try {
      const prompt = this.prompt(p, await this.knowledge.of(p.imagePath));
      r = await this.judge.completeParsed(p.imagePath, prompt, this.cfg.content_retries, parseJudgeScore);
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { error: `gate judge: ${(e as Error).message}` };
    }
    if (r.value === null) return { error: `gate judge: the reply holds no score "N/10" after ${this.cfg.content_retries + 1} attempts`, raw: r.reply };
    return { score: r.value, reply: r.reply, attempts: r.attempts };
  }
}
