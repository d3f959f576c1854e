// Interim: the policy's hallucination figures (replaced by the full module from the policy-metrics work at merge).
import { judgeAnswer } from './truth.js';
import type { EvalPrompt } from './types.js';

/** A policy's hallucination figures on judged prompts. */
export interface PolicyFigures {
  false_claim_rate: number | null;
  response_hallucination_rate: number | null;
  true_claims_per_answer: number | null;
  object_coverage: number | null;
  judgeable_share: number | null;
  distinct_answers_per_prompt: number | null;
  mean_words: number | null;
  prompts: number;
  answers: number;
}

/** The figures of the answers of `prompts`. */
export function policyFigures(prompts: EvalPrompt[]): PolicyFigures {
  let answers = 0, judged = 0, falses = 0, trues = 0, halluc = 0, sentences = 0, judgeable = 0, words = 0, distinct = 0;
  for (const p of prompts) {
    const divided = p.answers.filter((a) => a.division !== null);
    distinct += new Set(divided.map((a) => a.text.trim())).size;
    for (const a of divided) {
      const t = judgeAnswer(p.truth, a);
      answers++;
      judged += t.nTrue + t.nFalse;
      falses += t.nFalse;
      trues += t.nTrue;
      if (t.nFalse > 0) halluc++;
      sentences += t.sentences;
      judgeable += t.judgeableSentences;
      words += a.words;
    }
  }
  const r = (a: number, b: number) => (b ? a / b : null);
  return {
    false_claim_rate: r(falses, judged),
    response_hallucination_rate: r(halluc, answers),
    true_claims_per_answer: r(trues, answers),
    object_coverage: null,
    judgeable_share: r(judgeable, sentences),
    distinct_answers_per_prompt: r(distinct, prompts.length),
    mean_words: r(words, answers),
    prompts: prompts.length,
    answers,
  };
}
