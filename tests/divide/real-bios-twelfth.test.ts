// The rules divider on the biographies of FActScore's dev set (../shared/real-claims/text-bios-dev.jsonl, MIT):
// issue 29's twelfth pass, each rule pinned on a sentence from the dev set, against what the annotators wrote.
import { describe, expect, it } from 'vitest';
import { claimToQuestion, divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on biographies: the twelfth pass', () => {
  it('keeps a contraction inside a title before its year ("There\'s No Business ...", not "No Business ...")', () => {
    const gaynor = claims("She is best known for her performances in several classic movie musicals from the mid-1950s to the early 1970s, including South Pacific (1958), There's No Business Like Show Business (1954), and Anything Goes (1956).");
    expect(gaynor).toContain("There's No Business Like Show Business was released in 1954.");
    expect(gaynor.filter((c) => c.startsWith('No Business'))).toEqual([]);
    expect(claims("He is best known for his roles in television dramas such as City Hall (2009), The Greatest Love (2011), and You're All Surrounded (2014)."))
      .toContain("You're All Surrounded was released in 2014.");
    // A possessive before a title is not part of it.
    const roles = claims("Her other film roles include Oliver Stone's Born on the Fourth of July (1989), Cameron Crowe's Singles (1992), What's Cooking (2000).");
    expect(roles).toEqual(expect.arrayContaining(['Singles was released in 1992.', "What's Cooking was released in 2000."]));
  });

  it('names what a title or a person is in the words the answer used', () => {
    // A singular kind keeps its "ss"; "of the" is inside a title; "a USA ...", not "an USA ...".
    expect(claims('Ji has been married to actress Lee Bo Young since 2013.')).toContain('Lee Bo Young is an actress.');
    expect(claims('He currently stars in the USA Network series Queen of the South.')).toContain('Queen of the South is a USA Network series.');
    // A title after a kind of work that ends the phrase, even when the tagger reads no name in it.
    expect(claims('Haagensen has since appeared in the American film Fast Five.')).toContain('Fast Five is an American film.');
    expect(claims('Toyoko Tokiwa is best known for starring in the television series Otoko wa Tsurai yo and the film series Tora-san.')).toContain('Tora-san is a film series.');
  });

  it('makes a "when" clause after the main clause a fact of its own, at the main clause\'s year', () => {
    expect(claims('Lummis rose to fame in 2004 when he won the first series of the New Zealand Idol competition.')).toEqual([
      'Lummis rose to fame in 2004.', 'Lummis won the first series of the New Zealand Idol competition in 2004.',
    ]);
    expect(claims('Smith served in this position until 2015, when the bank was sold to a private investor.')).toEqual([
      'Smith served in this position until 2015.', 'The bank was sold to a private investor in 2015.',
    ]);
    // Left whole: an age or a stage, and a bare verb that says nothing without its "when".
    expect(claims('Alfonso fled to the United States with his parents in 1960 when he was five years old.')).toEqual([
      'Alfonso fled to the United States with his parents in 1960 when he was five years old.',
    ]);
    expect(claims("Neumann's political career began when he was elected to the Federal seat of Blair in November 2007.")).toHaveLength(1);
  });

  it('gives a ", where" clause the named place before it, in front so each conjunct takes it', () => {
    expect(claims('Born on 4 May 1984 in Rio de Janeiro, Brazil, Fernando started his professional career with Vila Nova in 2003, before moving to FC Porto in 2006, where he won the UEFA Cup and five Primeira Liga titles.'))
      .toEqual(expect.arrayContaining(['At FC Porto, he won the UEFA Cup.', 'At FC Porto, he won five Primeira Liga titles.']));
    expect(claims('After the war, he went into exile in Europe, where he died in 1904.')).toContain('In Europe, he died in 1904.');
    // No name right before the comma, or a list before it: the clause as it was.
    expect(claims('She studied psychology at the University of Latvia and the University of Montreal, where she earned her PhD in Experimental Psychology in 1965.'))
      .toContain('She earned her PhD in Experimental Psychology in 1965.');
  });

  it('gives "before/after -ing" the main clause\'s pronoun subject, not its object', () => {
    expect(claims('He spent the next four seasons in the minor leagues before making his MLB debut in 2016.'))
      .toEqual(['He spent the next four seasons in the minor leagues.', 'He made his MLB debut in 2016.']);
    expect(claims('She worked for several years as a senior intelligence analyst for the CIA before becoming a full-time writer.'))
      .toContain('She became a full-time writer.');
    // A named subject as before.
    expect(claims('Gilberto began his career with América Mineiro in 1995, before moving to Atlético Mineiro the following season.'))
      .toContain('Gilberto moved to Atlético Mineiro the following season.');
  });

  it('names a biography\'s he or she by the name the answer opens with, in the form the answer goes on to use', () => {
    // A name with a particle, "better known as": the alias the answer uses (was "The player ...").
    expect(claims('Manuel Francisco dos Santos, better known as Garrincha, was a Brazilian football player who played as a right winger. He is widely regarded as one of the greatest dribblers of all time.'))
      .toContain('Garrincha is widely regarded as one of the greatest dribblers of all time.');
    // A stage name whose last word is no name's word stays whole (was "The man ...").
    expect(claims('Beenie Man (born Anthony Moses Davis on August 22, 1973) is a Jamaican reggae and dancehall artist. He began his music career at the age of eight.'))
      .toContain('Beenie Man began his music career at the age of eight.');
    // The surname when the answer uses it; a particle goes with it.
    expect(claims('Osama bin Laden was a Saudi Arabian militant. He was born on March 10, 1957. Bin Laden founded al-Qaeda.')).toContain('Bin Laden was born on March 10, 1957.');
    expect(claims('Shayne Neumann is an Australian politician. He was elected in 2007. Neumann is a lawyer.')).toContain('Neumann was elected in 2007.');
  });

  it('reads a pronoun after a fronted year with no comma as the subject ("In 2000 he obtained ...")', () => {
    const d = divideRules("In 2000 he obtained a Master's degree in International Economic Policy from Columbia University.");
    expect(d.claims.map((c) => c.question)).toEqual(["Did he obtain a Master's degree in International Economic Policy from Columbia University in 2000?"]);
    expect(claims('In 2013 he transferred to Valencia in Spain and won the Copa del Rey in the same year.'))
      .toEqual(expect.arrayContaining(['In 2013 he transferred to Valencia in Spain.', 'In 2013 he won the Copa del Rey in the same year.']));
  });

  it('carries the perfect of ", having -ed" also when the tagger reads the participle as an adjective or a noun', () => {
    const d = divideRules('António de Oliveira Salazar was a Portuguese statesman. He was a devout Roman Catholic and a highly educated man, having studied law at the University of Coimbra and economics at the University of Paris.');
    // Each object with its own phrase is a claim of its own since the nineteenth pass (gapped-pair.ts); after the past
    // main clause ("He was ...") the perfect is past since the twenty-third.
    expect(d.claims.map((c) => c.claim)).toEqual(expect.arrayContaining(['Salazar had studied law at the University of Coimbra.', 'Salazar had studied economics at the University of Paris.']));
  });

  it('asks "has served as", "has worked as", "has released sixteen ..." as a perfect, not as possession', () => {
    // (A name's capital comes from the answer's tags, which a claim alone has not.)
    expect(claimToQuestion('Malinowitz has served as a rabbi in New York City.')).toBe('Has malinowitz served as a rabbi in New York City?');
    expect(claimToQuestion('He has worked as a journalist.')).toBe('Has he worked as a journalist?');
    expect(claimToQuestion('The band has released sixteen albums.')).toBe('Has the band released sixteen albums?');
    // Possession of a modified noun stays: a picture's "has curved edges".
    expect(claimToQuestion('The table has curved edges.')).toBe('Does the table have curved edges?');
  });

  it('reads "was" after a title that ends in a number as the verb ("Was the Nebulizer 2 released in 2013?")', () => {
    expect(claimToQuestion('The Nebulizer 2 was released in 2013.')).toBe('Was the Nebulizer 2 released in 2013?');
    expect(claimToQuestion('His third album Flockaveli 2 was released in 2015.')).toBe('Was his third album Flockaveli 2 released in 2015?');
  });

  it('reads a name\'s particle ("dos", "do", "da") as part of the name, never the verb "do"', () => {
    const d = divideRules('Manuel Francisco dos Santos, better known as Garrincha, was a Brazilian football player who played as a right winger.');
    expect(d.claims.map((c) => c.question)).toContain('Did Manuel Francisco dos Santos play as a right winger?');
  });

  it('gives each title of "known for his roles in the films A and B" a claim of its own, and its kind', () => {
    expect(claims('Marianne McAndrew is best known for her roles in the 1970s films Grease and Airport 1975.')).toEqual(expect.arrayContaining([
      'Marianne McAndrew is best known for her role in Grease.', 'Marianne McAndrew is best known for her role in Airport 1975.', 'Airport 1975 is a 1970s film.',
    ]));
    expect(claims('Flaherty is best known for his roles in the television series The Closer, Rizzoli & Isles and the film American Pie.')).toEqual(expect.arrayContaining([
      'Flaherty is best known for his role in Rizzoli & Isles.', 'Flaherty is best known for his role in American Pie.', 'American Pie is a film.',
    ]));
    // An ambiguous list stays whole.
    const kang = 'Kang is best known for his appearances in the television dramas The Liar and His Lover and When the Devil Calls Your Name.';
    expect(claims(kang)[0]).toBe(kang);
  });

  it('asks a named subject\'s "has -ed" + noun as a perfect ("Has Varma directed films ...?"), a thing\'s as possession', () => {
    const d = divideRules('Ram Gopal Varma is an Indian film director. Varma has directed films across multiple genres.');
    expect(d.claims.map((c) => c.question)).toContain('Has Varma directed films across multiple genres?');
    expect(claimToQuestion('The cat has striped fur.')).toBe('Does the cat have striped fur?');
  });

  it('keeps a league\'s letter or number in a club\'s kind ("Bologna is an Italian Serie A club.")', () => {
    expect(claims('Daniel Carvalho is a Brazilian professional footballer who plays for Italian Serie A club Bologna.')).toContain('Bologna is an Italian Serie A club.');
  });

  it('keeps a capitalised word after "the" in a title list\'s kind ("the Broadway musicals A and B")', () => {
    expect(claims('Gaynor also starred in the Broadway musicals Wonderful Town and Follies.'))
      .toEqual(expect.arrayContaining(['Wonderful Town is a Broadway musical.', 'Follies is a Broadway musical.']));
  });

  it('names the examples of "several books on A, B and C, including X" as books, not topics', () => {
    expect(claims('Letwin has written several books on politics, philosophy and public policy, including "The Politics of Freedom," "Party Versus Country" and "After the Terror."'))
      .toEqual(expect.arrayContaining(['The Politics of Freedom is a book.', 'Party Versus Country is a book.', 'After the Terror is a book.']));
  });

  it('splits a counted category whose topics are a list from its examples ("several books of poetry, fiction, and non-fiction, including ...")', () => {
    expect(claims('Nkosi published several books of poetry, fiction, and non-fiction, including Mating Birds, The Transplanted Heart, and The Will to Die.'))
      .toEqual(expect.arrayContaining(['Nkosi published several books of poetry.', 'Nkosi published Mating Birds.', 'Nkosi published The Will to Die.', 'Mating Birds is a book.']));
  });

  it('reads "including as" roles after a fronted phrase and before ", and was ..."', () => {
    expect(claims('Rennie Fritchie is a British civil servant. She has also held a number of positions in the Labour Party, including as chair of the North West Regional Women\'s Committee from 2000-2004, and was an active member of the Co-operative Party.'))
      .toEqual(expect.arrayContaining(['Fritchie has also held a number of positions in the Labour Party.', 'Fritchie was an active member of the Co-operative Party.']));
    expect(claims('Rennie Fritchie is a British civil servant. In addition to her parliamentary work, she has also served on several public bodies and committees, including as the Chair of the Standards Committee of the House of Lords.'))
      .toContain('Fritchie was the Chair of the Standards Committee of the House of Lords.');
  });
});
