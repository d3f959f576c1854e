// How much a policy hallucinates, measured against the shapes truth on its answers (CHAIR-style figures), and how
// informative and varied its answers stay (a collapsed policy is cheap to make truthful).
import { evaluate, matchesDescription, parseStatement, type ShapeObject, type Statement, type Truth } from '../shapes/index.js';
import { judgeAnswer } from './truth.js';
import type { EvalAnswer, EvalPrompt } from './types.js';

/** A policy's figures over a set of answers (null where there is nothing to divide by). */
export interface PolicyFigures {
  /** False claims ÷ claims the checker judges (true or false): the CHAIRi analogue. */
  false_claim_rate: number | null;
  /** Answers with at least one false claim ÷ answers: the CHAIRs analogue (Object HalBench's response rate). */
  response_hallucination_rate: number | null;
  /** True claims per answer: informativeness (a policy that says less is not better). */
  true_claims_per_answer: number | null;
  /** Detailed descriptions only: the mean share of the image's objects an answer mentions in a true claim. */
  object_coverage: number | null;
  /** Sentences the checker can judge ÷ all sentences (claims' sentences and those the divider skipped). */
  judgeable_share: number | null;
  /** Distinct answer texts per prompt (a collapse detector: identical samples give 1). */
  distinct_answers_per_prompt: number | null;
  /** Whitespace words per answer. */
  mean_words: number | null;
  prompts: number;
  answers: number;
  /** Answers never divided (failed or pending): left out of every figure. */
  undivided: number;
  claims: number;
  judged_claims: number;
  false_claims: number;
  true_claims: number;
  unknown_claims: number;
  /** Detailed-description answers behind object_coverage. */
  detailed_answers: number;
}

/**
 * The objects a true statement singles out: an existence claim whose description names a shape and fits exactly one
 * object, the N objects of a true "there are N <shape>s", an attribute claim's referents (its description and the
 * predicate's value), and for a list what its items single out. "There are three shapes" describes no object, and a
 * description that fits several objects where one is claimed names none.
 * @example mentionedObjects(truth, parseStatement('There is a red circle.')!) // [the red circle] when it is the only one
 */
export function mentionedObjects(truth: Truth, s: Statement): ShapeObject[] {
  if (evaluate(truth, s) !== 'true') return [];
  const fitting = (d: Parameters<typeof matchesDescription>[1]) => truth.objects.filter((o) => matchesDescription(o, d));
  switch (s.kind) {
    case 'exists': {
      const f = s.desc.shape === undefined ? [] : fitting(s.desc);
      return f.length === 1 ? f : [];
    }
    case 'count':
      return s.desc.shape === undefined ? [] : fitting(s.desc);
    case 'absent':
      return [];
    case 'attribute':
      return s.negated ? [] : fitting({ ...s.desc, [s.predicate.attr]: s.predicate.value });
    case 'conjunction':
      return [...new Set(s.items.flatMap((i) => mentionedObjects(truth, i)))];
  }
}

/** The share of the image's objects an answer's claims mention truly (null for an image without objects). */
export function answerCoverage(truth: Truth, a: EvalAnswer): number | null {
  if (truth.objects.length === 0) return null;
  const seen = new Set<ShapeObject>();
  for (const c of a.claims) {
    const s = parseStatement(c.claim);
    if (s) for (const o of mentionedObjects(truth, s)) seen.add(o);
  }
  return seen.size / truth.objects.length;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/**
 * The figures of every divided answer of `prompts`, judged by the shapes truth checker through the answers' claims.
 * Object coverage counts detailed-description prompts only (kind 'detailed').
 */
export function policyFigures(prompts: readonly EvalPrompt[]): PolicyFigures {
  const t = { answers: 0, undivided: 0, claims: 0, falses: 0, trues: 0, unknown: 0, hallucinating: 0, sentences: 0, judgeable: 0, words: 0 };
  let distinct = 0;
  let promptsWithAnswers = 0;
  let coverage = 0;
  let detailed = 0;
  for (const p of prompts) {
    const divided = p.answers.filter((a) => a.division !== null);
    t.undivided += p.answers.length - divided.length;
    if (divided.length === 0) continue;
    promptsWithAnswers++;
    distinct += new Set(divided.map((a) => a.text.trim())).size;
    for (const a of divided) {
      const j = judgeAnswer(p.truth, a);
      t.answers++;
      t.claims += a.claims.length;
      t.falses += j.nFalse;
      t.trues += j.nTrue;
      t.unknown += j.nUnknown;
      if (j.nFalse > 0) t.hallucinating++;
      t.sentences += j.sentences;
      t.judgeable += j.judgeableSentences;
      t.words += a.words;
      if (p.kind === 'detailed') {
        const c = answerCoverage(p.truth, a);
        if (c !== null) {
          coverage += c;
          detailed++;
        }
      }
    }
  }
  return {
    false_claim_rate: ratio(t.falses, t.falses + t.trues),
    response_hallucination_rate: ratio(t.hallucinating, t.answers),
    true_claims_per_answer: ratio(t.trues, t.answers),
    object_coverage: ratio(coverage, detailed),
    judgeable_share: ratio(t.judgeable, t.sentences),
    distinct_answers_per_prompt: ratio(distinct, promptsWithAnswers),
    mean_words: ratio(t.words, t.answers),
    prompts: prompts.length,
    answers: t.answers,
    undivided: t.undivided,
    claims: t.claims,
    judged_claims: t.falses + t.trues,
    false_claims: t.falses,
    true_claims: t.trues,
    unknown_claims: t.unknown,
    detailed_answers: detailed,
  };
}
