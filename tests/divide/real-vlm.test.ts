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

describe('divideRules on real VLM answers: the scope of a guess', () => {
  it('drops a "because" clause of a guessed main clause, and a relative clause on what the guess names', () => {
    const d = divideRules('The car might be parked on the side of the road because the driver has stopped to pay for parking at a parking meter or to drop off or pick up a passenger.');
    // The car is named before the hedge word, so it is salvaged; the reason given for the guess is not.
    expect(d.claims.map((c) => c.claim)).toEqual(['There is a car.']);
    expect(d.skipped).toEqual([
      { sentence: 'The car might be parked on the side of the road', reason: 'opinion or hedge' },
      { sentence: 'because the driver has stopped to pay for parking at a parking meter or to drop off or pick up a passenger', reason: 'opinion or hedge' },
    ]);
    // The tree is named before the hedge word: its existence is salvaged, the habitat's resources are not.
    const g = divideRules('Overall, the tree suggests that the giraffe is in a habitat that provides it with the necessary resources to thrive and maintain its unique physical characteristics.');
    expect(g.claims.map((c) => c.claim)).toEqual(['There is a tree.']);
    expect(g.skipped).toContainEqual({ sentence: 'that provides it with the necessary resources to thrive and maintain its unique physical characteristics', reason: 'opinion or hedge' });
  });

  it('keeps a relative clause on something named before the hedge word', () => {
    expect(claims('In the image, there is a parking meter near the car, which suggests that the driver may have stopped to pay.'))
      .toEqual(['In the image, there is a parking meter near the car.']);
    expect(claims('The man, who is wearing a hat, might be waiting for a bus.')).toContain('The man is wearing a hat.');
  });
});

describe('divideRules on real VLM answers: what no picture shows', () => {
  it('skips what a kind of thing is designed or adapted for as world knowledge', () => {
    expect(divideRules("As a bird, the duck's legs and feet are not designed for walking on hard surfaces like pavement.").skipped)
      .toEqual([{ sentence: "As a bird, the duck's legs and feet are not designed for walking on hard surfaces like pavement.", reason: 'world knowledge' }]);
  });

  it('drops "visually" with the judgement it qualifies, and the "and" left dangling after an adjective', () => {
    expect(claims('Overall, the arrangement appears to be a practical and visually appealing setup for various activities, such as reading, working, or simply enjoying a snack.'))
      .toContain('The arrangement appears to be a practical setup for various activities.');
    // After a noun the "and" joins two things (FActScore dev).
    expect(claims('Kang is known for his good looks and charming personality.')).toEqual(['Kang is known for his good looks and personality.']);
  });
});
