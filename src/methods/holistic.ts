// Holistic feedback (RLAIF-V supplement Table 13, the self-rewarding baseline): the labeler judges a whole answer.
// A generative labeler on a server gets the Table 13 rubric prompts verbatim and the score is its reply's last line
// (the sum over the configured aspects, 0–3 each). The tiny local labeler can only answer yes or no: its holistic
// judgement is p(yes) of one yes/no question about the whole answer, a much weaker signal, kept for what it is.
import { KnowledgeContext } from '../tools/context.js';
import type { Tool } from '../tools/types.js';
import type { FeedbackConfig } from '../config/schema.js';
import type { Labeler } from '../backends/types.js';
import { FatalBackendError } from '../backends/errors.js';
import { fillTemplate } from '../backends/openai/index.js';
import type { OpenAIJudge } from '../backends/openai/judge.js';
import type { FeedbackMethod, MethodAnswer, MethodPrompt, MethodScore } from './types.js';

/**
 * The score of a rubric reply: its last non-empty line must be one score 0–3 and nothing else (markdown emphasis, a
 * "Score:" label and a "/3" are tolerated); null otherwise.
 * @example parseRubricScore('The answer names a star that is not there.\n1') // 1
 */
export function parseRubricScore(reply: string): number | null {
  const last = reply.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1);
  if (last === undefined) return null;
  const m = /^[\s*_`#>"'([]*(?:(?:total\s+|final\s+)?score\s*(?:is)?\s*[:=]?\s*)?([0-3])(?:\s*(?:\/|out of)\s*3)?[\s*_`"')\].]*$/i.exec(last);
  return m ? Number(m[1]) : null;
}

/** The rubric method for a generative labeler on a server. */
export class RubricHolistic implements FeedbackMethod {
  readonly name = 'holistic' as const;
  readonly scorer: string;
  readonly promptsPerCall = 1;
  readonly concurrency: number;
  private readonly knowledge: KnowledgeContext;
  constructor(
    private readonly judge: OpenAIJudge,
    private readonly cfg: FeedbackConfig['holistic'],
    tools: readonly Tool[] = [],
  ) {
    // Tool knowledge fills a rubric prompt's {context} (Anyprefer); Table 13's own prompts have none, so it is only
    // sent, and only part of the scorer's identity, when a configured prompt asks for it.
    const asks = cfg.aspects.some((a) => cfg.prompts[a].includes('{context}'));
    this.knowledge = new KnowledgeContext(asks ? tools : []);
    this.scorer = `${judge.id}|table13:${cfg.aspects.join('+')}` + (asks && tools.length ? `|tools:${tools.map((t) => t.id).join('+')}` : '');
    this.concurrency = Math.max(1, judge.pool.capacity);
  }

  /** The judge's endpoint pool (the method runs on servers: usage, preflight and concurrency come from it). */
  get pool() {
    return this.judge.pool;
  }

  async score(items: { prompt: MethodPrompt; answers: MethodAnswer[] }[]): Promise<MethodScore[][]> {
    return Promise.all(items.map(({ prompt, answers }) => Promise.all(answers.map((a) => this.one(prompt, a)))));
  }

  private async one(prompt: MethodPrompt, a: MethodAnswer): Promise<MethodScore> {
    const aspects: Record<string, { score: number; reply: string; attempts: number }> = {};
    try {
      const context = await this.knowledge.of(prompt.imagePath);
      for (const aspect of this.cfg.aspects) {
        const text = fillTemplate(this.cfg.prompts[aspect], { question: prompt.question, answer: a.text, context });
        const r = await this.judge.completeParsed(prompt.imagePath, text, this.cfg.content_retries, parseRubricScore);
        if (r.value === null) {
          return {
            candidateId: a.id,
            error: `holistic ${aspect}: the reply's last line is not a score 0–3 after ${this.cfg.content_retries + 1} attempts`,
            raw: r.reply,
          };
        }
        aspects[aspect] = { score: r.value, reply: r.reply, attempts: r.attempts };
      }
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { candidateId: a.id, error: `holistic: ${(e as Error).message}` };
    }
    return { candidateId: a.id, value: Object.values(aspects).reduce((s, x) => s + x.score, 0), evidence: { aspects } };
  }

  async close(): Promise<void> {}
}

/** The yes/no method for a labeler that answers only yes or no (the local one): p(yes) of one whole-answer question. */
export class YesNoHolistic implements FeedbackMethod {
  readonly name = 'holistic' as const;
  readonly scorer: string;
  readonly promptsPerCall = 8;
  constructor(
    private readonly labeler: Labeler,
    private readonly question: string,
    readonly concurrency: number,
  ) {
    this.scorer = `${labeler.id}|holistic:${JSON.stringify(question)}`;
  }

  async score(items: { prompt: MethodPrompt; answers: MethodAnswer[] }[]): Promise<MethodScore[][]> {
    const questions = items.map(({ prompt, answers }) =>
      answers.map((a) => fillTemplate(this.question, { question: prompt.question, answer: a.text.trim() })),
    );
    const groups = items.map((it, i) => ({ imagePath: it.prompt.imagePath, questions: questions[i]! }));
    const res = this.labeler.labelImages && groups.length > 1
      ? await this.labeler.labelImages(groups)
      : await Promise.all(groups.map((g) => this.labeler.label(g.imagePath, g.questions)));
    return items.map(({ answers }, i) =>
      answers.map((a, k): MethodScore => {
        const r = res[i]?.[k];
        if (!r || r.error) return { candidateId: a.id, error: `holistic: ${r?.error ?? 'the labeler gave no result'}` };
        return { candidateId: a.id, value: r.pYes, evidence: { question: questions[i]![k], p_yes: r.pYes, p_no: r.pNo } };
      }),
    );
  }

  async close(): Promise<void> {}
}
