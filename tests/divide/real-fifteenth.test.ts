// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's fifteenth pass, on the precision of
// claims (the study's suspect claims, scripts/study/divide-real.ts), each rule pinned on a sentence from a dev set's
// first half.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';
import { answerWordSet, suspectClass } from '../../scripts/study/divide-real.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the fifteenth pass', () => {
  it('salvages no span of time as a thing ("a good night\'s sleep", "the age of five years")', () => {
    const cat = claims("Firstly, the couch provides a soft, comfortable surface for the cat to rest on, which is essential for a good night's sleep.");
    expect(cat).toContain('The couch provides a soft surface for the cat to rest on.');
    expect(cat).not.toContain('There is a good night.');
    const calico = claims('The cat is a calico cat, which means it has a mix of black, white, and orange fur.');
    expect(calico).toContain('There is an orange fur.');
    expect(calico).not.toContain('There is a mix.');
    const medina = claims('Lina Medina (born September 23, 1933) is a Peruvian woman who became the youngest confirmed mother in history, giving birth at the age of five years, seven months, and 21 days.');
    expect(medina).toContain('Lina Medina became the youngest confirmed mother in history.');
    expect(medina.filter((c) => /^There (?:is|are) (?:an age|five years|seven months|21 days)\.$/.test(c))).toEqual([]);
  });

  it('keeps ", and" + noun + "shows" in a list of nouns (the tagger reads "variety shows" as a clause)', () => {
    const iu = claims('IU is a multi-talented artist, having starred in numerous dramas, films, and variety shows.');
    expect(iu).toEqual(['IU is a multi-talented artist.', 'IU has starred in numerous dramas, films, and variety shows.']);
    const zamfir = claims('He has released more than 20 albums, many of which have been international successes, and his music has been featured in film soundtracks, commercials, and TV shows around the world.');
    expect(zamfir).toContain('His music has been featured in film soundtracks, commercials, and TV shows around the world.');
    expect(zamfir.filter((c) => /commercials\.$|^TV shows/.test(c))).toEqual([]);
  });

  it('keeps two prepositions that share one object together ("on and off the field")', () => {
    const houghton = claims('He has a passion for the game of rugby league and is a hard worker on and off the field.');
    expect(houghton).toEqual(['He has a passion for the game of rugby league.', 'He is a hard worker on and off the field.']);
  });

  it('takes the quoted title of a listed "name on \"Title\"" where the category is a kind of work', () => {
    const gibson = claims('He is best known for his roles in soap operas, including his portrayal of Joe Kelly on "General Hospital" and Ben Gibson on "Knots Landing."');
    expect(gibson).toEqual(expect.arrayContaining(['General Hospital is a soap opera.', 'Knots Landing is a soap opera.']));
    expect(gibson.filter((c) => /onKnots|Gibson on Knots Landing is/.test(c))).toEqual([]);
  });

  it('reads an -ing word after "her" as a gerund, not a participle with "her" as its subject', () => {
    const perez = claims('Her death was widely believed to be related to her reporting on drug trafficking and corruption in Veracruz, and it sparked outrage and protests.');
    expect(perez).toContain('Her death was widely believed to be related to her reporting on drug trafficking and corruption in Veracruz.');
    expect(perez.filter((c) => / her\.$|is reporting/.test(c))).toEqual([]);
    const barboza = claims('She is currently living in Rio de Janeiro and continuing her acting and singing career.');
    expect(barboza.filter((c) => / her\.$/.test(c))).toEqual([]);
  });
});

describe('the study\'s suspect claims', () => {
  const words = answerWordSet('He has a passion for rugby and is a hard worker on and off the field. Gerardo Fernandez Fe (1966) founded it, leading the group after a good night\'s sleep.');
  it('flags a dangling end, a comma list without "and", a cut name, a word the answer lacks and an empty existence', () => {
    expect(suspectClass('Houghton is a hard worker on.', words)).toBe('dangling');
    expect(suspectClass('His music has been featured in film soundtracks, commercials.', words)).toBe('dangling');
    expect(suspectClass('Khan finished her.', words, 'Khan finished her schooling at Thanamandi.')).toBe('dangling');
    expect(suspectClass('Ge founded it.', words)).toBe('fragment');
    expect(suspectClass('Ben Gibson onKnots Landing is a soap opera.', words)).toBe('foreign word');
    expect(suspectClass('There is a good night.', words)).toBe('empty existence');
  });
  it('passes well-formed claims, stranded prepositions, coordinate adjectives and inflected or template words', () => {
    const couch = 'The couch provides a soft, comfortable surface for the cat to rest on.';
    expect(suspectClass('The couch provides a soft surface for the cat to rest on.', answerWordSet(couch), couch)).toBeNull();
    expect(suspectClass('The mangosteen has a tart, citrusy note.', answerWordSet('The mangosteen has a tart, citrusy note.'))).toBeNull();
    expect(suspectClass('Fe led the group.', words)).toBeNull();
    expect(suspectClass('Fe was born in 1966.', words)).toBeNull();
    expect(suspectClass('This environment presents several challenges for her.', answerWordSet('This environment presents several challenges for her.'), 'This environment presents several challenges for her.')).toBeNull();
  });
});
