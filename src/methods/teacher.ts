// The `refine` editor's served teacher (pair.refine.teacher): FIRE's teacher prompt (Fig. A15) on an OpenAI-compatible
// server, given the question, a reference answer and the student's response; its reply "Score: N / Feedback: …" is
// the teacher's turn of the dialogue, in the same layout as the verdict teacher's.
import { createHash } from 'node:crypto';
import type { TeacherConfig } from '../config/schema.js';
import { FatalBackendError } from '../backends/errors.js';
import { fillTemplate } from '../backends/openai/index.js';
import { OpenAIJudge } from '../backends/openai/judge.js';

/** A teacher's turn parsed from a reply: its score 1–10 and its feedback text. */
export interface TeacherReply {
  score: number;
  feedback: string;
}

/**
 * The teacher's turn in a reply: the first "Score: N" (N 1–10, "N/10" too), and the text after "Feedback:" (else the
 * reply without its score line); null without a score, or with no feedback text.
 * @example parseTeacherReply('Score: 6\nFeedback: The circle is not blue.') // { score: 6, feedback: 'The circle is not blue.' }
 */
export function parseTeacherReply(reply: string): TeacherReply | null {
  const m = /\*{0,2}Score\*{0,2}\s*:\s*\*{0,2}\s*(10|[1-9])(?:\s*\/\s*10)?(?!\d)/i.exec(reply);
  if (!m) return null;
  const f = /\*{0,2}Feedback\*{0,2}\s*:\s*\*{0,2}\s*([\s\S]*)$/i.exec(reply);
  const feedback = (f ? f[1]! : reply.slice(0, m.index) + reply.slice(m.index + m[0].length)).replace(/\s+/g, ' ').trim();
  return feedback === '' ? null : { score: Number(m[1]), feedback };
}

/** A served teacher; `turn` is the text the student gets ("Score: N\nFeedback: …"). */
export type TeacherTurn = { turn: string; score: number; attempts: number } | { error: string; raw?: string };

/** FIRE's teacher on a server. */
export class Teacher {
  /** The model and a hash of the prompt template. */
  readonly id: string;
  private readonly model: OpenAIJudge;
  constructor(private readonly cfg: TeacherConfig) {
    this.model = new OpenAIJudge(cfg.backend, { temperature: cfg.temperature, maxTokens: cfg.max_tokens }, 'pair');
    this.id = `${cfg.backend.model}|fire-teacher:${createHash('sha256').update(cfg.prompt).digest('hex').slice(0, 12)}`;
  }

  /** The teacher's endpoint pool (usage, preflight). */
  get pool() {
    return this.model.pool;
  }

  /** The prompt for one student response. */
  prompt(question: string, reference: string, answer: string): string {
    return fillTemplate(this.cfg.prompt, { question, reference: reference.trim(), answer: answer.trim() });
  }

  /**
   * The teacher's turn on a response: a reply without a score is asked again (content_retries), then is a failure
   * with the raw reply. Server faults are retried by the pool; a fatal one throws.
   */
  async comment(imagePath: string, question: string, reference: string, answer: string): Promise<TeacherTurn> {
    let r;
    try {
      r = await this.model.completeParsed(imagePath, this.prompt(question, reference, answer), this.cfg.content_retries, parseTeacherReply);
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { error: `teacher: ${(e as Error).message}` };
    }
    if (r.value === null) return { error: `teacher: the reply holds no "Score: N" (1–10) after ${this.cfg.content_retries + 1} attempts`, raw: r.reply };
    return { turn: `Score: ${r.value.score}\nFeedback: ${r.value.feedback}`, score: r.value.score, attempts: r.attempts };
  }
}
