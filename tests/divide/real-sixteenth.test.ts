// The rules divider on the dev sets (../shared/real-claims/, MIT): issue 29's sixteenth pass, on the biographies' claims
// over 15 words, each rule pinned on a sentence from the biographies' first half.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';
import { endAppositionApart } from '../../src/divide/end-apposition.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);

describe('divideRules on real English: the sixteenth pass', () => {
  it('splits a preposition said again after "and" into one claim per phrase', () => {
    const massey = claims('She was appointed to the Football League in 2010 and to the Premier League in 2019.');
    expect(massey).toEqual(['She was appointed to the Football League in 2010.', 'She was appointed to the Premier League in 2019.']);
    const cukor = claims('Cukor was known for his ability to bring out the best in his actors and for his strong sense of visual style.');
    expect(cukor).toEqual(['Cukor was known for his ability to bring out the best in his actors.', 'Cukor was known for his strong sense of visual style.']);
    const rivera = claims('He is a graduate of the University of San Carlos in Guatemala, and of Georgetown University Law Center in Washington, DC.');
    expect(rivera).toEqual(expect.arrayContaining(['He is a graduate of the University of San Carlos in Guatemala.', 'He is a graduate of Georgetown University Law Center in Washington, DC.']));
    // The order word goes with neither claim alone.
    const neumann = claims('Neumann served as a partner in his own law firm and later as a senior lawyer for the Australian government.');
    expect(neumann).toEqual(['Neumann served as a partner in his own law firm.', 'Neumann served as a senior lawyer for the Australian government.']);
  });

  it('leaves a preposition said twice before "and", an infinitive\'s "to" and a relation whole', () => {
    // Which "in" the second phrase replaces is not known: "in various teams" or "in the United States".
    const hacker = 'Hacker has played in various minor league teams in the United States and in Japan.';
    expect(claims(hacker)).toEqual([hacker]);
    const wardere = claims('She has worked to educate communities about the dangers of FGM and to promote its elimination.');
    expect(wardere).toHaveLength(1);
  });

  it('splits a list of three or more names or titles after a preposition, titles with lower-case words too', () => {
    const flaherty = claims("Flaherty has also appeared in Without a Trace, The West Wing, CSI: NY and Grey's Anatomy.");
    expect(flaherty).toEqual(expect.arrayContaining(['Flaherty has also appeared in Without a Trace.', 'Flaherty has also appeared in CSI: NY.', "Flaherty has also appeared in Grey's Anatomy."]));
    expect(flaherty.filter((c) => c.split(' ').length > 15)).toEqual([]);
    const memovic = claims('Memović has played for several teams in Bosnia and Herzegovina, Serbia and Montenegro, and the United States.');
    expect(memovic).toEqual(expect.arrayContaining(['Memović has played for several teams in Bosnia and Herzegovina.', 'Memović has played for several teams in Serbia and Montenegro.', 'Memović has played for several teams in the United States.']));
    const massey = claims("Massey-Ellis has also refereed at the Women's FA Cup Final, the UEFA Women's Champions League and international matches.");
    expect(massey).toContain('Massey-Ellis has also refereed at international matches.');
  });

  it('leaves one name\'s own list, a place with its region and a date whole', () => {
    const neumann = 'Neumann has also served as a member of the Joint Standing Committee on Foreign Affairs, Defence and Trade.';
    expect(claims(neumann)).toEqual([neumann]);
    const eton = 'Waldegrave was educated at Eton College and Balliol College, Oxford.';
    expect(claims(eton).filter((c) => /at Oxford\.$/.test(c))).toEqual([]);
    expect(claims('Her father worked for the Atchison, Topeka and Santa Fe Railway.')).toContain('Her father worked for the Atchison, Topeka and Santa Fe Railway.');
  });

  it('puts a named example with its article in its category\'s place ("festivals such as the Toronto ...")', () => {
    const films = claims('His short films and documentaries have been shown at international film festivals such as the Toronto International Film Festival and the International Documentary Festival of Amsterdam.');
    expect(films).toEqual(expect.arrayContaining([
      'His short films and documentaries have been shown at the Toronto International Film Festival.',
      'The Toronto International Film Festival is an international film festival.',
    ]));
    expect(films.filter((c) => c.split(' ').length > 15)).toEqual([]);
    // Not after two categories: the Gold Humboldt Medal is one of the honors, not of the explorations.
    const harrer = claims('Harrer received numerous honors for his many expeditions and explorations including the Gold Humboldt Medal and the Explorers Club Medal.');
    expect(harrer).not.toContain('Harrer received numerous honors for the Gold Humboldt Medal.');
  });

  it('dates the head of a long claim\'s object, not the whole of it ("Smith was Chairman from 2007.")', () => {
    const smith = claims('Smith was Chairman of the Committee of Inquiry into the Scottish Parliament Building Project from 2007 to 2008.');
    expect(smith).toEqual(expect.arrayContaining([
      'Smith was Chairman of the Committee of Inquiry into the Scottish Parliament Building Project.', 'Smith was Chairman from 2007.', 'Smith was Chairman until 2008.',
    ]));
    const donovan = claims('James B. Donovan served as the General Counsel of the United States Department of Justice from 1957 to 1961.');
    expect(donovan).toEqual(expect.arrayContaining(['James B. Donovan served as the General Counsel from 1957.', 'James B. Donovan served as the General Counsel until 1961.']));
    // A short claim keeps its object whole with the years, and two roles are not cut to one.
    expect(claims('Diaz served as Governor of Occidental Mindoro from 1998 to 2001.')).toContain('Diaz served as Governor of Occidental Mindoro from 1998.');
    expect(claims('Letwin served as Chancellor of the Duchy of Lancaster and Minister for Government Policy from 2019 to 2020.').filter((c) => /^Letwin served as Chancellor from/.test(c))).toEqual([]);
  });

  it('splits a possessive said again after "and" into one claim per noun phrase', () => {
    expect(claims('Gasalla is known for his exaggerated, over-the-top comedic style and his ability to adapt to any comic situation.')).toEqual([
      'Gasalla is known for his exaggerated, over-the-top comedic style.', 'Gasalla is known for his ability to adapt to any comic situation.',
    ]);
    expect(claims("Fonseca's work is often characterized by his use of stone and his interest in pre-Columbian and other ancient forms of art.")).toEqual([
      "Fonseca's work is often characterized by his use of stone.", "Fonseca's work is often characterized by his interest in pre-Columbian and other ancient forms of art.",
    ]);
    // A list of three with one possessive said twice is left to the list rules.
    const donovan = claims('Donovan is also remembered for his involvement in the Nuremberg Trials, the creation of the International Refugee Organization, and his successful defense of accused Nazi war criminal Adolf Eichmann.');
    expect(donovan).not.toContain('Donovan is also remembered for his involvement in the Nuremberg Trials, the creation of the International Refugee Organization.');
  });

  it('splits "the" said again after "and" where the first noun phrase has no phrase in it', () => {
    expect(claims('Toyoko Tokiwa is best known for starring in the television series Otoko wa Tsurai yo and the film series Tora-san.')).toEqual(expect.arrayContaining([
      'Toyoko Tokiwa is best known for starring in the television series Otoko wa Tsurai yo.', 'Toyoko Tokiwa is best known for starring in the film series Tora-san.',
    ]));
    expect(claims('Díaz has also represented Venezuela at the World Championships and the Olympic Games in the heptathlon.')).toEqual([
      'Díaz has also represented Venezuela at the World Championships.', 'Díaz has also represented Venezuela at the Olympic Games in the heptathlon.',
    ]);
    // "the Middle East" is the object of "in", like Germany, not a second army.
    expect(claims('Waldegrave served in the British Army in Germany and the Middle East.')).not.toContain('Waldegrave served in the Middle East.');
    expect(claims('Khan has written several books on the history and culture of South Asia and the Middle East.')).not.toContain('Khan has written several books on the Middle East.');
  });

  it('says what a name is from the apposition that ends a claim', () => {
    expect(claims('Maneka Gandhi has founded many organisations like People for Animals, the nation\'s largest animal welfare organisation.'))
      .toEqual(expect.arrayContaining(["People for Animals is the nation's largest animal welfare organisation."]));
    expect(claims('Taylor was the son of James Hudson Taylor, the founder of the China Inland Mission (CIM).')).toEqual(expect.arrayContaining([
      'Taylor was the son of James Hudson Taylor.', 'James Hudson Taylor was the founder of the China Inland Mission (CIM).',
    ]));
    // Not an item of a list, nor a name with a number ("WTAM 1100, a popular talk show" is the show).
    const boseman = "Boseman received multiple accolades during his two-decade career, including two Screen Actors Guild Awards, a Golden Globe Award, a Critics' Choice Movie Award.";
    expect(endAppositionApart(boseman)).toEqual([boseman]);
    expect(endAppositionApart("Boseman received a Golden Globe Award, a Critics' Choice Movie Award.")).toHaveLength(1);
    expect(claims('Trivisonno is currently the host of the "Mike Trivisonno Show" on WTAM 1100, a popular talk show.').filter((c) => /^WTAM 1100 is/.test(c))).toEqual([]);
  });

  it('gives each step of "first ... and then ..." a claim of its own', () => {
    expect(claims('Valli was married twice, first to actor Charles Farrell and then to writer-director Dr. James W. Runciman.')).toEqual(expect.arrayContaining([
      'Valli was married twice.', 'Valli was married first to actor Charles Farrell.', 'Valli was married then to writer-director Dr. James W. Runciman.',
    ]));
    expect(claims("Taylor later returned to China as a missionary himself, first as a teacher in the CIM's schools and later as a medical missionary.")).toEqual(expect.arrayContaining([
      'Taylor later returned to China as a missionary himself.', "Taylor later returned to China first as a teacher in the CIM's schools.", 'Taylor later returned to China as a medical missionary.',
    ]));
  });
});
