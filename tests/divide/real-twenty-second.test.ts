// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's twenty-second pass, on the biographies'
// long and garbled claims over the whole dev file, each rule pinned on a dev sentence (the half it comes from is named).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the twenty-second pass', () => {
  it('takes each role of a "roles as A in X, B in Y" list with its own work (second half)', () => {
    const chianese = claims('Dominic Chianese is an American actor, singer, and musician best known for his roles as Corrado "Junior" Soprano on the HBO series The Sopranos (1999–2007), Johnny Ola in The Godfather Part II (1974), and Leander in Boardwalk Empire (2011–2013).');
    expect(chianese).toEqual(expect.arrayContaining([
      'Dominic Chianese is best known for his role as Corrado "Junior" Soprano.',
      'Dominic Chianese\'s role as Corrado "Junior" Soprano is on the HBO series The Sopranos.',
      'Dominic Chianese is best known for his role as Johnny Ola.',
      'Dominic Chianese\'s role as Johnny Ola is in The Godfather Part II.',
      'Dominic Chianese\'s role as Leander is in Boardwalk Empire.',
    ]));
    // The first role's words were shared with the others ("... as Corrado "Junior" Soprano on Johnny Ola in ...").
    expect(chianese.filter((c) => /Soprano on (?:Johnny|Leander)/.test(c))).toEqual([]);
    // A name beyond ASCII is a name too.
    expect(claims('Sánchez is best known for her roles as Elena Delgado on the CBS police procedural Without a Trace and Carmen Luna on the Lifetime comedy-drama Devious Maids.')).toEqual(expect.arrayContaining([
      'Sánchez is best known for her role as Elena Delgado.',
      'Sánchez\'s role as Carmen Luna is on the Lifetime comedy-drama Devious Maids.',
    ]));
  });

  it('starts a released title at its capitalised article, not at the role before it (second half)', () => {
    const chianese = claims('On film, Chianese played Johnny Ola in The Godfather Part II (1974).');
    expect(chianese).toContain('The Godfather Part II was released in 1974.');
    expect(chianese.filter((c) => /^Johnny Ola in/.test(c))).toEqual([]);
    // An article that opens the title after a lower-case preposition stays the title's.
    expect(claims('He appeared in films like A Bronx Tale (1993).')).toContain('A Bronx Tale was released in 1993.');
  });

  it('names no place or kind inside a list of roles (second half)', () => {
    const wenham = claims('Wenham is known for his roles as Faramir in The Lord of the Rings film trilogy, Friar Carl in Van Helsing, Dilios in 300 and its sequel 300: Rise of an Empire, Al Parker in Top of the Lake.');
    expect(wenham).toEqual(expect.arrayContaining(['Wenham\'s role as Friar Carl is in Van Helsing.', 'Wenham\'s role as Al Parker is in Top of the Lake.']));
    // Had been: "Faramir is in The Lord.", "Friar Carl in Van Helsing is a Rings film trilogy.", "Van Helsing is in Dilios."
    expect(wenham.filter((c) => /^(?:Faramir|Van Helsing) is in|is a Rings film trilogy/.test(c))).toEqual([]);
    // A place chain and a kind after "of the" outside such a list stay.
    expect(claims('Sabatini was inducted into the International Tennis Hall of Fame in Newport, Rhode Island, United States on July 15, 2006.')).toContain('Newport is in Rhode Island.');
    expect(claims('She is a part of the South Korean girl group Red Velvet, which debuted in 2014 under SM Entertainment.')).toContain('Red Velvet is a South Korean girl group.');
    expect(claims('He moved to other clubs such as Gandzasar Kapan in the Armenian Premier League.')).toContain('Gandzasar Kapan is in the Armenian Premier League.');
  });

  it('keeps what a person did in the time spent with the time, not as the time\'s (first and second half)', () => {
    const nkosi = claims('Nkosi spent the next several decades living and working in various countries, including England, Zambia, and the United States.');
    expect(nkosi).toContain('Nkosi spent the next several decades living and working in England.');
    expect(nkosi.filter((c) => /^The decades are/.test(c))).toEqual([]);
    expect(claims('Katsu spent her childhood moving around the United States and overseas.')).toEqual(['Katsu spent her childhood moving around the United States and overseas.']);
    // A participle after any other object is still the object's ("a clock mounted on a wall").
    expect(claims('He bought a house facing the sea.')).toContain('The house is facing the sea.');
  });

  it('puts a thing\'s event with its agent in the main clause\'s past (second half)', () => {
    const reign = claims('During his reign, he continued many of the building projects started by his father.');
    expect(reign).toContain('The building projects were started by his father.');
    expect(claims('Ford played the husband of a character played by Joan Van Ark.')).toContain('The character was played by Joan Van Ark.');
    // A state stays in the present ("a marine sanctuary known for its coral reefs"), as does a present main clause.
    expect(claims('The divers visited a marine sanctuary known for its vibrant coral reefs.')).toContain('The marine sanctuary is known for its vibrant coral reefs.');
    expect(claims('The museum holds a painting painted by Leonardo da Vinci.')).toContain('The painting is painted by Leonardo da Vinci.');
  });
});
