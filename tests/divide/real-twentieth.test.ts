// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's twentieth pass, on the biographies'
// long claims over the whole dev file, each rule pinned on a dev sentence (the half it comes from is named).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the twentieth pass', () => {
  it('gives each phrase of a long claim with the verb and its object (first and second half)', () => {
    const burgos = claims('Roxana Díaz Burgos is a Venezuelan athlete. She also won gold in the 400 metres at the 2011 South American Championships in Athletics, and qualified for the 2012 Summer Olympics in London, where she placed 11th in the 400 metres.');
    expect(burgos).toEqual(expect.arrayContaining(['Burgos also won gold in the 400 metres.', 'Burgos also won gold at the 2011 South American Championships in Athletics.']));
    const kassim = claims('Datuk Siti Rahmah Kassim was an independence fighter. She became the first woman to contest in the 1959 general election and held the Tementang seat in Rembau for two consecutive terms on the Alliance ticket until 1969.');
    expect(kassim).toEqual(expect.arrayContaining(['Kassim held the Tementang seat for two consecutive terms.', 'Kassim held the Tementang seat until 1969.', 'Kassim held the Tementang seat on the Alliance ticket.']));
    // "and" inside a name is no coordination of the claim's.
    const taylor = claims('Frederick Howard Taylor was a missionary. His father Tazewell Taylor served as bursar at The College of William and Mary until his death in 1850.');
    expect(taylor).toEqual(expect.arrayContaining(['His father Tazewell Taylor served as bursar at The College of William and Mary.', 'His father Tazewell Taylor served as bursar until his death in 1850.']));
    const guilmant = claims('Alexandre Guilmant was a French composer and organist. Guilmant was also a teacher, serving as a professor of organ at the Paris Conservatory from 1896 until his death in 1911.');
    expect(guilmant).toEqual(expect.arrayContaining(['Guilmant served as a professor of organ at the Paris Conservatory.', 'Guilmant served as a professor of organ from 1896.', 'Guilmant served as a professor of organ until his death in 1911.']));
  });

  it('keeps a phrase after a role with the role, and a name across its preposition (first and second half)', () => {
    const kang = claims('Kang Ji-hwan is a South Korean actor. Kang Ji-hwan has received the Best Actor award at the 2008 KBS Drama Awards for his role in "Hong Gil-dong".');
    expect(kang).toContain('Kang Ji-hwan has received the Best Actor award for his role in "Hong Gil-dong".');
    expect(kang.some((c) => /award in "Hong/.test(c))).toBe(false);
    // The annotators wrote "Her performance was in the play Uncle Vanya.": the phrases after it are the performance's.
    const kirby = claims('Kirby began her acting career in 2010. In 2016, she won rave reviews for her performance as Elena in the play "Uncle Vanya" at the Almeida Theatre.');
    expect(kirby.some((c) => /reviews (?:in the play|at the Almeida)/.test(c))).toBe(false);
  });

  it('leaves a long claim whole where one preposition comes twice or the object is a pronoun (second half)', () => {
    const donovan = claims('Donovan is portrayed as a private practice attorney with no mention of any prior association with intelligence services.');
    expect(donovan.some((c) => /attorney with intelligence services/.test(c))).toBe(false);
    const itote = claims('Waruhiu Itote was a Kenyan soldier. Itote is remembered as a hero in Kenya for his role in the fight for independence.');
    expect(itote.some((c) => /hero for independence/.test(c))).toBe(false);
  });

  it('takes a fronted day with its comma apart as a fronted year is (second half)', () => {
    const boseman = claims('Chadwick Aaron Boseman was an American actor. On August 28, 2020, Boseman died at the age of 43 after a four-year battle with colon cancer.');
    expect(boseman).toEqual(expect.arrayContaining(['Boseman died at the age of 43 after a four-year battle with colon cancer.', 'Boseman died at the age of 43 on August 28, 2020.']));
    const laden = claims('Osama bin Laden was born on March 10, 1957. On May 2, 2011, Bin Laden was killed by US special operations forces at his compound in Abbottabad, Pakistan.');
    expect(laden).toContain('Bin Laden was killed by US special operations forces on May 2, 2011.');
    expect(laden.some((c) => /^2011|, 2011, Bin/.test(c))).toBe(false);
  });

  it('takes what an award was for apart after "later" and for "efforts" (second half)', () => {
    const donovan = claims('James Donovan was an American lawyer. He was later awarded the Medal of Freedom by President Lyndon B. Johnson for his efforts.');
    expect(donovan).toEqual(expect.arrayContaining(['Donovan was later awarded the Medal of Freedom by President Lyndon B. Johnson.', 'Donovan was later awarded the Medal of Freedom for his efforts.']));
  });

  it('gives one phrase of time after a long object with the object\'s head, and reads a progressive verb (second half)', () => {
    const fischer = claims('Timothy Andrew Fischer AC was an Australian politician and diplomat who served as the leader of the National Party from 1990 to 1999 and Deputy Prime Minister in the Howard Government from 1996 to 1999.');
    expect(fischer).toEqual(expect.arrayContaining(['Timothy Andrew Fischer AC served as the leader of the National Party.', 'Timothy Andrew Fischer AC served as the leader from 1990 to 1999.']));
    const lummis = claims('Cynthia Marie Lummis Wiederspahn is an American attorney and politician serving as the junior United States senator from Wyoming since 2021.');
    expect(lummis).toEqual(expect.arrayContaining(['Cynthia Marie Lummis Wiederspahn is serving as the junior United States senator from Wyoming.', 'Cynthia Marie Lummis Wiederspahn is serving as the junior United States senator since 2021.']));
  });

  it('leaves a head that means nothing alone with its phrase (second half)', () => {
    const blanco = claims('Lua Blanco is a Brazilian actress. Lua Blanco is hosting the Brazilian version of the reality show "The X Factor" in 2016.');
    expect(blanco.some((c) => /the Brazilian version in 2016/.test(c))).toBe(false);
  });
});
