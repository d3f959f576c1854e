// `rlaifv eval`'s divide figures: how much of the answers the checker can judge through the divider's claims.
import { ratio } from './metrics.js';
import type { AnswerTruth } from './truth.js';
import type { EvalRound } from './types.js';

/** Divide figures: how much of the answers the checker can judge through the divider's claims. */
export interface DivideFigures {
  answers: number;
  /** Answers with a division row (the rest failed to divide or are pending). */
  divided: number;
  answers_with_claims: number;
  claims: number;
  /** Claims per divided answer. */
  claims_per_answer: number | null;
  /** The divider's sentences: those that gave claims plus those it skipped. */
  sentences: number;
  /** Sentences that gave claims, every one of which the checker can judge. */
  judgeable_sentences: number;
  judgeable_sentence_share: number | null;
  skipped_sentences: number;
  /** Skipped sentences the checker could have judged: facts no question asked about. */
  skipped_judgeable: number;
  claims_false: number;
  claims_true: number;
  /** Claims the checker cannot judge: never counted as true or false. */
  claims_unknown: number;
  /** False share of the judgeable claims. */
  false_claim_share: number | null;
  /** Claims whose question has another truth value than the claim (the question changed the meaning). */
  question_truth_mismatch: number;
  /** Divided answers whose false-claim count differs from the checker's own split of the answer (checkAnswer). */
  answers_checker_mismatch: number;
}

/** Divide figures of a round. */
export function divideFigures(round: EvalRound, truths: Map<string, AnswerTruth>): DivideFigures {
  const f: DivideFigures = {
    answers: 0, divided: 0, answers_with_claims: 0, claims: 0, claims_per_answer: null, sentences: 0,
    judgeable_sentences: 0, judgeable_sentence_share: null, skipped_sentences: 0, skipped_judgeable: 0,
    claims_false: 0, claims_true: 0, claims_unknown: 0, false_claim_share: null, question_truth_mismatch: 0,
    answers_checker_mismatch: 0,
  };
  for (const p of round.prompts) {
    for (const a of p.answers) {
      f.answers++;
      if (a.division === null) continue;
      const t = truths.get(a.id)!;
      f.divided++;
      if (a.claims.length > 0) f.answers_with_claims++;
      f.claims += a.claims.length;
      f.sentences += t.sentences;
      f.judgeable_sentences += t.judgeableSentences;
      f.skipped_sentences += a.division.skipped.length;
      f.skipped_judgeable += t.skippedJudgeable;
      f.claims_false += t.nFalse;
      f.claims_true += t.nTrue;
      f.claims_unknown += t.nUnknown;
      f.question_truth_mismatch += t.claims.filter((c) => c.claim !== c.question).length;
      if (t.nFalse !== t.checkerFalse) f.answers_checker_mismatch++;
    }
  }
  f.claims_per_answer = ratio(f.claims, f.divided);
  f.judgeable_sentence_share = ratio(f.judgeable_sentences, f.sentences);
  f.false_claim_share = ratio(f.claims_false, f.claims_false + f.claims_true);
  return f;
}
