// A sentence wrapped over two lines (hard-wrapped model output, JSONL with "\n") is one sentence whose words are
// separated by the line break: the claim and its question must read the words apart, and the span index the text.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

describe('divideRules on wrapped lines', () => {
  it('reads a line break inside a sentence as a space, never gluing the words', () => {
    const answer = 'There is a red circle in the top left.  A blue square sits\nbeside it.';
    const c = divideRules(answer).claims.find((x) => /square/.test(x.claim))!;
    expect(c.claim).toBe('A blue square sits beside it.');
    expect(c.question).toBe('Does a blue square sit beside it?');
    expect(answer.slice(c.start, c.end)).toBe('A blue square sits\nbeside it');
  });
});

describe('divideRules: questions from past-tense verbs outside the known list', () => {
  it('puts the base form after "did", by the lemmatizer, not by cutting "-ed"', () => {
    const q = (s: string) => divideRules(s).claims.map((c) => c.question);
    expect(q('He completed a degree in law.')).toEqual(['Did he complete a degree in law?']);
    expect(q('She graduated from Yale.')).toEqual(['Did she graduate from Yale?']);
    expect(q('The band released an album.')).toEqual(['Did the band release an album?']);
  });
});
