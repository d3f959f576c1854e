// The rules divider on the dev biographies (../shared/real-claims/, MIT): issue 29's twenty-first pass, on the
// biographies' coverage, each rule pinned on dev sentences (the half each comes from is named).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);
const questions = (answer: string): string[] => divideRules(answer).claims.map((c) => c.question);

describe('divideRules on real English: the twenty-first pass (coverage)', () => {
  it('keeps a fronted "after/before V-ing X" in front of the main clause\'s claims (first and second half)', () => {
    const sabatini = 'Gabriela Beatriz Sabatini is an Argentine-Italian former professional tennis player. After retiring from tennis, she pursued a career in fashion and fragrance design.';
    expect(claims(sabatini)).toEqual(expect.arrayContaining(['Sabatini retired from tennis.', 'After retiring from tennis, Sabatini pursued a career in fashion and fragrance design.']));
    expect(claims(sabatini)).not.toContain('Sabatini pursued a career in fashion and fragrance design.');
    expect(questions(sabatini)).toContain('Did Sabatini pursue a career in fashion and fragrance design after retiring from tennis?');
    // Each item of a split list keeps the phrase.
    const gandhi = claims('Maneka Gandhi is an Indian politician, animal rights activist and environmentalist. Before joining politics, she was a professional editor and journalist.');
    expect(gandhi).toEqual(expect.arrayContaining(['Before joining politics, Gandhi was a professional editor.', 'Before joining politics, Gandhi was a professional journalist.']));
    const flynn = claims('Errol Leslie Thomson Flynn was an Australian-American actor who achieved worldwide fame during the Golden Age of Hollywood[1]. Before becoming an actor, Flynn worked as a tobacco planter and copra trader in Papua New Guinea[2].');
    expect(flynn).toEqual(expect.arrayContaining(['Before becoming an actor, Flynn worked as a tobacco planter in Papua New Guinea.', 'Before becoming an actor, Flynn worked as a copra trader in Papua New Guinea.']));
  });

  it('leaves the phrase off a claim it would make long and off the other parts of the sentence (first and second half)', () => {
    const neumann = claims('Shayne Neumann is an Australian politician. Before entering politics, Neumann worked as a lawyer, serving as a partner in his own law firm and later as a senior lawyer for the Australian government.');
    expect(neumann).toContain('Before entering politics, Neumann worked as a lawyer.');
    expect(neumann).toContain('Neumann served as a partner in his own law firm.');
    const miki = claims('Takeo Miki was a Japanese politician. Before becoming Prime Minister, he held several cabinet positions including Minister of International Trade and Industry and Minister of Finance.');
    expect(miki.every((c) => c.split(' ').length <= 15 || !c.startsWith('Before'))).toBe(true);
    expect(miki).toContain('Minister of Finance is a cabinet position.');
  });

  it('gives a claim the phrase would make long its verb and object with the phrase beside it (second half)', () => {
    const miki = claims('Takeo Miki was a Japanese politician. Before becoming Prime Minister, he held several cabinet positions including Minister of International Trade and Industry and Minister of Finance.');
    // Since the twenty-fourth pass the titles are claims of their own (long-examples.test.ts), none long: each keeps
    // the phrase in front.
    expect(miki).toEqual(expect.arrayContaining(['Before becoming Prime Minister, Miki held several cabinet positions.', 'Before becoming Prime Minister, Miki held the position of Minister of Finance.']));
    const krenz = claims('Egon Krenz is a former East German politician. After resigning from his posts, Krenz faced trial for his role in the deaths of people who were killed while trying to cross the Berlin Wall during his tenure as a Politburo member[2].');
    expect(krenz).toEqual(expect.arrayContaining(['Krenz resigned from his posts.', 'Krenz faced trial for his role in the deaths of people.', 'Krenz faced trial after resigning from his posts.']));
  });

  it('keeps a trailing "after/before V-ing X" at the end of a one-predicate main clause (second half)', () => {
    const jahanbani = claims('Shahnaz\'s second husband was Khosrow Jahanbani. Jahanbani died on April 16, 2014 after battling cancer for several years[2].');
    expect(jahanbani).toEqual(expect.arrayContaining(['Jahanbani died on April 16, 2014 after battling cancer for several years.', 'Jahanbani battled cancer for several years.']));
    expect(jahanbani).not.toContain('Jahanbani died on April 16, 2014.');
    // The phrase ends at its title's comma, inside the quotes.
    const pataky = claims('Elsa Pataky is a Spanish actress. She gained international recognition after appearing in the 2006 film "Snakes on a Plane," and has since appeared in several Hollywood films.');
    expect(pataky).toContain('Pataky gained international recognition after appearing in the 2006 film "Snakes on a Plane".');
    expect(claims('One Direction signed with Simon Cowell\'s record label after finishing third on The X Factor.')).toContain('One Direction signed with Simon Cowell\'s record label after finishing third on The X Factor.');
  });

  it('does not put a trailing phrase on a fronted phrase\'s fact (second half)', () => {
    const sorenstam = claims('Annika Charlotta Sörenstam is a Swedish professional golfer. After retiring from professional golf, she came back to win the 2021 U.S. Senior Women\'s Open after turning 50 years old[1].');
    expect(sorenstam).toContain('Sörenstam retired from professional golf.');
    expect(sorenstam.some((c) => /retired from professional golf after/.test(c))).toBe(false);
  });

  it('names a leading he/she after a fronted phrase of up to 60 characters (first and second half)', () => {
    const fe = claims('Gerardo Fernandez Fe is a former Cuban footballer. After retiring from professional football, he ventured into business and television presenting.');
    expect(fe).toContain('After retiring from professional football, Fe ventured into business and television presenting.');
    const reddy = claims('Jagan Mohan Reddy is an Indian politician. After the demise of his father in a helicopter crash in 2009, he started the YSR Congress Party, which won a majority in the 2019 Andhra Pradesh Legislative Assembly elections.');
    expect(reddy).toContain('After the demise of his father in a helicopter crash in 2009, Reddy started the YSR Congress Party.');
    const payne = claims('Liam James Payne is an English singer. After being eliminated from the competition, he auditioned again in 2010 and became part of One Direction [1].');
    expect(payne).toContain('After being eliminated from the competition, Payne became part of One Direction.');
  });

  it('gives each example of a kind with a place after it the place too (first and second half)', () => {
    const malesani = claims('Alberto Malesani is an Italian football manager. He has managed a number of clubs in Italy, including Parma, Bologna, Empoli, and Milan.');
    expect(malesani).toEqual(expect.arrayContaining(['Malesani has managed Parma.', 'Parma is a club in Italy.', 'Milan is a club in Italy.']));
    const sanchez = claims('José Martínez Sánchez is a Spanish former footballer. He played as a midfielder for several teams in Spain\'s La Liga, including Real Madrid, Atlético Madrid, and Deportivo La Coruña.');
    expect(sanchez).toContain('Real Madrid is a team in Spain\'s La Liga.');
    expect(divideRules('He played for several teams in Spain\'s La Liga, including Real Madrid.').claims.map((c) => c.question)).toContain('Is Real Madrid a team in Spain\'s La Liga?');
    const varma = claims('Ram Gopal Varma is an Indian film director. He then went on to make several successful films in Telugu and Hindi, including Rangeela, Satya, Company, and Bhoot.');
    expect(varma).toContain('Rangeela is a successful film in Telugu and Hindi.');
  });

  it('gives no kind for a possessed noun before the place (first half)', () => {
    const taylor = claims('Frederick Howard Taylor was a missionary. He wrote several books about his experiences in China, including "Hudson Taylor and the China Inland Mission", a biography of his father.');
    expect(taylor.some((c) => /is an experience/.test(c))).toBe(false);
  });

  it('gives a person\'s -ing phrase to the person when an adverb stands between pronoun and verb (first and second half)', () => {
    const scientist = claims('Scientist, born Hopeton Brown, is a Jamaican dub musician and producer. He soon became one of the most sought-after engineers in the genre, working with some of the biggest names in reggae, such as Bob Marley and the Wailers, Peter Tosh, and Bunny Wailer.');
    expect(scientist).toEqual(expect.arrayContaining(['Scientist worked with Peter Tosh.', 'Scientist worked with Bunny Wailer.']));
    expect(scientist.some((c) => /engineers are working/.test(c))).toBe(false);
    const garrincha = claims('Garrincha, born Manuel Francisco dos Santos, was a Brazilian footballer. He quickly became a star player, helping Botafogo win two Rio de Janeiro championships and one Brazilian championship.');
    expect(garrincha).toContain('Garrincha helped Botafogo win two Rio de Janeiro championships and one Brazilian championship.');
    const gaynor = claims('Mitzi Gaynor is an American actress, singer, and dancer. She also had a successful television career, hosting her own variety show "The Mitzi Gaynor Show" in the 1960s.');
    expect(gaynor).toContain('Gaynor hosted her own variety show "The Mitzi Gaynor Show" in the 1960s.');
  });
});
