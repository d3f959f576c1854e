// The pair stage's reference log-probs (pair.reference_logprobs, OPA-DPO's on-policy point): every answer of each
// paired prompt teacher-forced under the round's policy. A pair's two sides give the trainer its reference log-probs;
// the other samples are the siblings the on-policy check ranks a chosen answer among (feedback/on-policy.ts).
import { pendingAnswerLogprobs, putAnswerLogprobs, putFailures, type AnswerLogprob, type PendingLogprob } from '../store/index.js';
import type { SequenceScorer } from '../backends/types.js';
import type { Turn } from '../domain.js';
import type { Config } from '../config/schema.js';
import type { WorkerPool } from '../backends/local/pool.js';
import { LocalSequenceScorer } from '../backends/local/index.js';
import { OpenAISequenceScorer } from '../backends/openai/sequence-scorer.js';
import { type StageContext } from './context.js';
import { timed, type ModelTime } from '../progress.js';

/** Prompts teacher-forced per call: enough for every worker to batch its part. */
const PROMPTS_PER_CALL = 16;

/**
 * The scorer of the round's policy (generate.backend) when the config asks for reference log-probs; null otherwise.
 * @example const s = referenceScorer(config, pool) // LocalSequenceScorer of models/shapes-policy
 */
export function referenceScorer(config: Config, pool: WorkerPool | null): SequenceScorer | null {
  if (!config.pair.reference_logprobs) return null;
  const g = config.generate.backend;
  return g.type === 'openai' ? new OpenAISequenceScorer(g, 'reference log-probs') : new LocalSequenceScorer(pool!, g.model);
}

/**
 * Teacher-forces the answers of the round's paired prompts (or `ctx.scope`'s) that have no log-probs under `scorer`
 * yet, prompt by prompt, and stores them; an answer that cannot be scored is a pair-stage failure (item: its id),
 * which --retry-failed takes up again. Returns how many were stored and failed, and the time in model calls.
 */
export async function runReferenceLogprobs(ctx: StageContext, scorer: SequenceScorer): Promise<{ items: number; failures: number; time: ModelTime }> {
  const time: ModelTime = { modelSeconds: 0 };
  const pending = pendingAnswerLogprobs(ctx.db, ctx.round.id, ctx.round.pair_method, scorer.id, ctx.scope);
  const byPrompt = new Map<string, PendingLogprob[]>();
  for (const p of pending) {
    let l = byPrompt.get(p.prompt_id);
    if (!l) byPrompt.set(p.prompt_id, (l = []));
    l.push(p);
  }
  const prompts = [...byPrompt.values()];
  let items = 0;
  let failures = 0;
  for (let at = 0; at < prompts.length; at += PROMPTS_PER_CALL) {
    const part = prompts.slice(at, at + PROMPTS_PER_CALL);
    const res = await timed(time, () =>
      scorer.logprobs(
        part.map((answers) => ({
          imagePath: answers[0]!.image_path,
          question: answers[0]!.question,
          history: answers[0]!.history_json === null ? [] : (JSON.parse(answers[0]!.history_json) as Turn[]),
          answers: answers.map((a) => a.text),
        })),
      ),
    );
    const rows: AnswerLogprob[] = [];
    const failed: { round_id: number; stage: string; item: string; reason: string }[] = [];
    part.forEach((answers, i) =>
      answers.forEach((a, j) => {
        const r = res[i]![j]!;
        if (r instanceof Error || !r.perToken || r.tokens < 1) {
          const why = r instanceof Error ? r.message : 'the scorer gave no per-token log-probs';
          failed.push({ round_id: ctx.round.id, stage: 'pair', item: a.candidate_id, reason: `reference log-probs: ${why}` });
        } else rows.push({ candidate_id: a.candidate_id, model: scorer.id, sum: r.sum, tokens: r.tokens, per_token: r.perToken });
      }),
    );
    putAnswerLogprobs(ctx.db, rows);
    if (failed.length) putFailures(ctx.db, failed);
    items += rows.length;
    failures += failed.length;
  }
  return { items, failures, time };
}
