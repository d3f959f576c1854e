// The teacher's turn of a feedback conversation (FIRE's student/teacher layout, InterFeedback's detailed and simple
// feedback), built from a provider's verdicts on an answer's claims. Pure: no model, no store.
import { hashSeed, createRng } from './rng.js';
// From the two modules it needs, not the shapes index: that brings the truth's zod schema to every command importing
// this one (`rlaifv export`, through export/fire.ts).
import { parseStatement } from '../shapes/parse.js';
import { renderStatement, type QuantifiedStatement, type Statement } from '../shapes/statement.js';
import type { Turn } from '../domain.js';
import type { FeedbackLevel } from './feedback-levels.js';

// The levels and providers live apart (so `rlaifv eval`'s flags load without the shapes world and zod); this file
// stays their public entry.
export { FEEDBACK_LEVELS, FEEDBACK_PROVIDERS, type FeedbackLevel, type FeedbackProvider } from './feedback-levels.js';

/** A provider's verdict on one claim: false, true, or none (a claim the checker cannot judge, an unlabeled claim). */
export type ClaimVerdict = 'false' | 'true' | null;

/** FIRE's student prompt ends each teacher turn with this (its Fig. A14). */
export const ASK_AGAIN = 'Based on the feedback, answer the question again:';

/** What simple feedback (InterFeedback's binary signal) says. */
export const SIMPLE_WRONG = 'Your answer has errors.';
export const SAID_CORRECT = 'Your answer is correct.';
/** What detailed feedback says of an answer without a single claim (nothing to correct, nothing right). */
export const NO_CLAIMS = 'Your answer does not answer the question.';

/**
 * Each verdict flipped (false ↔ true) with probability `rate`, a claim without a verdict left alone. The draw is
 * seeded by the seed, the prompt, the turn and the claim's index only, so every level and provider sees the same flips.
 * @example flipVerdicts(['false', 'true', null], 0.2, 0, 'test-0001', 1) // each verdict flipped with p 0.2, the same on every run
 */
export function flipVerdicts(verdicts: readonly ClaimVerdict[], rate: number, seed: number, promptId: string, turn: number): ClaimVerdict[] {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`flipVerdicts: rate must be from 0 to 1, got ${rate}.`);
  if (rate === 0) return verdicts.slice();
  return verdicts.map((v, i) => {
    if (v === null) return null;
    const flip = createRng(hashSeed(seed, 'feedback-noise', promptId, turn, i))() < rate;
    return flip ? (v === 'false' ? 'true' : 'false') : v;
  });
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The negation of a quantified item: "There is a red square." -> "There is no red square." */
function negateQuantified(s: QuantifiedStatement): Statement {
  switch (s.kind) {
    case 'exists':
      return { kind: 'absent', mood: 'claim', desc: s.desc };
    case 'absent':
      return { kind: 'exists', mood: 'claim', desc: s.desc };
    case 'count':
      return s; // worded by hand below: "There are not three circles."
  }
}

/**
 * The teacher's correction of a claim it judges false, said without the right answer: the claim negated.
 * Existence claims flip ("There is no red square."), counts deny the number ("There are not three circles."),
 * attributes and positions deny the predicate ("The circle is not blue."); a list denies the whole list, and a claim
 * outside the shapes language is quoted.
 * @example correctionOf('There is a red square.') // 'There is no red square.'
 * @example correctionOf('There are three circles.') // 'There are not three circles.'
 */
export function correctionOf(claim: string): string {
  let s: Statement | null = null;
  try {
    s = parseStatement(claim);
  } catch {
    s = null;
  }
  if (s === null) return `It is not true that ${lowerFirst(claim.trim().replace(/[.!?]+$/, ''))}.`;
  switch (s.kind) {
    case 'exists':
    case 'absent':
      return renderStatement(negateQuantified({ ...s, mood: 'claim' }));
    case 'count':
      return renderStatement({ ...s, mood: 'claim' }).replace(/^There (is|are) /, 'There $1 not ');
    case 'attribute':
      return renderStatement({ ...s, mood: 'claim', negated: !s.negated });
    case 'conjunction':
      return `It is not true that ${lowerFirst(renderStatement({ ...s, mood: 'claim' }).replace(/\.$/, ''))}.`;
  }
}

/**
 * FIRE's score of an answer from verdicts: round(10 × (1 − false share)), the false share over the claims with a
 * verdict; 10 when claims have no verdict, 0 for an answer without claims.
 * @example scoreOf(['false', 'true', 'true', null]) // 7
 */
export function scoreOf(verdicts: readonly ClaimVerdict[]): number {
  if (verdicts.length === 0) return 0;
  const judged = verdicts.filter((v) => v !== null).length;
  const falses = verdicts.filter((v) => v === 'false').length;
  return judged === 0 ? 10 : Math.round(10 * (1 - falses / judged));
}

/**
 * The teacher's turn on one answer. detailed: `Score: S` then `Feedback:` with the correction of each claim judged
 * false (each once, in answer order); simple: `Feedback: Your answer has errors.` only (no score: the binary signal
 * says one bit). Verdicts that find nothing false say "Your answer is correct." (only a noisy or mistaken provider
 * ever says it of a wrong answer); an answer without claims is wrong to both (detailed: "Your answer does not answer
 * the question.").
 * @example teacherTurn('detailed', ['There is a red square.', 'The circle is blue.'], ['false', 'true']) // 'Score: 5\nFeedback: There is no red square.'
 */
export function teacherTurn(level: FeedbackLevel, claims: readonly string[], verdicts: readonly ClaimVerdict[]): string {
  if (claims.length !== verdicts.length) throw new RangeError(`teacherTurn: ${claims.length} claims but ${verdicts.length} verdicts.`);
  const wrong = claims.filter((_, i) => verdicts[i] === 'false');
  if (level === 'simple') return `Feedback: ${wrong.length || claims.length === 0 ? SIMPLE_WRONG : SAID_CORRECT}`;
  const said = [...new Set(wrong.map(correctionOf))];
  return `Score: ${scoreOf(verdicts)}\nFeedback: ${said.length ? said.join(' ') : claims.length === 0 ? NO_CLAIMS : SAID_CORRECT}`;
}

/**
 * The student's next prompt in FIRE's layout, as a conversation: the instruction, each earlier response followed by
 * the teacher's comment on it, the last comment ending with "Based on the feedback, answer the question again:".
 * `answers[i]` is the student's i-th response and `teacher[i]` the comment on it (one comment per answer).
 * @example studentPrompt('How many stars are there?', ['There are two stars.'], ['Score: 0\nFeedback: There are not two stars.'])
 */
export function studentPrompt(instruction: string, answers: readonly string[], teacher: readonly string[]): { history: Turn[]; question: string } {
  if (answers.length === 0 || answers.length !== teacher.length) {
    throw new RangeError(`studentPrompt: needs one teacher turn per answer (at least one), got ${answers.length} answers and ${teacher.length} teacher turns.`);
  }
  const history: Turn[] = [{ role: 'user', content: instruction }];
  answers.forEach((a, i) => {
    history.push({ role: 'assistant', content: a });
    if (i < answers.length - 1) history.push({ role: 'user', content: `${teacher[i]}\n${ASK_AGAIN}` });
  });
  return { history, question: `${teacher[teacher.length - 1]}\n${ASK_AGAIN}` };
}
