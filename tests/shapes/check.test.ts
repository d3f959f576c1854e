import { describe, expect, it } from 'vitest';
import { checkAnswer, checkStatement, parseTruth, splitSentences, type Verdict } from '../../src/shapes/index.js';

// Two red circles (one large, one small), a small blue square, a large orange star.
const truth = parseTruth({
  objects: [
    { shape: 'circle', color: 'red', size: 'large', position: 'top left' },
    { shape: 'square', color: 'blue', size: 'small', position: 'top right' },
    { shape: 'circle', color: 'red', size: 'small', position: 'center' },
    { shape: 'star', color: 'orange', size: 'large', position: 'bottom center' },
  ],
});

function table(name: string, cases: [string, Verdict][]): void {
  describe(name, () => {
    it.each(cases)('%j → %s', (text, expected) => {
      expect(checkStatement(truth, text)).toBe(expected);
    });
  });
}

table('existence', [
  ['There is a red circle.', 'true'],
  ['There is a red circle', 'true'],
  ['There is a red circle in the top left.', 'true'],
  ['There is a red circle in the top right.', 'false'],
  ['There is a large red circle.', 'true'],
  ['There is a small red circle in the center.', 'true'],
  ['There is a large red circle in the center.', 'false'],
  ['There is a large blue square.', 'false'],
  ['There is a small blue square in the top right.', 'true'],
  ['There is a triangle.', 'false'],
  ['There is a green shape.', 'false'],
  ['There is a shape.', 'true'],
  ['There is a shape in the center.', 'true'],
  ['There is a shape in the bottom left.', 'false'],
  ['There is an orange star.', 'true'],
  ['There is a orange star.', 'true'],
  ['There is an red circle.', 'true'],
  ['There is an orange star in the bottom center.', 'true'],
  ['There is an orange star in the bottom right.', 'false'],
  ['There is a yellow star.', 'false'],
  ['There is a small star.', 'false'],
  ['THERE IS A RED CIRCLE.', 'true'],
  ['there is a Red Circle In The Top Left', 'true'],
  ['  There   is a  red   circle  in the image .  ', 'true'],
  ['There is a red circle in the image.', 'true'],
  ['There is a green circle in the image.', 'false'],
  ['There is a small red circle in the center in the image.', 'true'],
  ['There is a red circle in the image in the center.', 'true'],
  ['There is a red large circle.', 'true'],
  ['There is a blue large square.', 'false'],
  ["There's a blue square.", 'true'],
  ['There’s a blue square.', 'true'],
  ['There is a red object.', 'true'],
  ['There is a square in the top-right.', 'true'],
  ['There is a star in the bottom centre.', 'true'],
  ['There is a star in the bottom middle.', 'true'],
  ['There is a circle in the middle.', 'true'],
  ['There is a circle in the centre.', 'true'],
  ['There is a blue square in the top right corner.', 'true'],
  ['There is a circle in the top left of the image.', 'true'],
  ['There is a circle in the top left of the image.', 'true'],
  ['There is a red circle!', 'true'],
]);

table('negated existence', [
  ['There is no triangle.', 'true'],
  ['There is no circle.', 'false'],
  ['There are no triangles.', 'true'],
  ['There are no red circles.', 'false'],
  ['There are no red circles in the top right.', 'true'],
  ['There is no red circle in the top left.', 'false'],
  ['There is no large red circle in the center.', 'true'],
  ['There are no shapes.', 'false'],
  ['There are no shapes in the image.', 'false'],
  ['There are no green shapes in the image.', 'true'],
  ["There isn't a triangle.", 'true'],
  ["There isn't a circle.", 'false'],
  ["There aren't any circles.", 'false'],
  ["There aren't any purple shapes.", 'true'],
  ['There is not a triangle.', 'true'],
  ['There are zero triangles.', 'true'],
  ['There are 0 circles.', 'false'],
  ['THERE ARE NO STARS', 'false'],
]);

table('counting', [
  ['There is one red circle.', 'false'],
  ['There are two red circles.', 'true'],
  ['There are 2 red circles.', 'true'],
  ['There are three red circles.', 'false'],
  ['There is one blue square.', 'true'],
  ['There is 1 blue square.', 'true'],
  ['There is one circle in the top left.', 'true'],
  ['There is one shape in the top left.', 'true'],
  ['There are two shapes in the top left.', 'false'],
  ['There are four shapes in the image.', 'true'],
  ['There are 4 shapes.', 'true'],
  ['There are three shapes in the image.', 'false'],
  ['There is one shape in the image.', 'false'],
  ['There are five shapes.', 'false'],
  ['There are nine shapes.', 'false'],
  ['There are 12 shapes.', 'false'],
  ['There are two circles.', 'true'],
  ['There are two large shapes.', 'true'],
  ['There are two small shapes.', 'true'],
  ['There are three small shapes.', 'false'],
  ['There is one large red circle.', 'true'],
  ['There is one orange shape.', 'true'],
  ['There are two red shapes.', 'true'],
  ['There is one star.', 'true'],
  ['There are four shape.', 'true'], // number agreement is not checked
  ['There is two circles.', 'true'],
  ['There are Two Red Circles In The Image.', 'true'],
]);

table('definite attribute', [
  ['The blue square is small.', 'true'],
  ['The blue square is large.', 'false'],
  ['The blue square is not large.', 'true'],
  ['The blue square is not small.', 'false'],
  ["The blue square isn't large.", 'true'],
  ['The blue square is blue.', 'true'],
  ['The square is blue.', 'true'],
  ['The square is red.', 'false'],
  ['The small square is blue.', 'true'],
  ['The star is orange.', 'true'],
  ['The star is red.', 'false'],
  ['The star is not red.', 'true'],
  ['The star is large.', 'true'],
  ['The large star is orange in the image.', 'true'],
  ['The star is in the bottom center.', 'true'],
  ['The star is in the top left.', 'false'],
  ['The star is not in the top left.', 'true'],
  ['The star is not in the bottom center.', 'false'],
  ['The orange star is in the bottom centre.', 'true'],
  ['The large red circle is in the top left.', 'true'],
  ['The small red circle is in the top left.', 'false'],
  ['The circle in the top left is large.', 'true'],
  ['The circle in the center is large.', 'false'],
  ['The red circle in the center is small.', 'true'],
  ['The shape in the top right is blue.', 'true'],
  ['The shape in the top right is a square.', 'true'],
  ['The orange shape is a star.', 'true'],
  ['The blue shape is a circle.', 'false'],
  ['The blue shape is not a circle.', 'true'],
  ['THE BLUE SQUARE IS SMALL', 'true'],
]);

table('definite attribute: absent referent (presupposition failure) is false', [
  ['The triangle is red.', 'false'],
  ['The triangle is not red.', 'false'],
  ['The triangle is in the center.', 'false'],
  ['The triangle is not in the center.', 'false'],
  ['The green circle is red.', 'false'],
  ['The green circle is not red.', 'false'],
  ['The large square is blue.', 'false'],
  ['The circle in the bottom right is red.', 'false'],
  ['Is the triangle red?', 'false'],
  ['Is the triangle not red?', 'false'],
]);

table('definite attribute: several referents', [
  ['The red circle is large.', 'unknown'],
  ['The red circle is small.', 'unknown'],
  ['The red circle is not large.', 'unknown'],
  ['The circle is in the center.', 'unknown'],
  ['The circle is not in the center.', 'unknown'],
  ['The shape is red.', 'unknown'],
  ['The red circle is red.', 'true'],
  ['The circle is red.', 'true'],
  ['The red circle is not blue.', 'true'],
  ['The red circle is blue.', 'false'],
  ['The red circle is not red.', 'false'],
  ['The circle is in the bottom right.', 'false'],
  ['The circle is not in the bottom right.', 'true'],
  ['The shape is green.', 'false'],
  ['The shape is not green.', 'true'],
  ['The large shape is a star.', 'unknown'],
  ['Is the red circle large?', 'unknown'],
  ['Is the circle red?', 'true'],
]);

table('listing (conjunction of existence claims)', [
  ['There is a red circle, a blue square and an orange star.', 'true'],
  ['There is a red circle, a blue square, and an orange star.', 'true'],
  ['There is a red circle and a blue square.', 'true'],
  ['There is a red circle, a blue square and a green triangle.', 'false'],
  ['There is a green triangle and a red circle.', 'false'],
  ['There is a red circle, a red circle and a red circle.', 'true'],
  ['There are two red circles and a blue square.', 'true'],
  ['There are two red circles and no triangles.', 'true'],
  ['There is a red circle and a blue square in the image.', 'true'],
  ['There is a large red circle in the top left, a small blue square in the top right and an orange star.', 'true'],
  ['There is a large red circle in the top right and a small blue square in the top right.', 'false'],
  ['Is there a red circle and a blue square?', 'true'],
  ['Is there a red circle and a green square?', 'false'],
]);

table('yes/no questions', [
  ['Is there a red circle?', 'true'],
  ['Is there a green circle?', 'false'],
  ['Is there an orange star in the bottom center?', 'true'],
  ['Is there a orange star in the top left?', 'false'],
  ['Is there a large shape in the top left?', 'true'],
  ['Is there a shape?', 'true'],
  ['Is there no triangle?', 'true'],
  ['Is there no circle?', 'false'],
  ['Is there no red circle in the top right?', 'true'],
  ['Are there no triangles?', 'true'],
  ['Are there no stars?', 'false'],
  ['Are there no red shapes in the center?', 'false'],
  ['Are there any triangles?', 'false'],
  ['Are there any circles?', 'true'],
  ['Is there one blue square?', 'true'],
  ['Is there one red circle?', 'false'],
  ['Is there one shape?', 'false'],
  ['Are there two red circles?', 'true'],
  ['Are there 2 circles?', 'true'],
  ['Are there three shapes?', 'false'],
  ['Are there four shapes?', 'true'],
  ['Are there four shapes in the image?', 'true'],
  ['Is the blue square small?', 'true'],
  ['Is the blue square large?', 'false'],
  ['Is the blue square not small?', 'false'],
  ['Is the blue square not large?', 'true'],
  ['Is the square blue?', 'true'],
  ['Is the square not blue?', 'false'],
  ['Is the star in the bottom center?', 'true'],
  ['Is the star not in the bottom center?', 'false'],
  ['Is the star in the top left?', 'false'],
  ['Is the star not in the top left?', 'true'],
  ['Is the large red circle in the top left?', 'true'],
  ['Is the small red circle in the top left?', 'false'],
  ['Is the circle in the top left large?', 'true'],
  ['Is the circle in the top left in the top left?', 'true'],
  ['Is the circle in the center not in the top left?', 'true'],
  ['Is the orange shape a star?', 'true'],
  ['IS THERE A RED CIRCLE', 'true'],
  ['Is there a red circle? Please answer yes or no.', 'true'],
  ['Is there a green circle? Please answer yes or no.', 'false'],
  ['Is the blue square small? Please answer yes or no.', 'true'],
  ['Are there two red circles?  please answer yes or no', 'true'],
  ['Is the star in the top left? Please answer yes or no.', 'false'],
]);

table('outside the language → unknown', [
  ['The sky is blue.', 'unknown'],
  ['There is a dog.', 'unknown'],
  ['There is a red dog.', 'unknown'],
  ['I think there is a red circle.', 'unknown'],
  ['This is a nice picture.', 'unknown'],
  ['The image is beautiful.', 'unknown'],
  ['', 'unknown'],
  ['   ', 'unknown'],
  ['.', 'unknown'],
  ['?', 'unknown'],
  ['Is it red?', 'unknown'],
  ['Yes.', 'unknown'],
  ['No.', 'unknown'],
  ['Describe the image.', 'unknown'],
  ['What color is the star?', 'unknown'],
  ['There are some circles.', 'unknown'],
  ['There are circles.', 'unknown'],
  ['There is a red blue circle.', 'unknown'],
  ['There is a large small circle.', 'unknown'],
  ['There is a circle in the top.', 'unknown'],
  ['There is a circle in the top left in the center.', 'unknown'],
  ['There is a red circle. There is a blue square.', 'unknown'],
  ['There is a red circle and blue square.', 'unknown'],
  ['There is a red circle, and.', 'unknown'],
  ['Is there not a circle?', 'unknown'],
  ["Isn't the square blue?", 'unknown'],
  ['The circles are red.', 'unknown'],
  ['The circle is in the image.', 'unknown'],
  ['The circle is large and red.', 'unknown'],
  ['The circle is a large circle.', 'unknown'],
  ['There is a square which is blue.', 'unknown'],
  ['There is a "red" circle.', 'unknown'],
  ['There is a red circle; it is large.', 'unknown'],
  ['Please answer yes or no.', 'unknown'],
  ["There aren't two circles.", 'unknown'],
  ['There is a circle near the top.', 'unknown'],
  ['The red circle is at the top left.', 'unknown'],
  ['🔴 There is a red circle.', 'unknown'],
  ['There is a red circle '.repeat(500), 'unknown'],
]);

describe('never throws', () => {
  it('returns unknown for non-string input', () => {
    for (const x of [null, undefined, 42, {}, [], Symbol.iterator]) {
      expect(checkStatement(truth, x as unknown as string)).toBe('unknown');
      expect(checkAnswer(truth, x as unknown as string)).toEqual([]);
    }
  });
});

describe('checkAnswer', () => {
  it('checks every sentence', () => {
    const answer =
      'There are four shapes in the image. There is a large red circle in the top left. ' +
      'There is a green triangle in the center. The sky is blue. The red circle is large.';
    expect(checkAnswer(truth, answer)).toEqual([
      { sentence: 'There are four shapes in the image.', verdict: 'true' },
      { sentence: 'There is a large red circle in the top left.', verdict: 'true' },
      { sentence: 'There is a green triangle in the center.', verdict: 'false' },
      { sentence: 'The sky is blue.', verdict: 'unknown' },
      { sentence: 'The red circle is large.', verdict: 'unknown' },
    ]);
  });

  it('splits a listing sentence into one standalone claim per item', () => {
    expect(checkAnswer(truth, 'There is a red circle, an orange star and a green square.')).toEqual([
      { sentence: 'There is a red circle.', verdict: 'true' },
      { sentence: 'There is an orange star.', verdict: 'true' },
      { sentence: 'There is a green square.', verdict: 'false' },
    ]);
    expect(checkAnswer(truth, 'There are two red circles and no triangles. The star is orange.')).toEqual([
      { sentence: 'There are two red circles.', verdict: 'true' },
      { sentence: 'There is no triangle.', verdict: 'true' },
      { sentence: 'The star is orange.', verdict: 'true' },
    ]);
  });

  it('handles line breaks, bullets, missing final period and extra spaces', () => {
    const answer = '- There is a red circle.\n* There is a yellow star\n\n•  The star is   orange!\n1. There is no star';
    expect(checkAnswer(truth, answer)).toEqual([
      { sentence: 'There is a red circle.', verdict: 'true' },
      { sentence: 'There is a yellow star', verdict: 'false' },
      { sentence: 'The star is orange!', verdict: 'true' },
      { sentence: 'There is no star', verdict: 'false' },
    ]);
  });

  it('checks questions and drops the labeler suffix', () => {
    expect(checkAnswer(truth, 'Is there a red circle? Please answer yes or no.')).toEqual([
      { sentence: 'Is there a red circle?', verdict: 'true' },
    ]);
  });

  it('returns nothing for an empty answer', () => {
    expect(checkAnswer(truth, '')).toEqual([]);
    expect(checkAnswer(truth, '  \n ')).toEqual([]);
  });

  it('gives each sentence the verdict checkStatement gives it', () => {
    const answer =
      'There is a red circle, an orange star and a green square. There are two circles. ' +
      'The circle is red. The triangle is not blue. Is there no star? Hello there.';
    const out = checkAnswer(truth, answer);
    expect(out).toHaveLength(8);
    for (const { sentence, verdict } of out) expect(checkStatement(truth, sentence)).toBe(verdict);
  });
});

describe('splitSentences', () => {
  it('splits at sentence punctuation and line breaks', () => {
    expect(splitSentences('A b. C d? E f!  G h\nI j')).toEqual(['A b.', 'C d?', 'E f!', 'G h', 'I j']);
  });
  it('keeps runs of punctuation with their sentence and drops letterless pieces', () => {
    expect(splitSentences('Wow!!! Really?! ... 42. ok')).toEqual(['Wow!!!', 'Really?!', 'ok']);
  });
});

describe('empty and single-object truths', () => {
  const empty = { objects: [] };
  const one = parseTruth({ objects: [{ shape: 'triangle', color: 'green', size: 'small', position: 'center' }] });
  it.each([
    [empty, 'There is a shape.', 'false'],
    [empty, 'There are no shapes.', 'true'],
    [empty, 'The shape is red.', 'false'],
    [one, 'There is one shape in the image.', 'true'],
    [one, 'The shape is green.', 'true'],
    [one, 'The shape is not green.', 'false'],
    [one, 'The triangle is in the center.', 'true'],
    [one, 'Is the triangle in the middle?', 'true'],
  ] as const)('%#: %j', (t, text, expected) => {
    expect(checkStatement(t, text)).toBe(expected);
  });
});
