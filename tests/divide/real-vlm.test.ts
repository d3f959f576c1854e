// The rules divider on real VLM answers, issue 29's fifth pass: sentences from the FaithScore dev answers
// (../shared/real-claims/vlm-answers-dev.jsonl, MIT, first half only), against the facts the annotators wrote.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real VLM answers: clause parts', () => {
  it('reads ", so ..." as a clause of its own, so first-person narration after it leaves the fact before it', () => {
    // Annotators: "The sidewalk leads in the direction of the clock."
    const answer = 'Additionally, the sidewalk leads in the direction of the clock, so I can also use it as a visual cue to determine which way the sidewalk goes.';
    const d = divideRules(answer);
    expect(d.claims.map((c) => [c.claim, answer.slice(c.start, c.end)])).toEqual([
      ['The sidewalk leads in the direction of the clock.', 'Additionally, the sidewalk leads in the direction of the clock'],
    ]);
    expect(d.skipped).toEqual([
      { sentence: 'so I can also use it as a visual cue to determine which way the sidewalk goes', reason: 'first or second person' },
    ]);
  });

  it('gives a relative clause after a list of examples to their category, when the verb agrees with it', () => {
    // Annotators: "The items are neatly arranged on the cart."
    expect(claims('The cart is filled with various luggage items, including suitcases, backpacks, and other bags, which are neatly arranged on the cart.'))
      .toContain('The luggage items are neatly arranged on the cart.');
    // A singular verb after a plural category is about the last example.
    expect(claims('She has worked with several charities, including the Jimmy Bartel Foundation, which provides support to those in need.'))
      .not.toContain('The charities provides support to those in need.');
  });

  it('makes each of two bare nouns in a "with" phrase a fact of its own', () => {
    // Annotators: "There are trees.", "There is greenery.", "The road is surrounded by trees and greenery."
    expect(claims('The scene takes place in a rural area, with trees and greenery surrounding the road.')).toEqual([
      'The scene takes place in a rural area.',
      'Trees are surrounding the road.',
      'Greenery is surrounding the road.',
    ]);
  });
});

describe('divideRules on real VLM answers: salvaged hedges', () => {
  it('keeps the definite subject of a hedged "that" clause as a thing in the picture, not an imagined one', () => {
    // Annotators: "There is a tree."
    const d = divideRules('Another reason could be that the tree provides a source of food, such as leaves, fruits, or flowers, which the giraffes might be feeding on.');
    expect(d.claims.map((c) => c.claim)).toEqual(['There is a tree.']);
    expect(d.skipped.map((s) => s.reason)).toEqual(['opinion or hedge']);
    // "the person using this space" is the answer's guess at a user: no finite verb follows the noun.
    expect(claims('The presence of the newspaper suggests that the person using this space might be interested in current events.'))
      .not.toContain('There is a person.');
  });
});
