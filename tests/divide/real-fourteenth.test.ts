// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's fourteenth pass, each rule pinned on a
// sentence from a dev set's first half (the "Tom and Huck" one is the known wrong pair the thirteenth pass left).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the fourteenth pass', () => {
  it('keeps a title with "and" inside whole in the last item of a list', () => {
    const flaherty = claims("Flaherty has been active in the film industry since 1984 and has given memorable performances in movies such as Lonesome Dove, Natural Born Killers, Book of Shadows: Blair Witch 2, Signs, Winter People, Miller's Crossing, Blood In Blood Out, Tom and Huck and Home Fries[1][2][4][5].");
    expect(flaherty).toEqual(expect.arrayContaining(['Tom and Huck is a movie.', 'Flaherty has given memorable performances in "Tom and Huck".', 'Flaherty has given memorable performances in Home Fries.']));
    expect(flaherty.filter((c) => /^(?:Tom|Huck) is|in (?:Tom|Huck)\.$/.test(c))).toEqual([]);
    const miki = claims('He was elected to the House of Representatives in 1947, and served in various cabinet positions, including Minister of Finance, Minister of Foreign Affairs, and Minister of International Trade and Industry.');
    expect(miki).toContain('Minister of International Trade and Industry is a cabinet position.');
    expect(miki.filter((c) => /^Industry is|in Industry\.$/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: a second predicate after "and" in a long claim', () => {
  it('splits a past predicate after a past main verb, the name of an apposition its subject', () => {
    const kerser = claims('His debut album, The Nebulizer, was released in 2011 and peaked at number 10 on the ARIA Charts.');
    expect(kerser).toEqual(expect.arrayContaining(['His debut album, The Nebulizer, was released in 2011.', 'The Nebulizer peaked at number 10 on the ARIA Charts.']));
    const rio = claims("Baltasar Corrada del Río was a Puerto Rican politician. He was an advocate for Puerto Rican self-determination and supported Puerto Rico's autonomy within the United States.");
    expect(rio).toEqual(expect.arrayContaining(['Del Río was an advocate for Puerto Rican self-determination.', "Del Río supported Puerto Rico's autonomy within the United States."]));
  });

  it('leaves nouns after "and" where the tagger read no verb', () => {
    const diamond = claims('Lisa Diamond is an American psychologist. She has written numerous books and articles on the topics of gender identity, homosexuality, transgenderism, and sexual health.');
    expect(diamond.filter((c) => /^Diamond articles/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: a person\'s participle in the main clause\'s tense', () => {
  it('writes "was known for" after a past main clause', () => {
    const senecio = claims('Overall, Quintus Sosius Senecio was a prominent figure in Roman society, known for his military prowess, political acumen, and intellectual pursuits.');
    expect(senecio).toEqual(expect.arrayContaining(['Quintus Sosius Senecio was known for his military prowess.', 'Quintus Sosius Senecio was known for his intellectual pursuits.']));
    expect(senecio.filter((c) => / is known for/.test(c))).toEqual([]);
    // A present main clause keeps the present.
    expect(claims('Andrew Shue is an American actor best known for his role as Billy Campbell on the television series Melrose Place.'))
      .toContain('Andrew Shue is best known for his role as Billy Campbell.');
  });
});

describe('divideRules on biographies: a title after its kind and a comma', () => {
  it('names a title with a year in brackets after it, and a quoted title that opens with a pronoun', () => {
    // After a possessive the kind is the owner's one thing (the twenty-third pass): "His crime drama is Shiva.".
    expect(claims('Varma first gained recognition for his crime drama, Shiva (1989), which won critical acclaim.')).toContain('His crime drama is Shiva.');
    expect(claims('Cukor won Best Director for the 1964 romantic comedy, "My Fair Lady."')).toContain('My Fair Lady is a romantic comedy.');
    // An order is the sentence's, not the kind's; after a possessive it is the owner's ("His first film is Grumpy.").
    expect(claims('He directed his first film, Grumpy (1930), for Paramount in 1930.')).toContain('His first film is Grumpy.');
    expect(claims('He directed the first film, Grumpy (1930), for Paramount in 1930.')).toContain('Grumpy is a film.');
  });
});

describe('divideRules on VLM answers: an evaluation of listed things keeps what it says of them', () => {
  it('claims a new adjective of a thing the answer already named, and records the evaluation as dropped', () => {
    const d = divideRules("The image features a red velvet couch with a cat lying on it. The cat is a calico cat, which means it has a mix of black, white, and orange fur. The combination of the cat's colorful fur, the red velvet couch, and the living room setting creates a visually appealing and inviting atmosphere.");
    const last = d.claims.filter((c) => c.sentence.startsWith('The combination'));
    expect(last.map((c) => c.claim)).toContain("The cat's fur is colorful.");
    expect(d.skipped.some((s) => /creates a visually appealing/.test(s.sentence))).toBe(true);
  });
});

describe('divideRules on biographies: ", which he ..." after a name and its kind', () => {
  it('puts the name back in the place "which" stands for', () => {
    const kisser = claims('Andreas Kisser is a Brazilian musician. Kisser is best known as the lead guitarist for the metal band Sepultura, which he joined in 1987.');
    expect(kisser).toEqual(expect.arrayContaining(['Kisser is best known as the lead guitarist for the metal band Sepultura.', 'Kisser joined Sepultura in 1987.']));
    const haagensen = claims("Phellipe Haagensen is a Brazilian actor. Haagensen made his acting debut in Fernando Meirelles' 2002 film City of God, for which he won two awards for Best Supporting Actor.");
    expect(haagensen).toContain('Haagensen won two awards for Best Supporting Actor for City of God.');
  });

  it('leaves "which" after a list or before "to" whole', () => {
    const bin = claims('Osama bin Laden was a militant. Bin Laden later became the leader of al-Qaeda, which he used to launch a series of attacks against the United States.');
    expect(bin.filter((c) => /used to launch al-Qaeda/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: ", eventually -ing" after a past main clause', () => {
  it('is a past fact of the subject, as "before moving to" is', () => {
    const zelma = claims('Zelma Wilson was an American civil servant. After college, Zelma worked for the Department of Health, Education, and Welfare, eventually moving to the Department of Labor in Washington, DC.');
    expect(zelma).toContain('Zelma moved to the Department of Labor in Washington, DC.');
    expect(zelma.filter((c) => /eventually moving/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: a plural verb after ", which" finds a plural antecedent', () => {
  it('reads "albums ... with The Living End, which have charted" as the albums having charted', () => {
    const cheney = claims('Chris Cheney is an Australian musician. Cheney has released eight studio albums with The Living End, which have charted in Australia, the United States, and the United Kingdom.');
    expect(cheney).toContain('The eight studio albums have charted in Australia.');
    expect(cheney.filter((c) => /^End have/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: ", having taken part" and ", having been"', () => {
  it('gives the perfect, not "is having"', () => {
    const wendy = claims('Wendy is a South Korean singer. She is also a skilled dancer, having taken part in several dance projects.');
    expect(wendy).toContain('Wendy has taken part in several dance projects.');
    expect(wendy.filter((c) => /is having/.test(c))).toEqual([]);
  });
});

describe('divideRules on biographies: a past verb with an object after a name is no participle', () => {
  it('keeps "Krenz resigned his post" a clause of its own', () => {
    const krenz = claims('Egon Krenz is a former East German politician. After just over a month in office, the GDR ceased to exist and Krenz resigned his post.');
    expect(krenz).toContain('Krenz resigned his post.');
    expect(krenz.filter((c) => /(?:is|was) resigned|and Krenz\.$/.test(c))).toEqual([]);
  });
});
