// The shapes world's truth checker: vocabulary, truth, statements, parsing and checking.
export {
  SHAPES,
  COLORS,
  SIZES,
  POSITIONS,
  NUMBER_WORDS,
  type Shape,
  type Color,
  type Size,
  type Position,
} from './vocabulary.js';
export { parseTruth, truthSchema, type ShapeObject, type Truth } from './truth.js';
export {
  describe,
  renderStatement,
  type AbsentStatement,
  type AttributeStatement,
  type ConjunctionStatement,
  type CountStatement,
  type Description,
  type ExistsStatement,
  type Mood,
  type Predicate,
  type QuantifiedStatement,
  type Statement,
} from './statement.js';
export { parseStatement, tokenize } from './parse.js';
export {
  checkAnswer,
  checkStatement,
  countMatching,
  evaluate,
  matchesDescription,
  splitSentences,
  type SentenceVerdict,
  type Verdict,
} from './check.js';
export { checkKnown, evaluateKnown, truthKnowledge, type Knowledge, type KnownObject, type KnownVerdict } from './knowledge.js';
export { QUESTION_FORMS, questionForm, type QuestionForm } from './form.js';
