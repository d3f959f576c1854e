// The form of a yes/no question of the shapes language: what eval reports by, and what tool verdicts are routed by.
import { parseStatement } from './parse.js';

/** A yes/no question's form, named as in data/shapes/test/questions.jsonl (plus list and other). */
export const QUESTION_FORMS = ['exists', 'not_exists', 'count', 'attribute', 'attribute_not', 'position', 'position_not', 'list', 'other'] as const;
/** A question form's name. */
export type QuestionForm = (typeof QUESTION_FORMS)[number];

/**
 * The form of a yes/no question (or claim) of the shapes language; 'other' when the checker cannot parse it.
 * @example questionForm('Is the red circle not in the top left?') // 'position_not'
 */
export function questionForm(text: string): QuestionForm {
  let s;
  try {
    s = parseStatement(text);
  } catch {
    return 'other';
  }
  if (s === null) return 'other';
  switch (s.kind) {
    case 'exists':
      return 'exists';
    case 'absent':
      return 'not_exists';
    case 'count':
      return 'count';
    case 'conjunction':
      return 'list';
    case 'attribute':
      if (s.predicate.attr === 'position') return s.negated ? 'position_not' : 'position';
      return s.negated ? 'attribute_not' : 'attribute';
  }
}
