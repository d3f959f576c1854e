// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's twenty-fourth pass, the relative clauses
// on names and titles that long claims kept, each rule pinned on a dev sentence.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';
import { relativeNameApart } from '../../src/divide/relative-name.js';
import { claimToQuestion } from '../../src/divide/question.js';
import { duringWhichApart } from '../../src/divide/during-which.js';
import { eventWhichApart } from '../../src/divide/event-which.js';
import { inWhichApart } from '../../src/divide/in-which.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: relative clauses on names and titles (twenty-fourth pass)', () => {
  it('makes a "which"/"that" clause right after a quoted title or a name a fact of the title (biographies)', () => {
    const kirby = divideRules('Kirby\'s breakthrough role came in 2016 when she was cast as Princess Margaret in the Netflix series "The Crown," which earned her critical acclaim and a nomination for the Primetime Emmy Award for Outstanding Supporting Actress in a Drama Series.').claims;
    expect(kirby.map((c) => c.claim)).toContain('She was cast as Princess Margaret in the Netflix series "The Crown".');
    // The title's kind goes with it ("The music video brought her to ...", the annotators wrote).
    const crown = kirby.find((c) => /^The Netflix series The Crown earned her critical acclaim/.test(c.claim));
    expect(crown?.question).toMatch(/^Did the Netflix series The Crown earn her critical acclaim/);
    expect(claims('In 2003 she appeared in the music video "Pardesiya Yeh Sach Hai Piya" which brought her to the attention of the Bollywood film industry[1].'))
      .toEqual(expect.arrayContaining(['In 2003 she appeared in the music video "Pardesiya Yeh Sach Hai Piya".', 'The music video Pardesiya Yeh Sach Hai Piya brought her to the attention of the Bollywood film industry.']));
    // A name without a comma; an object relative; a year after the title ("a year wins nothing").
    expect(claims('Cheney is the founding mainstay guitarist, songwriter, and lead vocalist of the rockabilly band The Living End which he formed in 1994 with schoolmate Scott Owen [1][2].'))
      .toContain('Cheney formed The Living End in 1994 with schoolmate Scott Owen.');
    expect(claims('She released her major-label debut album "Everlasting Life" in 1998 which won her the Gospel Music Excellence award for Contemporary Female Vocalist of the Year.'))
      .toEqual(expect.arrayContaining(['She released her major-label debut album "Everlasting Life" in 1998.', 'Her major-label debut album Everlasting Life won her the Gospel Music Excellence award for Contemporary Female Vocalist of the Year.']));
    // "for which" after a quoted title; the subject that the title names ("His most recent book is ...").
    expect(claims('In 2020, she starred in the film "Pieces of a Woman," for which she received Academy Award, BAFTA, SAG, Critics\' Choice, and Golden Globe nominations.'))
      .toContain('She received Academy Award, BAFTA, SAG, Critics\' Choice, and Golden Globe nominations for "Pieces of a Woman".');
    expect(claims('His most recent book is "China vs America: A Warning," which discusses how China\'s rise poses a threat to Western democracies[1].'))
      .toEqual(expect.arrayContaining(['His most recent book is "China vs America: A Warning".', 'His most recent book discusses how China\'s rise poses a threat to Western democracies.']));
    // A title may open on "I" where its words are capitalised.
    expect(relativeNameApart('Her biggest hit was the power ballad "I Will Always Love You" which topped the charts in fourteen countries in 1992.'))
      .toContain('The power ballad I Will Always Love You topped the charts in fourteen countries in 1992.');
    expect(claims('Nadiadwala made his directorial debut with the movie Kick that brought him various debutant director awards.'))
      .toContain('The movie Kick brought him various debutant director awards.');
    // A name's "the" goes with it, as object or subject.
    expect(relativeNameApart('He studied at the University of Oxford which he left in 1992 without taking a degree.'))
      .toEqual(['He studied at the University of Oxford.', 'He left the University of Oxford in 1992 without taking a degree.']);
    expect(relativeNameApart('In the summer of 1787 he travelled to the Constitutional Convention which drafted the United States Constitution in Philadelphia.'))
      .toContain('The Constitutional Convention drafted the United States Constitution in Philadelphia.');
  });

  it('gives the one example right after "including" its relative clause (biographies)', () => {
    expect(claims('He also starred in several action films, including Black Panther (2018), for which he received several awards and nominations.'))
      .toContain('He received several awards and nominations for Black Panther.');
    // A stranded preposition at the clause's end: the title goes after it (annotators: "She starred in That Girl in
    // Yellow Boots.").
    expect(claims('Apart from acting, Kalki is also a writer and has written scripts for several films, including "That Girl in Yellow Boots," which she also starred in.'))
      .toEqual(expect.arrayContaining(['Kalki has written scripts for several films, including "That Girl in Yellow Boots".', 'She also starred in "That Girl in Yellow Boots".']));
  });

  it('leaves the relative where its antecedent is not the title or the name (guards)', () => {
    const whole = (s: string): void => expect(relativeNameApart(s)).toEqual([s]);
    // One of several examples after "such as": the clause may be the list's.
    whole('Dushku also had lead roles in other TV shows such as Tru Calling and Dollhouse, for which she was a producer.');
    whole('Gaynor later appeared in several musical films including "There is No Business Like Show Business", "South Pacific", and "Les Girls" for which she received a Golden Globe award.');
    // A fight against a man "which he won" is about the fight.
    whole('Dubois\' first fight as a professional was in April 2017 against Marcus Kelly, which he won by knockout in the first round.');
    // A place after a comma: "which" may be about the event.
    whole('Katsu spent most of her youth living near Concord, Massachusetts, which she attributes to her interest in early American history.');
    // An item after "and": the clause may be the list's.
    whole('She has appeared in the films "Blue Valentine" and "Shutter Island," which were both nominated for several awards.');
    // A quotation is no title: after a verb of saying or "the words", lower-case, or a sentence.
    whole('After the match he famously said "I have never played better in my whole life," which surprised many of the reporters in the room.');
    whole('She once wrote "the world is a stage and we are all actors," which became the motto of the theatre company.');
    whole('After the match he famously said in the press room the words "I have never played better in my whole life," which surprised many reporters.');
    // After a verb of saying, "that" opens what was said; "his", "this", "as" open no relative's verb.
    whole('In an interview in 2010 he told the journalist Mark Smith that his father died when he was only a child.');
    whole('In an interview in 2010 she told the magazine Rolling Stone that this album reflects her years in Nashville.');
    whole('He told the newspaper The Times that as a child he dreamed of becoming a famous football player.');
    // "that" with its own subject is the complementizer of "told", not a relative.
    whole('In an interview with the newspaper, he told Richard Smith that he had never planned to become an actor at all.');
    // A stranded preposition with more after it: the title's place is unknown.
    whole('She was cast in the drama series "The Good Wife," which she starred in alongside Julianna Margulies for seven years.');
    // A name after a preposition after a capitalised word may start before it: the prize's, not "Physics".
    whole('He received the Nobel Prize in Physics which he shared with Max Born for his work on quantum mechanics.');
    // After a noun's preposition the clause may be the noun's (the album's, not the band's).
    whole('The band Oasis released the first album by Oasis that sold more than a million copies in the first week.');
    // An award in the claim: the win may be what made her so.
    whole('She won an Emmy Award for her performance in the HBO miniseries "Olive Kitteridge," which made her one of the few actresses to win the Triple Crown of Acting.');
    // A name after "and the" may start before it (the novel "The Old Man and the Sea").
    whole('He also wrote the novel The Old Man and the Sea, which won the Pulitzer Prize for Fiction in 1953 and was cited by the Nobel committee.');
    // The clause's "he" may be the father's.
    whole('His father was a member of the Communist Party which he left in 1956 after the Soviet invasion of Hungary.');
    // After a name's comma a subject clause may be the whole event's (from the dev answers' whole sentences).
    whole('In 2015, Owen suffered a serious head injury while surfing in Hawaii, which forced him to take a break from the sport.');
    whole('Most of his series have been aired around the world on Netflix, which earned him the nickname "Son of Netflix."');
    // A name after "of a" may start before it (the autobiography, not "Shattered Rock Star").
    whole('In 2007 he published his diaries as the bestselling autobiography The Heroin Diaries: A Year in the Life of a Shattered Rock Star which covers his life in 1987.');
    // A clause inside the subject ends before the main verb: the name's clause is not the claim's end.
    whole('In his speech he claimed that the company Microsoft that dominated the market had stifled innovation for years.');
    whole('The rockabilly band The Living End which he formed in 1994 with schoolmate Scott Owen has released six albums.');
    // An infinitive after the clause's verb leaves the object's place unknown ("He helped X to found ...").
    whole('He moved to Dublin in 1950 and directed the Dublin Theatre Festival which he helped to found in 1957 with friends.');
    // A title after a title: a list's item.
    whole('His albums include "Bad," "Dangerous," which sold more than thirty million copies around the world.');
    // A name's "which was": a place's state then ("which was then part of ...").
    whole('He was born in the village of Kosovska Mitrovica which was then part of the Ottoman Empire in the nineteenth century.');
  });

  it('makes the clause after ", during which" a claim of its own where it has the person for its subject (biographies)', () => {
    const itakura = claims('Itakura is a Japanese footballer. He played for Kawasaki Frontale until 2019, during which he won the J1 League in 2017 and 2018.');
    expect(itakura).toEqual(expect.arrayContaining(['Itakura played for Kawasaki Frontale until 2019.', 'Itakura won the J1 League in 2017.', 'Itakura won the J1 League in 2018.']));
    expect(itakura.filter((c) => /during which/.test(c))).toEqual([]);
    expect(duringWhichApart('He served as the mayor of the city from 2001 to 2009, during which time he opened a new stadium and a new library.'))
      .toEqual(['He served as the mayor of the city from 2001 to 2009.', 'He opened a new stadium and a new library.']);
    // No comma, and "some" (the teachers) for its subject: whole.
    const speech = 'The head of staff read her work and asked her to deliver a speech to 120 teachers during which some realized that their students might have undergone FGM.';
    expect(duringWhichApart(speech)).toEqual([speech]);
    const some = 'She toured Europe and Asia with the band for two whole years, during which some of the members left the group for good.';
    expect(duringWhichApart(some)).toEqual([some]);
  });

  it('gives a fight "which he won" after "against" a name to the fight\'s owner (biographies)', () => {
    const dubois = divideRules('Dubois\' first fight as a professional was in April 2017 against Marcus Kelly, which he won by knockout in the first round[1].').claims;
    expect(dubois.map((c) => c.claim)).toEqual(expect.arrayContaining(['Dubois\' first fight as a professional was in April 2017 against Marcus Kelly.', 'Dubois won his first fight as a professional by knockout in the first round.']));
    expect(dubois.find((c) => /^Dubois won/.test(c.claim))?.question).toBe('Did Dubois win his first fight as a professional by knockout in the first round?');
    // Not an event ("his rivalry"), not "won"/"lost" ("which he later described as ..."): whole.
    const rivalry = 'Dubois\' longest rivalry as a professional was in the heavyweight division against Joe Joyce, which he won by knockout in the tenth round.';
    expect(eventWhichApart(rivalry)).toEqual([rivalry]);
    const described = 'Dubois\' first fight as a professional was in April 2017 against Marcus Kelly, which he later described as the easiest night of his career.';
    expect(eventWhichApart(described)).toEqual([described]);
  });

  it('says what happened "in which" a thing the claim\'s verb takes, in that thing (biographies)', () => {
    const casali = claims('Casali gave a rare interview in which she deplored the courts\' involvement in Mrs Blood\'s case: such matters should be dealt with privately."');
    expect(casali).toEqual(expect.arrayContaining(['Casali gave a rare interview.', 'Casali deplored the courts\' involvement in Mrs Blood\'s case in the rare interview.']));
    // After a noun's preposition (the series or the success?), with a second predicate, with "they": whole.
    const whole = (s: string): void => expect(inWhichApart(s)).toEqual([s]);
    whole('Rebeldes was formed as a result of the success of the eponymous TV series in which she starred.');
    whole('In 2005 he survived a serious car accident in which he was badly injured and spent three months in hospital.');
    whole('He founded a small company in which they produced cheap radios and televisions for the local market.');
  });

  it('asks of a "co-" verb\'s irregular past, so an object relative\'s fact with one is kept (biographies)', () => {
    const gasalla = divideRules('Gasalla\'s first film role was in the comedy-drama La Raulito (1975), which he co-wrote with director Lautaro Murúa[1].').claims;
    expect(gasalla.find((c) => c.claim === 'He co-wrote La Raulito with director Lautaro Murúa.')?.question).toBe('Did he co-write La Raulito with director Lautaro Murúa?');
    expect(gasalla.map((c) => c.claim)).toContain('Gasalla\'s first film role was in the comedy-drama La Raulito.');
    expect(claimToQuestion('They co-wrote songs.')).toBe('Did they co-write songs?');
    // A "co-" before a word that is no irregular past asks nothing new.
    expect(claimToQuestion('The co-pilot.')).toBeNull();
  });
});
