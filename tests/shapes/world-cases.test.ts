// Cross-check against the Python generator (scripts/shapes/world.py) via fixtures made by
// tests/shapes/fixtures/make-world-cases.py, whose sentence labels come from structure, not from parsing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  checkStatement,
  parseStatement,
  parseTruth,
  splitSentences,
  type Statement,
  type Truth,
} from '../../src/shapes/index.js';

type AnswerCase = [kind: string, source: 'truth' | 'perceived', answer: string, verdicts: string];
type QuestionCase = [question: string, answer: boolean, form: string];
interface Image {
  truth: unknown;
  answers: AnswerCase[];
  questions: QuestionCase[];
}
interface Fixture {
  seed: number;
  images: Image[];
}

const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/world-cases.json', import.meta.url), 'utf8'),
) as Fixture;
const images = fixture.images.map((img) => ({ ...img, truth: parseTruth(img.truth) }));
const CODE = { true: 'T', false: 'F', unknown: 'U' } as const;

/** The sentences checkAnswer should report: list items as standalone claims, else the split sentences. */
function expectedSentences(kind: string, answer: string): string[] {
  if (kind !== 'listing') return splitSentences(answer);
  const body = answer.replace(/^There is /, '').replace(/\.$/, '');
  return body.split(/, | and /).map((item) => `There is ${item}.`);
}

function answerCases(source: 'truth' | 'perceived'): { truth: Truth; c: AnswerCase }[] {
  return images.flatMap((img) => img.answers.filter((c) => c[1] === source).map((c) => ({ truth: img.truth, c })));
}

describe('world-cases fixture', () => {
  it('has the expected size and variety', () => {
    expect(fixture.seed).toBe(12345);
    expect(images).toHaveLength(300);
    const all = images.flatMap((i) => i.answers);
    expect(all.filter((c) => c[1] === 'truth')).toHaveLength(1500);
    expect(all.filter((c) => c[1] === 'perceived').length).toBeGreaterThanOrEqual(1490);
    const verdicts = all.map((c) => c[3]).join('');
    expect(verdicts).not.toContain('U');
    expect(verdicts.split('F').length - 1).toBeGreaterThan(1000);
    const kinds = new Set(all.map((c) => c[0]));
    expect([...kinds].sort()).toEqual(['attribute', 'counting', 'detailed', 'listing', 'position']);
    const forms = new Set(images.flatMap((i) => i.questions.map((q) => q[2])));
    expect([...forms].sort()).toEqual([
      'attribute',
      'attribute_not',
      'count',
      'exists',
      'not_exists',
      'position',
      'position_not',
    ]);
  });
});

for (const source of ['truth', 'perceived'] as const) {
  describe(`${source === 'truth' ? 'truthful' : 'perceived (p=0.3)'} answers`, () => {
    const cases = answerCases(source);
    it(`every sentence of ${cases.length} answers gets the Python label`, () => {
      const failures: unknown[] = [];
      for (const { truth, c } of cases) {
        const [kind, , answer, verdicts] = c;
        const got = checkAnswer(truth, answer);
        const codes = got.map((g) => CODE[g.verdict]).join('');
        const sentences = got.map((g) => g.sentence);
        if (codes !== verdicts || JSON.stringify(sentences) !== JSON.stringify(expectedSentences(kind, answer))) {
          failures.push({ truth, kind, answer, expected: verdicts, got });
        }
        if (source === 'truth' && !/^T+$/.test(verdicts)) failures.push({ notAllTrue: answer });
      }
      expect(failures.slice(0, 5)).toEqual([]);
      expect(failures).toHaveLength(0);
    });

    it('every sentence is inside the language', () => {
      const outside = cases.flatMap(({ c }) => splitSentences(c[2]).filter((s) => parseStatement(s) === null));
      expect(outside).toEqual([]);
    });
  });
}

const FORM_SHAPE: Record<string, (s: Statement) => boolean> = {
  exists: (s) => s.kind === 'exists',
  not_exists: (s) => s.kind === 'absent',
  count: (s) => s.kind === 'count',
  attribute: (s) => s.kind === 'attribute' && !s.negated && (s.predicate.attr === 'color' || s.predicate.attr === 'size'),
  attribute_not: (s) => s.kind === 'attribute' && s.negated && (s.predicate.attr === 'color' || s.predicate.attr === 'size'),
  position: (s) => s.kind === 'attribute' && !s.negated && s.predicate.attr === 'position',
  position_not: (s) => s.kind === 'attribute' && s.negated && s.predicate.attr === 'position',
};

describe('yes/no questions from make_question', () => {
  const cases = images.flatMap((img) => img.questions.map((q) => ({ truth: img.truth, q })));
  it(`all ${cases.length} questions get their true answer, with and without the labeler suffix`, () => {
    const failures: unknown[] = [];
    for (const { truth, q } of cases) {
      const [question, answer, form] = q;
      const expected = answer ? 'true' : 'false';
      const plain = checkStatement(truth, question);
      const suffixed = checkStatement(truth, `${question} Please answer yes or no.`);
      if (plain !== expected || suffixed !== expected) failures.push({ truth, question, expected, plain, suffixed });
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(failures).toHaveLength(0);
  });

  it('parses each question as a question of the generator form', () => {
    const failures: unknown[] = [];
    for (const { q } of cases) {
      const [question, , form] = q;
      const s = parseStatement(question);
      const fits = FORM_SHAPE[form];
      if (s === null || s.mood !== 'question' || fits === undefined || !fits(s)) failures.push({ question, form, s });
    }
    expect(failures).toEqual([]);
  });

  it('a question and its yes-answer claim agree', () => {
    // "Is there a red circle?" ↔ "There is a red circle."; "Is the X Y?" ↔ "The X is Y."
    let n = 0;
    for (const { truth, q } of cases) {
      const [question, answer] = q;
      const s = parseStatement(question);
      if (s === null) continue;
      const claim = { ...s, mood: 'claim' } as Statement;
      const claimText = claimOf(question);
      if (claimText === null) continue;
      expect(parseStatement(claimText), claimText).toEqual(claim);
      expect(checkStatement(truth, claimText), claimText).toBe(answer ? 'true' : 'false');
      n++;
    }
    expect(n).toBe(cases.length);
  });
});

/** The declarative twin of a generator question. */
function claimOf(question: string): string | null {
  const q = question.replace(/\?$/, '');
  let m = /^Is there (.*)$/.exec(q);
  if (m) return `There is ${m[1]}.`;
  m = /^Are there (.*)$/.exec(q);
  if (m) return `There are ${m[1]}.`;
  // "Is the DESC [not] PRED": the description ends at the last shape noun
  m = /^Is the (.*?\b(?:circle|square|triangle|star|shape))( not)? (.*)$/.exec(q);
  if (m) return `The ${m[1]} is${m[2] ?? ''} ${m[3]}.`;
  return null;
}
