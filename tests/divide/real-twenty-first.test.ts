// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's twenty-first pass, on the biographies'
// long claims over the whole dev file, each rule pinned on a dev sentence (the half it comes from is named).
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the twenty-first pass', () => {
  it('takes a name\'s other name between commas apart from a long statement (second half)', () => {
    const estes = claims('John Adam Estes, also known as Sleepy John Estes, was an American blues guitarist, songwriter, and vocalist.');
    expect(estes).toEqual(expect.arrayContaining(['John Adam Estes was also known as Sleepy John Estes.', 'John Adam Estes was American.', 'John Adam Estes was a blues guitarist.']));
    expect(estes.some((c) => c.split(' ').length > 15)).toBe(false);
    // A stage name is the name the statement goes on with, as the annotators wrote it ("Beenie Man is Jamaican.").
    const davis = claims('Moses Anthony Davis, better known by his stage name Beenie Man, is a Jamaican Dancehall deejay.');
    expect(davis).toEqual(expect.arrayContaining(['Moses Anthony Davis is better known by his stage name Beenie Man.', 'Beenie Man is a Jamaican Dancehall deejay.']));
    // Letters beyond ASCII in the name.
    expect(claims('José Daniel Camillo, better known as Daniel, is a Brazilian sertanejo and romantic singer and songwriter.')).toContain('José Daniel Camillo is better known as Daniel.');
  });

  it('leaves two other names and a short statement whole (first and second half)', () => {
    const jagan = claims('Yeduguri Sandinti Jagan Mohan Reddy, also known as Y.S. Jagan or mononymously Jagan, is an Indian entrepreneur and politician.');
    expect(jagan.some((c) => /is also known as/.test(c))).toBe(false);
    const rosa = claims('Fernando Luiz Rosa, commonly known as Fernando, is a Brazilian professional footballer.');
    expect(rosa).toEqual(['Fernando Luiz Rosa, commonly known as Fernando, is a Brazilian professional footballer.']);
  });

  it('says where a named institution inside another one is, apart from a long claim (first half)', () => {
    const diamond = claims('Milton Diamond is an American professor. Diamond is the director of the Pacific Center for Sex and Society at the University of Hawaii at Manoa.');
    expect(diamond).toEqual(expect.arrayContaining(['Diamond is the director of the Pacific Center for Sex and Society.', 'The Pacific Center for Sex and Society is at the University of Hawaii at Manoa.']));
    const fischer = claims('Gerhard Fischer is a professor. He is currently the director of the Center for Lifelong Learning and Design at the University of Colorado Boulder.');
    expect(fischer).toEqual(expect.arrayContaining(['The Center for Lifelong Learning and Design is at the University of Colorado Boulder.']));
  });

  it('says what a "who" clause after the subject\'s role says of the subject, apart from a long claim (first and second half)', () => {
    const chin = claims('Botak Chin was a Malaysian Chinese gangster and criminal who rose to fame in the 1950s and 1960s.');
    expect(chin).toEqual(expect.arrayContaining(['Botak Chin was a Malaysian Chinese gangster.', 'Botak Chin rose to fame in the 1950s and 1960s.']));
    const arbore = claims('Zamfir Arbore was a nationalist demographer, anarchist, and revolutionary who lived in the late 19th and early 20th centuries.');
    expect(arbore).toContain('Zamfir Arbore lived in the late 19th and early 20th centuries.');
    // A year in the clause leaves it whole: the annotators wrote the event of its object ("Al-Qaeda was founded in 1988.").
    const laden = claims('Osama bin Laden was a Saudi Arabian-born militant who founded the jihadist organization al-Qaeda in 1988.');
    expect(laden).toContain('Osama bin Laden was a Saudi Arabian-born militant who founded the jihadist organization al-Qaeda in 1988.');
  });

  it('gives a fronted phrase to the verb and its object\'s head where lead-in leaves a long object whole (first and second half)', () => {
    const welbourn = claims('Welbourn was a surgeon. After the war, Welbourn became a fellow of the Royal College of Surgeons of England in 1951.');
    expect(welbourn).toEqual(expect.arrayContaining(['Welbourn became a fellow of the Royal College of Surgeons of England in 1951.', 'Welbourn became a fellow after the war.']));
    const harrer = claims('Heinrich Harrer was an Austrian mountaineer. After the outbreak of World War II, Harrer was interned in a prisoner of war camp in India.');
    expect(harrer).toEqual(expect.arrayContaining(['Harrer was interned in a prisoner of war camp in India.', 'Harrer was interned after the outbreak of World War II.']));
    const sedgwick = claims('Kyra Sedgwick is an American actress. In 2005, Sedgwick was cast in the lead role of Brenda Leigh Johnson in The Closer.');
    expect(sedgwick).toContain('Sedgwick was cast in the lead role in 2005.');
    // An infinitive after the passive stays with it: no "were forced in 1939.".
    const climbers = claims('Heinrich Harrer was an Austrian mountaineer. In 1939, Harrer and three other climbers were forced to turn back due to bad weather.');
    expect(climbers.some((c) => /forced in 1939/.test(c))).toBe(false);
  });

  it('says where someone was born and to whom apart, from a long claim (first and second half)', () => {
    const laden = claims('Osama bin Laden was a militant. Bin Laden was born in Riyadh, Saudi Arabia, to a wealthy family involved in the construction industry.');
    expect(laden).toEqual(expect.arrayContaining(['Bin Laden was born in Riyadh, Saudi Arabia.', 'Bin Laden was born to a wealthy family involved in the construction industry.']));
    const medina = claims('Lina Medina is a Peruvian woman. Medina was born in the Department of Huancavelica, Peru, to parents Tiburelo Medina and Victoria Losea.');
    expect(medina).toEqual(expect.arrayContaining(['Medina was born in the Department of Huancavelica, Peru.', 'Medina was born to parents Tiburelo Medina and Victoria Losea.']));
  });
});
