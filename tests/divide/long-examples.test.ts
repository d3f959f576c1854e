// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's twenty-fourth pass, long claims that
// still held a category with its examples or a list after a preposition, each rule pinned on a dev sentence.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: examples after a category (twenty-fourth pass)', () => {
  it('reads roles after "including as" with an irregular verb, after "most notably as", and as bare titles (bios)', () => {
    // FActScore's annotators: "She was the Chief Executive of the National Lottery Charities Board.", "... of the
    // Health and Safety Executive."; "held" had kept the sentence whole.
    const fritchie = claims('Rennie Fritchie is a British civil servant. She later held various senior positions in the civil service, including as the Chief Executive of the National Lottery Charities Board and the Health and Safety Executive.');
    expect(fritchie).toEqual(expect.arrayContaining([
      'Fritchie later held various senior positions in the civil service.',
      'Fritchie was the Chief Executive of the National Lottery Charities Board.',
      'Fritchie was the Chief Executive of the Health and Safety Executive.',
    ]));
    // Annotators: "He served as Chancellor of the Duchy of Lancaster.", "He served as Paymaster General.".
    const waldegrave = claims('He served in several government positions, most notably as Chancellor of the Duchy of Lancaster (1989–90), Secretary of State for Health (1990–92), and Paymaster General (1992–94).');
    expect(waldegrave).toEqual(expect.arrayContaining(['He served in several government positions.', 'He served as Chancellor of the Duchy of Lancaster.', 'He served as Secretary of State for Health.', 'He served as Paymaster General.']));
    // The "and" the first title's word follows divides the titles; the one inside "Trade and Industry" does not.
    const miki = claims('He was first elected to the House of Representatives in 1946 and served in various cabinet positions, including as Minister of International Trade and Industry and Minister of Finance.');
    expect(miki).toEqual(expect.arrayContaining(['He served as Minister of International Trade and Industry.', 'He served as Minister of Finance.']));
  });

  it('keeps a list of bare names that no office opens whole, and a body\'s name with "and" one name', () => {
    // "Minister of Education, University and Research": the pieces after its comma open no title, so they are no roles.
    const tusa = claims('He served in several roles, including as Minister of Education, University and Research.');
    expect(tusa).not.toContain('He served as University.');
    expect(tusa).not.toContain('He served as Research.');
    // "the Health and Safety Executive" is one body, whatever rule reads its "and".
    expect(claims('He was the director of the Health and Safety Executive.')).toEqual(['He was the director of the Health and Safety Executive.']);
    expect(claims('He was the director of the Food and Drug Administration.')).toEqual(['He was the director of the Food and Drug Administration.']);
  });
});
