// The check every span test makes: a claim's span in its answer is (part of) the sentence the claim came from.
import { expect } from 'vitest';

/** `answer.slice(start, end)` is non-empty and, spacing aside (dividers normalise it), inside the sentence or around it. */
export function expectSpanInSentence(answer: string, c: { sentence: string; start: number | null; end: number | null }): void {
  expect(c.start).not.toBeNull();
  const slice = answer.slice(c.start!, c.end!).replace(/\s+/g, ' ');
  const sentence = c.sentence.replace(/\s+/g, ' ');
  expect(slice.length).toBeGreaterThan(0);
  expect(sentence.includes(slice) || slice.includes(sentence)).toBe(true);
}
