// What a policy's answers look like to rlaifv's own feedback, with no truth: the labeler's verdicts on the claims the
// divider found (an evaluation round runs generate, divide, label and score). These are the figures a user's own
// held-out prompts give; on the shapes world they are checked against the truth's (src/eval/policy.ts).
import type { Db } from '../store/index.js';
import { scoredAnswers, type ScoredAnswer } from '../store/eval-reads.js';

export { promptKinds, roundHasTruth, scoredAnswers, type ScoredAnswer } from '../store/eval-reads.js';

/** The truth-free figures of a set of answers (null where there is nothing to divide by). */
export interface TruthFreeFigures {
  /** Claims the labeler rejects ÷ claims it gave a verdict on: the labeler-estimated false-claim rate. */
  rejected_claim_rate: number | null;
  /** Answers with at least one rejected claim ÷ scored answers. */
  answers_with_rejected_claim: number | null;
  /** Claims the labeler accepts, per scored answer (informativeness as the labeler sees it). */
  accepted_claims_per_answer: number | null;
  /** Distinct answer texts per prompt (a collapse detector). */
  distinct_answers_per_prompt: number | null;
  /** Whitespace words per scored answer. */
  mean_words: number | null;
  prompts: number;
  /** Answers with a score row (divided, and every claim's question labeled or failed). */
  answers: number;
  /** Answers generated but never scored (a failure, or still pending): left out of every figure. */
  unscored: number;
  claims: number;
  judged_claims: number;
  rejected_claims: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** The truth-free figures of answers (any subset of a round's, e.g. one instruction kind's). */
export function truthFreeOf(answers: readonly ScoredAnswer[]): TruthFreeFigures {
  const t = { answers: 0, unscored: 0, claims: 0, judged: 0, rejected: 0, withRejected: 0, words: 0 };
  const texts = new Map<string, Set<string>>();
  for (const a of answers) {
    if (a.judged === null || a.rejected === null || a.claims === null) {
      t.unscored++;
      continue;
    }
    t.answers++;
    t.claims += a.claims;
    t.judged += a.judged;
    t.rejected += a.rejected;
    if (a.rejected > 0) t.withRejected++;
    t.words += a.words;
    let s = texts.get(a.promptId);
    if (!s) texts.set(a.promptId, (s = new Set()));
    s.add(a.text.trim());
  }
  const distinct = [...texts.values()].reduce((n, s) => n + s.size, 0);
  return {
    rejected_claim_rate: ratio(t.rejected, t.judged),
    answers_with_rejected_claim: ratio(t.withRejected, t.answers),
    accepted_claims_per_answer: ratio(t.judged - t.rejected, t.answers),
    distinct_answers_per_prompt: ratio(distinct, texts.size),
    mean_words: ratio(t.words, t.answers),
    prompts: new Set(answers.map((a) => a.promptId)).size,
    answers: t.answers,
    unscored: t.unscored,
    claims: t.claims,
    judged_claims: t.judged,
    rejected_claims: t.rejected,
  };
}

/** The truth-free figures of a round's answers. */
export function truthFreeFigures(db: Db, roundId: number): TruthFreeFigures {
  return truthFreeOf(scoredAnswers(db, roundId));
}
