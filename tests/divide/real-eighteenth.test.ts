// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's eighteenth pass, on the biographies'
// long claims over the whole dev file, each rule pinned on a dev sentence (the half it comes from is named).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the eighteenth pass', () => {
  it('splits "known for his roles in the TV series A and B" by title, as with a lower-case kind (second half)', () => {
    const tucker = claims('Jonathan Tucker is an American actor. He is best known for his roles in the TV series "Kingdom" and "City on a Hill."');
    expect(tucker).toEqual(expect.arrayContaining(['Tucker is best known for his role in "Kingdom".', 'Kingdom is a TV series.']));
    expect(tucker.some((c) => c.includes('"Kingdom" and'))).toBe(false);
    // The naming claims of quoted titles are asked once, without the quotes.
    expect(tucker).not.toContain('"Kingdom" is a TV series.');
  });

  it('leaves a garbled list whose title is quoted in part alone', () => {
    const sanchez = claims('Roselyn Sánchez is best known for her roles in the TV series "Without a Trace" and "Devious Maids", as well as the films "Rush Hour 2", "The Game Plan", and "Act of Valor".');
    expect(sanchez).toContain('Roselyn Sánchez is best known for her role in "Devious Maids".');
    expect(sanchez).not.toContain('The Game Plan is a TV series.');
  });
});
