import { describe, expect, it } from 'vitest';
import { divideRules, splitSentences } from '../../src/divide/rules.js';

describe('splitSentences', () => {
  it.each([
    ['', []],
    ['   \n  ', []],
    ['There is a red circle. There is a blue star.', ['There is a red circle.', 'There is a blue star.']],
    ['Is it red? Yes! It is.', ['Is it red?', 'Yes!', 'It is.']],
    ['The image shows fruit, e.g. apples. The bowl is blue.', ['The image shows fruit, e.g. apples.', 'The bowl is blue.']],
    ['There are shapes, e.g. Circles and stars.', ['There are shapes, e.g. Circles and stars.']],
    ['Mr. Smith holds a cup. Dr. Jones sits.', ['Mr. Smith holds a cup.', 'Dr. Jones sits.']],
    ['The pole is 3.5 meters tall. It is red.', ['The pole is 3.5 meters tall.', 'It is red.']],
    ['It costs $2.50 today.', ['It costs $2.50 today.']],
    ['J. K. Rowling wrote it. The book is red.', ['J. K. Rowling wrote it.', 'The book is red.']],
    ['He said "Stop." Then he left.', ['He said "Stop."', 'Then he left.']],
    ['The dog sleeps... The cat is awake.', ['The dog sleeps...', 'The cat is awake.']],
    ['There is a red circle\nThere is a blue star', ['There is a red circle', 'There is a blue star']],
    ['There is a red\ncircle in the corner.', ['There is a red circle in the corner.']],
    ['First paragraph.\n\nSecond paragraph.', ['First paragraph.', 'Second paragraph.']],
    ['- a red circle\n- a blue star\n* a green square\n\u2022 a yellow triangle',
      ['a red circle', 'a blue star', 'a green square', 'a yellow triangle']],
    ['1. The man sits.\n2. The dog sleeps. It is brown.\n3) The cat runs.',
      ['The man sits.', 'The dog sleeps.', 'It is brown.', 'The cat runs.']],
    ['Shapes:\n  - a red circle\n    that is large\n  - a blue star', ['Shapes:', 'a red circle that is large', 'a blue star']],
    ['### Facts:\n- The sky is blue.', ['Facts:', 'The sky is blue.']],
    ['Line one\r\nLine two', ['Line one', 'Line two']],
  ] as [string, string[]][])('%j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});

describe('divideRules over multi-sentence answers', () => {
  it('divides a bulleted answer item by item', () => {
    const r = divideRules('Here are the shapes:\n- There is a large red circle in the top left.\n- The star is not blue.\n1. There are no squares.');
    expect(r.claims.map((c) => c.question)).toEqual([
      'Is there a large red circle in the top left?',
      'Is the star not blue?',
      'Are there no squares?',
    ]);
  });

  it('does not break claims at abbreviations or decimals', () => {
    const r = divideRules('The rod is 3.5 meters long. Mr. Brown holds it.');
    expect(r.claims.map((c) => c.question)).toEqual(['Is the rod 3.5 meters long?', 'Does Mr. Brown hold it?']);
  });
});
