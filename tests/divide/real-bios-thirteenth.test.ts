// The rules divider on the biographies of FActScore's dev set (../shared/real-claims/text-bios-dev.jsonl, MIT) and
// the VLM answers: issue 29's thirteenth pass, each rule pinned on a sentence from the dev sets.
import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string): string[] => divideRules(answer).claims.map((c) => c.claim);
const questions = (answer: string): string[] => divideRules(answer).claims.map((c) => c.question);

describe('divideRules on biographies: the thirteenth pass', () => {
  it('reads a pronoun after a fronted "Since then" with no comma as the subject', () => {
    const q = questions("Since then he has gone on to appear in a number of feature films including American Pie, The Dukes of Hazzard, Supercross and The Devil's Rejects.");
    expect(q).toContain('Has he gone on to appear in American Pie since then?');
    expect(q.filter((x) => x.startsWith('Has since'))).toEqual([]);
  });

  it('keeps a fronted time clause with its own verb as the main clause\'s time, not a claim or a participle', () => {
    const kenya = divideRules('Waruhiu Itote was a Kenyan freedom fighter. After Kenya\'s independence was achieved in 1963, Itote retired from military service and went on to become a politician.');
    expect(kenya.claims.map((c) => c.question)).toEqual(expect.arrayContaining([
      'Did Itote retire from military service after Kenya\'s independence was achieved in 1963?',
      'Did Itote go on to become a politician after Kenya\'s independence was achieved in 1963?',
    ]));
    expect(kenya.claims.map((c) => c.claim)).not.toContain('After Kenya\'s independence was achieved in 1963.');
    // The verb after the subject is the main verb, not a participle of it ("Payne is launched a solo career.").
    const payne = divideRules('After One Direction went on hiatus in 2016, Payne launched a solo career, releasing his debut single "Strip That Down" in 2017.');
    expect(payne.claims.map((c) => c.question)).toContain('Did Payne launch a solo career after One Direction went on hiatus in 2016?');
    expect(payne.claims.map((c) => c.claim).filter((c) => /is launched|, Payne\.$/.test(c))).toEqual([]);
  });

  it('drops a leading "But" and "there is no doubt that" (LLaVA-Bench in-the-wild, data/real-claims)', () => {
    expect(questions('But there is no doubt that it is a unique and thought-provoking work of art.'))
      .toEqual(['Is it a unique and thought-provoking work of art?']);
    expect(questions('But it is also kind of clever.')).toEqual(['Is it also kind of clever?']);
  });

  it('gives every title of a list the kind\'s nationality and initialism, and ends a list where the clause goes on', () => {
    const palmer = claims('She then starred in the Australian TV series "The Grudge 2" and "Bedtime Stories."');
    expect(palmer).toEqual(expect.arrayContaining(['The Grudge 2 is an Australian TV series.', 'Bedtime Stories is an Australian TV series.']));
    expect(palmer.filter((c) => / is a series\.$/.test(c))).toEqual([]);
    const skilton = claims('He played Sam Giancana in the US series The Making of the Mob: Chicago in 2016 and Victor Lownes in American Playboy: The Hugh Hefner Story in 2017[1][2].');
    expect(skilton).toContain('The Making of the Mob: Chicago is a US series.');
    expect(skilton.filter((c) => c.startsWith('Victor Lownes in') || c === 'Sam Giancana is in the US.')).toEqual([]);
    // A list after a comma takes each title's year and goes on.
    expect(claims('Prince Rivers has released two solo albums, The Prince in 2017 and Emotional Rollercoaster in 2018.'))
      .toContain('Emotional Rollercoaster is a solo album.');
    expect(claims('Skilton also appeared as Ed Orgeron in the TV series Young Rock.')).not.toContain('Ed Orgeron is in the TV.');
  });

  it('names an example whose title has a subtitle after a colon or more than ten words', () => {
    expect(claims('She has also appeared in television shows such as Law & Order: Special Victims Unit and Top of the Lake.'))
      .toEqual(expect.arrayContaining(['Law & Order: Special Victims Unit is a television show.', 'Top of the Lake is a television show.']));
    expect(claims('After graduation, he joined the video game company Konami in 1995, where he worked as a programmer on several popular games such as "Castlevania: Symphony of the Night" and "Contra: Shattered Soldier".'))
      .toEqual(expect.arrayContaining(['Castlevania: Symphony of the Night is a popular game.', 'Contra: Shattered Soldier is a popular game.']));
    expect(claims('Scientist has released several albums, including Scientist Rids the World of the Evil Curse of the Vampires (1981), Scientist Wins the World Cup (1982), and The Best Dub Album in the World (1985).'))
      .toContain('Scientist Rids the World of the Evil Curse of the Vampires is an album.');
    // Over ten words, a clause is no title.
    expect(claims("She is known for films such as The Last House on the Left where she played Mari Collingwood and Blue Eyed Butcher.")
      .filter((c) => c.includes('where she played') && c.endsWith('is a film.'))).toEqual([]);
  });

  it('makes a fronted "In addition to her writing and editing" the doers\' facts, and a career in each field', () => {
    const kassim = claims('Kassim is a Nigerian poet. In addition to her writing and editing, she is also a frequent speaker at literary and cultural events.');
    expect(kassim).toEqual(expect.arrayContaining(['Kassim is a writer.', 'Kassim is an editor.', 'Kassim is also a frequent speaker at literary and cultural events.']));
    expect(kassim.filter((c) => c.includes('in addition to'))).toEqual([]);
    expect(claims('In addition to her film and modeling career, Julia is an active philanthropist and volunteer.'))
      .toEqual(expect.arrayContaining(['Julia has a film career.', 'Julia has a modeling career.']));
    expect(claims("In addition to his acting, Desmond has written and directed several short films and feature films.")).toContain('Desmond is an actor.');
  });

  it('puts the antecedent of a "whom" clause back in its place ("There is whom she has three children." before)', () => {
    const palmer = claims('Teresa Palmer is an Australian actress. She is married to actor and director Mark Webber, with whom she has three children.');
    expect(palmer).toContain('Palmer has three children with Mark Webber.');
    expect(palmer.filter((c) => c.includes('whom'))).toEqual([]);
    expect(claims('Harrison Ford is an American actor. He is currently married to actress Calista Flockhart, whom he met at the Golden Globe Awards ceremony[5].'))
      .toEqual(expect.arrayContaining(['Harrison is currently married to actress Calista Flockhart.', 'Harrison met Calista Flockhart at the Golden Globe Awards ceremony.']));
    // No noun right before it: no antecedent to put back.
    expect(claims('Moynahan previously dated Tom Brady from 2004 to 2006, with whom she has a son named Jack.').filter((c) => / with\.$/.test(c))).toEqual([]);
  });

  it('makes a fronted "As a member of the House of Lords" a fact of the subject, and the claims after it short', () => {
    const fritchie = claims('Fritchie is a British politician. As a member of the House of Lords, she is a member of the Labour Party, and sits on the Committee for the Merits of Statutory Instruments.');
    expect(fritchie).toEqual(expect.arrayContaining(['Fritchie is a member of the House of Lords.', 'Fritchie is a member of the Labour Party.',
      'Fritchie sits on the Committee for the Merits of Statutory Instruments.']));
    expect(claims('As a writer, Arbore was known for his political essays.')).toEqual(['Arbore was a writer.', 'Arbore was known for his political essays.']);
    // A stage of life is no role: the annotators kept "As an amateur, he was ...".
    expect(claims('As an amateur, Dubois was a five-time national junior titlist.')).not.toContain('Dubois was an amateur.');
  });

  it('gives an -ing phrase after a career\'s start to the person, in the past ("The career is appearing in films." before)', () => {
    const tokiwa = claims('Toyoko Tokiwa is a Japanese actress. Born in Tokyo, she began her acting career in the late 1940s, appearing in films such as The End of Summer (1954).');
    expect(tokiwa).toEqual(expect.arrayContaining(['Tokiwa appeared in films.', 'Tokiwa appeared in The End of Summer.']));
    expect(tokiwa.filter((c) => /career is/.test(c))).toEqual([]);
    expect(claims('Born in Bastia, Corsica, Rami began his football career playing for amateur club Étoile Fréjus Saint-Raphaël.'))
      .toContain('Rami played for amateur club Étoile Fréjus Saint-Raphaël.');
    expect(claims('Hicks is an American singer. She began her career as a singer, signing with Motown Records in 1993 and releasing her debut album in 1995.'))
      .toEqual(expect.arrayContaining(['Hicks signed with Motown Records in 1993.', 'Hicks released her debut album in 1995.']));
  });

  it('gives a participle after a comma to a he/she subject, not to the main clause\'s object', () => {
    // "The management is taking charge of Venezia in 1988." before.
    expect(claims('Alberto Malesani is an Italian football manager. After his retirement, he moved into management, taking charge of Venezia in 1988.'))
      .toContain('Malesani took charge of Venezia in 1988.');
    // "The builder is constructing temples ..." before.
    const ramses = claims('He was known as a great builder, constructing temples and monuments throughout Egypt.');
    expect(ramses).toContain('He constructed temples and monuments throughout Egypt.');
    expect(ramses.filter((c) => c.startsWith('The builder'))).toEqual([]);
  });

  it('keeps the capital of a name with an accented second letter in its question ("Did díaz make ...?" before)', () => {
    const q = questions('Miguel Díaz is a Dominican baseball pitcher. Díaz made his MLB debut in 2016.');
    expect(q).toContain('Did Díaz make his MLB debut in 2016?');
    expect(questions('Annika Sörenstam is a Swedish golfer. Sörenstam retired in 2008.')).toContain('Did Sörenstam retire in 2008?');
  });

  it('splits two objects of one preposition in a long claim, the phrase after them shared', () => {
    expect(claims('Rivera-Pagán is best known for his work on religion and Latino culture in the United States.')).toEqual([
      'Rivera-Pagán is best known for his work on religion in the United States.',
      'Rivera-Pagán is best known for his work on Latino culture in the United States.',
    ]);
    expect(claims('Travis Oliphant is recognized as a leader in the field of scientific computing and data science.'))
      .toEqual(['Travis Oliphant is recognized as a leader in the field of scientific computing.', 'Travis Oliphant is recognized as a leader in the field of data science.']);
    // A shared head noun, a gerund's shared object, or a short claim stays whole.
    for (const whole of ['Rakhi has earned a name for herself by appearing in several comedy and dance reality shows.',
      'Arbore played a significant role in the country\'s political and cultural development during the late 19th century.',
      'She is a vocal advocate for the rights of women and girls.']) expect(claims(whole)).toHaveLength(1);
  });
});
