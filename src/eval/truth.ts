// The truth side of the evaluation: every claim judged by the shapes checker, every question given its form.
import { checkAnswer, checkStatement, questionForm, type QuestionForm, type Verdict } from '../shapes/index.js';

export { questionForm, type QuestionForm };
import type { EvalAnswer, EvalRound } from './types.js';

/** The checker's view of one claim: the truth of the claim and of the question the labeler was asked. */
export interface ClaimTruth {
  claim: Verdict;
  question: Verdict;
  form: QuestionForm;
}

/** The checker's view of one answer. */
export interface AnswerTruth {
  claims: ClaimTruth[];
  /** Claims the checker judges false, true, or cannot judge (outside the language, ambiguous reference). */
  nFalse: number;
  nTrue: number;
  nUnknown: number;
  /** The answer's sentences as the divider saw them (claims grouped by sentence, plus skipped sentences). */
  sentences: number;
  /** Sentences that gave claims and whose every claim the checker can judge. */
  judgeableSentences: number;
  /** Sentences the divider skipped although the checker can judge them (facts the labeler never saw). */
  skippedJudgeable: number;
  /** False items when the checker splits the answer itself (checkAnswer), independent of the divider. */
  checkerFalse: number;
}

/** Judges every claim of every answer; answers never divided get empty claim lists. Keyed by answer id. */
export function judgeRound(round: EvalRound): Map<string, AnswerTruth> {
  const out = new Map<string, AnswerTruth>();
  for (const p of round.prompts) for (const a of [...p.answers, ...(p.corrections ?? [])]) out.set(a.id, judgeAnswer(p.truth, a));
  return out;
}

/** The checker's view of one answer against its image's truth. */
export function judgeAnswer(truth: EvalRound['prompts'][number]['truth'], a: EvalAnswer): AnswerTruth {
  const claims: ClaimTruth[] = a.claims.map((c) => ({
    claim: checkStatement(truth, c.claim),
    question: checkStatement(truth, c.question),
    form: questionForm(c.question),
  }));
  // Claims of one sentence are consecutive (the divider emits them in answer order).
  let sentences = 0;
  let judgeableSentences = 0;
  for (let i = 0; i < a.claims.length; ) {
    let j = i;
    let judgeable = true;
    while (j < a.claims.length && a.claims[j]!.sentence === a.claims[i]!.sentence) {
      if (claims[j]!.claim === 'unknown') judgeable = false;
      j++;
    }
    sentences++;
    if (judgeable) judgeableSentences++;
    i = j;
  }
  const skipped = a.division?.skipped ?? [];
  sentences += skipped.length;
  const skippedJudgeable = skipped.filter((s) => checkStatement(truth, s.sentence) !== 'unknown').length;
  return {
    claims,
    nFalse: claims.filter((c) => c.claim === 'false').length,
    nTrue: claims.filter((c) => c.claim === 'true').length,
    nUnknown: claims.filter((c) => c.claim === 'unknown').length,
    sentences,
    judgeableSentences,
    skippedJudgeable,
    checkerFalse: checkAnswer(truth, a.text).filter((s) => s.verdict === 'false').length,
  };
}
