// The three-valued checker: a tool's knowledge with missing fields, judged with the truth checker's matching.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkKnown, checkStatement, parseTruth, truthKnowledge, type Knowledge } from '../../src/shapes/index.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/world-cases.json', import.meta.url), 'utf8')) as {
  images: { truth: unknown; answers: [string, string, string, string][]; questions: [string, boolean, string][] }[];
};

describe('checkKnown', () => {
  it('with every field known, agrees with the truth checker on all 1,500 questions and every answer sentence of the fixture', () => {
    let n = 0;
    for (const img of fixture.images) {
      const truth = parseTruth(img.truth);
      const k = truthKnowledge(truth);
      const texts = [...img.questions.map((q) => q[0]), ...img.answers.flatMap((a) => a[2].split(/(?<=\.)\s+/))];
      for (const t of texts) {
        expect(checkKnown(k, t), t).toBe(checkStatement(truth, t));
        n++;
      }
    }
    expect(n).toBeGreaterThan(5000);
  });

  // A red small circle in the top left and a blue large star in the center, shapes unknown (class-free masks).
  const masks: Knowledge = {
    objects: [
      { shape: null, color: 'red', size: 'small', position: 'top left' },
      { shape: null, color: 'blue', size: 'large', position: 'center' },
    ],
  };

  it('decides what the known fields settle and leaves the rest unknown', () => {
    const cases: [string, string][] = [
      ['There are two shapes.', 'true'],
      ['There are three shapes.', 'false'],
      ['There is one red shape.', 'true'],
      ['There are two red shapes.', 'false'],
      ['There is a green shape.', 'false'],
      ['There is no green shape.', 'true'],
      ['Is there a shape in the center?', 'true'],
      ['There is a shape in the bottom right.', 'false'],
      // Shapes are unknown: any claim that names one cannot be settled ...
      ['There is one circle.', 'unknown'],
      ['There are two circles.', 'unknown'],
      ['The red circle is small.', 'unknown'],
      // ... unless the count of candidates alone settles it: three circles need three objects.
      ['There are three circles.', 'false'],
      ['There is a green circle.', 'false'],
      ['Is the red shape in the top left?', 'true'],
      ['The blue shape is small.', 'false'],
      ['Is the blue shape not large?', 'false'],
    ];
    for (const [text, want] of cases) expect(checkKnown(masks, text), text).toBe(want);
  });

  it('treats a missing colour or size the same way', () => {
    const k: Knowledge = { objects: [{ shape: 'circle', color: null, size: null, position: 'center' }] };
    expect(checkKnown(k, 'There is one circle.')).toBe('true');
    expect(checkKnown(k, 'There is a red circle.')).toBe('unknown');
    expect(checkKnown(k, 'Is the circle in the center?')).toBe('true');
    expect(checkKnown(k, 'The circle is large.')).toBe('unknown');
    expect(checkKnown(k, 'There is a square.')).toBe('false');
  });

  it('is unknown outside the language, as the truth checker is', () => {
    expect(checkKnown(masks, 'The sky is blue.')).toBe('unknown');
    expect(checkKnown({ objects: [] }, 'There is no shape.')).toBe('true');
  });
});
