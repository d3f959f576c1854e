// The teacher's turn of a feedback conversation: corrections derived from the claims (never the right answer), simple
// feedback's one bit, FIRE's score, the student's prompt layout, and the seeded verdict noise.
import { describe, expect, test } from 'vitest';
import { ASK_AGAIN, correctionOf, flipVerdicts, scoreOf, studentPrompt, teacherTurn, type ClaimVerdict } from '../../src/feedback/teacher.js';
import { checkStatement } from '../../src/shapes/index.js';
import { parseTruth } from '../../src/shapes/truth.js';

const truth = parseTruth({
  objects: [
    { shape: 'circle', color: 'blue', size: 'large', position: 'top left' },
    { shape: 'circle', color: 'blue', size: 'small', position: 'center' },
    { shape: 'square', color: 'red', size: 'small', position: 'bottom right' },
  ],
});

describe('correctionOf', () => {
  test.each([
    ['There is a green star.', 'There is no green star.'],
    ['There is no red square.', 'There is a red square.'],
    ['There are three circles.', 'There are not three circles.'],
    ['There is one circle.', 'There is not one circle.'],
    ['The square is blue.', 'The square is not blue.'],
    ['The square is in the top left.', 'The square is not in the top left.'],
    ['The square is not red.', 'The square is red.'],
    ['The star is one star no star.', 'It is not true that the star is one star no star.'],
  ])('%s -> %s', (claim, said) => expect(correctionOf(claim)).toBe(said));

  test('a correction of a false claim is never false (a denied count is outside the checker\'s language), and never names the right value', () => {
    // The right values: two circles, one square, a red square in the bottom right.
    const cases: [string, RegExp][] = [
      ['There are three circles.', /\btwo\b/],
      ['There are two squares.', /\bone\b/],
      ['The square is blue.', /\bred\b/],
      ['The square is in the top left.', /bottom right/],
      ['There is a green star.', /\b(red|blue|circle|square)\b/],
    ];
    for (const [c, right] of cases) {
      expect(checkStatement(truth, c)).toBe('false');
      const said = correctionOf(c);
      expect(checkStatement(truth, said), said).toBe(/ not (one|two|three)/.test(said) ? 'unknown' : 'true');
      expect(said).not.toMatch(right);
    }
  });
});

describe('teacherTurn', () => {
  const claims = ['There are three circles.', 'The square is small.', 'The square is blue.'];
  test('detailed: the score from the verdicts and each false claim corrected, in answer order, nothing else', () => {
    const t = teacherTurn('detailed', claims, ['false', 'true', 'false']);
    expect(t).toBe('Score: 3\nFeedback: There are not three circles. The square is not blue.');
    expect(t).not.toContain('small');
  });
  test('simple: one bit, no score, no claim', () => {
    expect(teacherTurn('simple', claims, ['false', 'true', 'false'])).toBe('Feedback: Your answer has errors.');
    expect(teacherTurn('simple', claims, ['true', 'true', null])).toBe('Feedback: Your answer is correct.');
  });
  test('verdicts that find nothing false call the answer correct; an answer without claims is wrong to both', () => {
    expect(teacherTurn('detailed', claims, ['true', null, 'true'])).toBe('Score: 10\nFeedback: Your answer is correct.');
    expect(teacherTurn('detailed', [], [])).toBe('Score: 0\nFeedback: Your answer does not answer the question.');
    expect(teacherTurn('simple', [], [])).toBe('Feedback: Your answer has errors.');
  });
  test('a correction said twice is said once', () => {
    expect(teacherTurn('detailed', ['There is a star.', 'There is a star.'], ['false', 'false'])).toBe('Score: 0\nFeedback: There is no star.');
  });
  test('claims and verdicts must pair up', () => expect(() => teacherTurn('simple', claims, ['false'])).toThrow(/3 claims but 1 verdicts/));
});

test('scoreOf: round(10 × (1 − false share)) over the claims with a verdict', () => {
  expect(scoreOf(['false', 'true', 'true', null])).toBe(7);
  expect(scoreOf(['false', 'false'])).toBe(0);
  expect(scoreOf(['true'])).toBe(10);
  expect(scoreOf([null, null])).toBe(10);
  expect(scoreOf([])).toBe(0);
  expect(scoreOf(['false', 'true'])).toBe(5);
});

test("studentPrompt: FIRE's layout as a conversation, each teacher turn asking again", () => {
  const p = studentPrompt('How many circles are there?', ['There are three circles.', 'There are four circles.'], ['T1', 'T2']);
  expect(p.history).toEqual([
    { role: 'user', content: 'How many circles are there?' },
    { role: 'assistant', content: 'There are three circles.' },
    { role: 'user', content: `T1\n${ASK_AGAIN}` },
    { role: 'assistant', content: 'There are four circles.' },
  ]);
  expect(p.question).toBe(`T2\n${ASK_AGAIN}`);
  expect(ASK_AGAIN).toBe('Based on the feedback, answer the question again:');
  expect(() => studentPrompt('q', ['a'], [])).toThrow(/one teacher turn per answer/);
});

describe('flipVerdicts', () => {
  const many: ClaimVerdict[] = Array.from({ length: 4000 }, (_, i) => (i % 3 === 0 ? null : i % 2 ? 'true' : 'false'));
  const flips = (v: ClaimVerdict[], rate: number, prompt = 'p', turn = 1) => flipVerdicts(v, rate, 7, prompt, turn);
  test('rate 0 changes nothing; rate 1 flips every verdict; no verdict stays none', () => {
    expect(flips(many, 0)).toEqual(many);
    expect(flips(many, 1)).toEqual(many.map((v) => (v === null ? null : v === 'false' ? 'true' : 'false')));
  });
  test('seeded: the same flips on every call; another prompt, turn or seed draws anew', () => {
    const a = flips(many, 0.3);
    expect(flips(many, 0.3)).toEqual(a);
    expect(flips(many, 0.3, 'q')).not.toEqual(a);
    expect(flips(many, 0.3, 'p', 2)).not.toEqual(a);
    expect(flipVerdicts(many, 0.3, 8, 'p', 1)).not.toEqual(a);
  });
  test.each([0.1, 0.2, 0.3])('rate %s: about that share of verdicts flipped, none of the unjudged', (rate) => {
    const out = flips(many, rate);
    const judged = many.filter((v) => v !== null).length;
    const flipped = out.filter((v, i) => v !== many[i]).length;
    expect(out.filter((v, i) => many[i] === null && v !== null)).toEqual([]);
    expect(Math.abs(flipped / judged - rate)).toBeLessThan(0.03);
  });
  test('the same claim index flips alike whatever the other verdicts (so simple and detailed see the same noise)', () => {
    const a = flips(['false', 'true', 'false'], 0.5);
    const b = flips(['false', null, 'false'], 0.5);
    expect([a[0], a[2]]).toEqual([b[0], b[2]]);
  });
  test('a rate outside 0..1 is refused', () => expect(() => flips(many, 1.5)).toThrow(/rate must be from 0 to 1/));
});
