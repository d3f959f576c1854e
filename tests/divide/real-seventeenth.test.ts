// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's seventeenth pass, on the biographies'
// missed facts (coverage), each rule pinned on a sentence from the biographies' first half.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the seventeenth pass', () => {
  it('carries the perfect\'s "has" to a later verb phrase of the same subject', () => {
    const group = claims('The group has released five commercially successful albums, performed four world tours, and won several awards.');
    expect(group).toContain('The group has won several awards.');
    expect(group).not.toContain('The group won several awards.');
    const bertotti = claims('She has also released two studio albums and participated in several musicals.');
    expect(bertotti).toContain('She has participated in several musicals.');
    const fritchie = claims('She has held senior positions in government agencies and served as Chancellor of a university.');
    expect(fritchie).toContain('She has served as Chancellor of a university.');
  });

  it('leaves a simple past with a year, a past perfect and a name alone', () => {
    expect(claims('He has lived in Paris and moved to London in 2000.')).toContain('He moved to London in 2000.');
    expect(claims('She had studied law and worked as a clerk.')).not.toContain('She had worked as a clerk.');
    const band = claims('The band has featured members of Brujeria, Fear Factory, Sepultura, Sadistic Intent, Possessed, Ministry and Static-X.');
    expect(band.some((c) => c.startsWith('The band has Possessed'))).toBe(false);
  });

  it('keeps an adverb in -ly with the adjective of an example\'s kind', () => {
    const ikaruga = claims('The company has developed many critically acclaimed games, including "Ikaruga", "Radiant Silvergun", and "Sin and Punishment".');
    expect(ikaruga).toContain('Ikaruga is a critically acclaimed game.');
    expect(ikaruga).not.toContain('Ikaruga is an acclaimed game.');
  });

  it('reads an -ing word and a bare noun in a possessive\'s list as an item, not a participle phrase', () => {
    const fernandinho = claims('He is known for his physicality, tackling ability, and passing range, and is widely regarded as one of the best defensive midfielders in the world.');
    expect(fernandinho).toEqual(expect.arrayContaining(['He is known for his tackling ability.', 'He is known for his passing range.']));
    expect(fernandinho).not.toContain('He is tackling ability.');
    // A participle phrase after a comma stays one.
    expect(claims('He made his debut in 1990, playing for the reserves.')).toContain('He played for the reserves.');
  });
});
