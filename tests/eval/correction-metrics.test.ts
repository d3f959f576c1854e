// The correction figures on hand-made conversations: N_e, N_c, the correction and harm rates, correct after each
// turn, FIRE's AT, ADR, ATR and RR as rlaifv defines them, per kind; and the N_e rule, the truth's score and
// correctness of an answer.
import { describe, expect, test } from 'vitest';
import { feedbackByKind, feedbackFigures, type ConversationOutcome } from '../../src/eval/correction-metrics.js';
import { feedbackIsRight, isCorrect, onSubject, truthScore } from '../../src/eval/runs/correction.js';

const o = (x: Partial<ConversationOutcome> & Pick<ConversationOutcome, 'scores'>): ConversationOutcome => ({
  promptId: 'p',
  kind: 'detailed',
  inNe: true,
  correctAt: null,
  harmed: null,
  cutAt: null,
  ...x,
});

// A: fixed at once. B: fixed at turn 3, its first revision harmed. C: never fixed, harmed. D: fixed but its feedback
// was not right (outside N_e). E: cut before its first revision.
const cases: ConversationOutcome[] = [
  o({ promptId: 'A', kind: 'counting', scores: [5, 10], correctAt: 1, harmed: false, onSubject: true }),
  o({ promptId: 'F', kind: 'counting', scores: [5, 10], correctAt: 1, harmed: false, onSubject: false }),
  o({ promptId: 'B', scores: [0, 0, 5, 10], correctAt: 3, harmed: true }),
  o({ promptId: 'C', scores: [5, 0, 0, 0], harmed: true }),
  o({ promptId: 'D', kind: 'counting', inNe: false, scores: [0, 10], correctAt: 1, harmed: false }),
  o({ promptId: 'E', scores: [5], cutAt: 1 }),
];

describe('feedbackFigures', () => {
  const f = feedbackFigures(cases, 3);
  test('N_e, N_c and the correction rate (one turn)', () => {
    expect(f.n_wrong).toBe(6);
    expect(f.n_e).toBe(5);
    expect(f.n_c).toBe(2);
    expect(f.correction_rate).toBe(0.4);
    expect(f.n_c_on_subject).toBe(1);
    expect(f.correction_rate_on_subject).toBe(0.2);
  });
  test('harm: of N_e first revisions (A, F, B, C; E has none), those with a new false claim', () => expect(f.harm_rate).toBe(2 / 4));
  test('correct after each turn, of N_e', () => expect(f.correct_after_turn).toEqual([0.4, 0.4, 0.6]));
  test('AT: turns to correct, never corrected counts max_turns + 1', () => expect(f.at).toBe((1 + 1 + 3 + 4 + 4) / 5));
  test('ADR: mean gain first to last; ATR: total gain over total turns taken', () => {
    expect(f.adr).toBe((5 + 5 + 10 - 5 + 0) / 5);
    expect(f.atr).toBeCloseTo(15 / (1 + 1 + 3 + 3 + 0), 12);
  });
  test('RR: of every wrong first answer (D too), those ending correct', () => expect(f.rr).toBe(4 / 6));
  test('cut conversations of N_e', () => expect(f.cut).toBe(1));
  test('nothing to divide by: null', () => {
    const z = feedbackFigures([], 2);
    expect([z.correction_rate, z.harm_rate, z.at, z.adr, z.atr, z.rr]).toEqual([null, null, null, null, null, null]);
    expect(z.correct_after_turn).toEqual([null, null]);
  });
  test('per kind', () => {
    const k = feedbackByKind(cases, 3);
    expect(Object.keys(k)).toEqual(['counting', 'detailed']);
    expect(k.counting!.n_e).toBe(2);
    expect(k.counting!.rr).toBe(1);
    expect(k.counting!.n_c_on_subject).toBe(1);
    expect(k.detailed!.n_e).toBe(3);
    expect(k.detailed!.correction_rate).toBe(0);
    expect(k.detailed!.correct_after_turn).toEqual([0, 0, 1 / 3]);
  });
});

test('the N_e rule: at least one claim judged false, and every one judged false truly false', () => {
  expect(feedbackIsRight(['false', 'true'], ['false', 'true'])).toBe(true);
  expect(feedbackIsRight(['false', 'true'], ['false', 'false'])).toBe(true); // a missed false claim: still right
  expect(feedbackIsRight(['false', 'false'], ['false', 'true'])).toBe(false); // a true claim called false
  expect(feedbackIsRight(['true', 'true'], ['false', 'true'])).toBe(false); // nothing said
  expect(feedbackIsRight(['false', null], ['false', null])).toBe(true);
  expect(feedbackIsRight(['false'], [null])).toBe(false);
});

test("the truth's score and correctness: a claim the checker cannot judge counts as not true", () => {
  expect(truthScore(['true', 'false', 'true', 'true'])).toBe(7.5);
  expect(truthScore([null])).toBe(0);
  expect(truthScore([])).toBe(0);
  expect(isCorrect(['true', 'true'])).toBe(true);
  expect(isCorrect(['true', null])).toBe(false);
  expect(isCorrect([])).toBe(false);
});

test('a correction on the subject: each false claim shares a subject with a claim of the revision', () => {
  expect(onSubject(['The circle is red.'], ['The circle is blue.'])).toBe(true);
  expect(onSubject(['The circle is in the top left.'], ['The circle is in the center.'])).toBe(true);
  expect(onSubject(['There are three circles.'], ['There are two circles.'])).toBe(true);
  expect(onSubject(['The star is purple.'], ['There is no small red triangle.'])).toBe(false);
  expect(onSubject(['There are two shapes.', 'There is a small red star in the top right.'], ['There is a small red star in the bottom right.'])).toBe(false);
  expect(onSubject(['The circle is red.'], [])).toBe(false);
});
