// The `llm` correction editor (pair.corrections): a served VLM rewrites an answer, told which of its claims the labeler
// rejected, with a minimal-edit prompt in OPA-DPO's shape (keep every other sentence verbatim). Its edit list is the
// sentence-level difference between the answer and the rewrite.
import { createHash } from 'node:crypto';
import type { RewriterConfig } from '../config/schema.js';
import { FatalBackendError } from '../backends/errors.js';
import { fillTemplate } from '../backends/openai/index.js';
import { OpenAIJudge } from '../backends/openai/judge.js';
import { splitSentences } from '../divide/sentences.js';
import type { Edit } from '../feedback/corrections.js';

/** The rewrite, or why there is none (with the raw reply when the model answered). */
export type Rewrite = { text: string; attempts: number } | { error: string; raw?: string };

/**
 * The rewritten answer in a reply: trimmed, without a leading label ("Rewritten answer:", "Revised answer:") or
 * enclosing quotes; null when nothing is left.
 * @example parseRewrite('Revised answer: "There is a red circle."') // 'There is a red circle.'
 */
export function parseRewrite(reply: string): string | null {
  let t = reply.trim().replace(/^(?:here is (?:the|my) )?(?:rewritten|revised|corrected)(?: answer)?\s*:\s*/i, '');
  const q = /^(["“])([\s\S]*)(["”])$/.exec(t);
  if (q) t = q[2]!;
  t = t.trim();
  return t === '' ? null : t;
}

/** A served rewriter for the `llm` editor. */
export class Rewriter {
  /** The model and a hash of the prompt template (the editor's identity in failures and usage). */
  readonly id: string;
  readonly concurrency: number;
  private readonly model: OpenAIJudge;
  constructor(private readonly cfg: RewriterConfig) {
    this.model = new OpenAIJudge(cfg.backend, { temperature: cfg.temperature, maxTokens: cfg.max_tokens }, 'pair');
    this.id = `${cfg.backend.model}|rewrite:${createHash('sha256').update(cfg.prompt).digest('hex').slice(0, 12)}`;
    this.concurrency = Math.max(1, this.model.pool.capacity);
  }

  /** The rewriter's endpoint pool (usage, preflight). */
  get pool() {
    return this.model.pool;
  }

  /** The prompt for one answer and its rejected claims. */
  prompt(question: string, answer: string, claims: readonly string[]): string {
    return fillTemplate(this.cfg.prompt, { question, answer: answer.trim(), claims: claims.map((c) => `- ${c}`).join('\n') });
  }

  /**
   * Rewrites `answer`: an empty reply is asked again (content_retries), then is a failure with the raw reply; a reply
   * that is the answer unchanged is a failure too. Server faults are retried by the pool; a fatal one throws.
   */
  async rewrite(imagePath: string, question: string, answer: string, claims: readonly string[]): Promise<Rewrite> {
    let r;
    try {
      r = await this.model.completeParsed(imagePath, this.prompt(question, answer, claims), this.cfg.content_retries, parseRewrite);
    } catch (e) {
      if (e instanceof FatalBackendError) throw e;
      return { error: `rewriter: ${(e as Error).message}` };
    }
    if (r.value === null) return { error: `rewriter: an empty reply after ${this.cfg.content_retries + 1} attempts`, raw: r.reply };
    if (r.value === answer.trim()) return { error: 'rewriter: the reply is the answer unchanged', raw: r.reply };
    return { text: r.value, attempts: r.attempts };
  }
}

/**
 * The edit list from an answer to its rewrite, sentence by sentence (the longest common subsequence of sentences
 * stays): each run of changed sentences is one edit at the first changed sentence's index, its old sentences joined,
 * its new ones joined (null: removed). `rejected` maps a sentence of the answer to its rejected claims' ids.
 * @example sentenceEdits('A b. C d.', 'A b. E f.', new Map()) // [{ sentence: 1, old: 'C d.', new: 'E f.', claim_ids: [] }]
 */
export function sentenceEdits(answer: string, rewrite: string, rejected: ReadonlyMap<string, string[]>): Edit[] {
  const a = splitSentences(answer);
  const b = splitSentences(rewrite);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  let run: { start: number; old: string[]; new: string[] } | null = null;
  const close = () => {
    if (run && (run.old.length || run.new.length)) {
      const ids = run.old.flatMap((s) => rejected.get(s) ?? []);
      edits.push({ sentence: run.start, old: run.old.join(' '), new: run.new.length ? run.new.join(' ') : null, claim_ids: ids });
    }
    run = null;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      close();
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      run ??= { start: i, old: [], new: [] };
      run.new.push(b[j++]!);
    } else {
      run ??= { start: i, old: [], new: [] };
      run.old.push(a[i++]!);
    }
  }
  close();
  return edits;
}
