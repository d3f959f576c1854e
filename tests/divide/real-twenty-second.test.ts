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

  it('says a counted "of which" clause of the noun before it, as a statement of its own (both sets, both halves)', () => {
    expect(claims('The image shows three mangosteen fruits, one of which is cut in half.')).toEqual(['There are three mangosteen fruits.', 'One of the mangosteen fruits is cut in half.']);
    const kang = claims('Since then, he has starred in several other dramas, including "Sweet Home" and "Navillera", all of which have received positive reviews for his acting skills.');
    // "all", "both" and "each" after named items: each item is the clause's subject, as the annotators wrote them.
    expect(kang).toEqual(expect.arrayContaining(['"Sweet Home" has received positive reviews for his acting skills.', '"Navillera" has received positive reviews for his acting skills.']));
    expect(claims('He has since released two albums, One Day at a Time and Ben Lummis, both of which reached multi-platinum status in his native country.'))
      .toEqual(['He has since released two albums.', 'He has since released One Day at a Time.', 'He has since released Ben Lummis.', 'One Day at a Time reached multi-platinum status in his native country.', 'Ben Lummis reached multi-platinum status in his native country.', 'One Day at a Time is an album.', 'Ben Lummis is an album.']);
    expect(kang.filter((c) => /of which/.test(c))).toEqual([]);
    expect(claims('Dubois has since built a record with 16 wins, 15 of which were by knockout.')).toEqual(['Dubois has since built a record with 16 wins.', '15 of the wins were by knockout.']);
    // The comma inside a closing quote; "or" is no part of the noun ("layers of nodes or artificial neurons").
    expect(claims('Focus is best known for their instrumental hits "Hocus Pocus" and "Sylvia," both of which feature distinctive yodeling vocals.')).toEqual(expect.arrayContaining(['"Hocus Pocus" features distinctive yodeling vocals.', '"Sylvia" features distinctive yodeling vocals.']));
    expect(claims('Neural networks are composed of layers of nodes or artificial neurons, each of which performs a simple computation.')).toContain('Each of the artificial neurons performs a simple computation.');
  });

  it('reads a plural noun after an adjective as the subject\'s, and "some of" a plural as plural (second half)', () => {
    const q = (s: string): string[] => divideRules(s).claims.map((c) => c.question);
    expect(q('Both of the instrumental hits feature distinctive yodeling vocals.')).toEqual(['Do both of the instrumental hits feature distinctive yodeling vocals?']);
    expect(q('Her notable works include The Taker, The Reckoning and The Descent.')).toContain('Do her notable works include The Taker?');
    expect(q('Some of his most notable fights include his victories against Gennady Golovkin, Miguel Cotto, Amir Khan, and Sergey Kovalev.')).toContain('Do some of his most notable fights include his victories against Gennady Golovkin?');
    // A noun before the -s word leaves it the verb.
    expect(q('The scene takes place in a rural area.')).toEqual(['Does the scene take place in a rural area?']);
  });

  it('reads an -ed word after a clause word and its subject as that clause\'s verb, not a participle (both halves)', () => {
    // Had been "Rami grew up in ... Fréjus where his mother." and "His mother is worked as a member of the city council."
    expect(claims('Rami grew up in the southern coast city of Fréjus where his mother worked as a member of the city council.'))
      .toEqual(['Rami grew up in the southern coast city of Fréjus.', 'In Fréjus, his mother worked as a member of the city council.']);
    expect(claims('Valpy lived there until his family moved to Vancouver after World War II.')).toEqual(['Valpy lived there until his family moved to Vancouver after World War II.']);
    expect(claims('Howard Taylor was three when his father founded the China Inland Mission.')).toEqual(['Howard Taylor was three when his father founded the China Inland Mission.']);
    // The place of a "where" clause without its comma, beyond ASCII and with its state.
    expect(claims('His mother was from Łódź where his parents married.')).toEqual(['His mother was from Łódź.', 'In Łódź, his parents married.']);
    expect(claims('In his later years, Post lived in Granite, Oklahoma where he died at the age of 88.')).toContain('In Granite, Oklahoma, he died at the age of 88.');
    expect(claims('Kadokura attended Keio University where he studied computer science.')).toContain('At Keio University, Kadokura studied computer science.');
    // A participle whose clause goes on to its own verb stays a participle; a list of "where" items stays whole; a
    // second verb in the clause keeps the participle reading, which keeps the clause's subject.
    expect(claims('The meme is parodying the movie scene from "The Lion King" where a character named Simba holds a cub.').join(' ')).toMatch(/named Simba/);
    expect(claims('Paxton has appeared in several films including The Last House on the Left (2009) where she played Mari Collingwood, Blue Eyed Butcher (2012) where she played Susan Wright, and many others.'))
      .toContain('Paxton has appeared in Blue Eyed Butcher where she played Susan Wright.');
    expect(claims('Her grandmother still lives on Naishvilla road where her father lived before joining the Indian army.')).toContain('Her father joined the Indian army.');
    expect(claims('Diamond Head Crater was formed when a volcano erupted and collapsed on itself.').join(' ')).not.toMatch(/Crater was collapsed/);
    // A decade or a year is no place ("At 1960s, Santana formed the band Santana.").
    expect(claims('Santana moved to San Francisco in the early 1960s where he formed the band Santana.').join(' ')).not.toMatch(/At 1960s/);
  });

  it('names the firm, not its state, with "called", and keeps "City, State" in the place (second half)', () => {
    const alfonso = claims('Alfonso is a founding principal and president of an architecture firm located in Ybor City, Florida called Alfonso Architects Inc.');
    expect(alfonso).toEqual(expect.arrayContaining(['Alfonso is a president of an architecture firm.', 'The architecture firm is located in Ybor City, Florida.', 'The architecture firm is called Alfonso Architects Inc.']));
    expect(alfonso.filter((c) => /^Florida is called|firm Florida/.test(c))).toEqual([]);
  });

  it('takes a "which he wrote and directed" clause apart from a short claim too (second half)', () => {
    expect(claims('Waititi\'s most recent film is Jojo Rabbit (2019), which he wrote and directed.'))
      .toEqual(expect.arrayContaining(['Waititi\'s most recent film is Jojo Rabbit.', 'He wrote Jojo Rabbit.', 'He directed Jojo Rabbit.']));
  });

  it('splits a list of titles after a kind of work or a colon, each in the kind\'s place (second half)', () => {
    expect(claims('Waititi is best known for directing the films Boy, What We Do in the Shadows, Hunt for the Wilderpeople, Thor: Ragnarok, and Jojo Rabbit.'))
      .toEqual(expect.arrayContaining(['Waititi is best known for directing Boy.', 'Waititi is best known for directing What We Do in the Shadows.', 'Waititi is best known for directing Thor: Ragnarok.']));
    expect(claims('Rachel House has acted in four of his films: Eagle vs Shark, Boy, Hunt for the Wilderpeople and Thor: Ragnarok.'))
      .toEqual(['Rachel House has acted in four of his films.', 'Rachel House has acted in Eagle vs Shark.', 'Rachel House has acted in Boy.', 'Rachel House has acted in Hunt for the Wilderpeople.', 'Rachel House has acted in Thor: Ragnarok.']);
    expect(claims('James grew up with four siblings: Alex, Livingston, Hugh, and Kate.')).toContain('James grew up with Hugh.');
  });

  it('reads a capitalised first word before a finite verb as a name, not a verb (second half)', () => {
    const ford = divideRules('Harrison Ford is an actor.\n\nFord made his film debut in 1966 and spent ten years in small roles before rising to stardom for his portrayal of Han Solo.').claims;
    // Had been "His film debut rose to stardom ..." (the tagger read "Ford" as the verb) and "Did ford make ...?".
    expect(ford.map((c) => c.claim)).toContain('Ford rose to stardom for his portrayal of Han Solo.');
    expect(ford.map((c) => c.question)).toContain('Did Ford make his film debut in 1966?');
    // An order stays an order: "Try adding salt." has no finite verb after its first word.
    expect(divideRules('Try adding salt to the soup.').claims).toEqual([]);
  });

  it('reads a past verb after a comma as the next item of a series of the subject\'s verbs, not a participle (second half)', () => {
    expect(claims('He supported the American Revolution, served in the Confederation Congress, was a delegate to the Philadelphia Convention, signed it on behalf of Maryland, and later served in the House.'))
      .toEqual(['He supported the American Revolution.', 'He served in the Confederation Congress.', 'He was a delegate to the Philadelphia Convention.', 'He signed it on behalf of Maryland.', 'He later served in the House.']);
    // A series that shares "was" stays passive; a fronted phrase's participle is not the main verb.
    expect(claims('He was born in Ohio, raised in Texas, and educated at Yale.')).toEqual(['He was born in Ohio.', 'He was raised in Texas.', 'He was educated at Yale.']);
    expect(claims('Throughout his long and distinguished career, Santana has released over 30 studio albums, won 10 Grammy Awards, and collaborated with Wayne Shorter.')).toContain('Santana has won 10 Grammy Awards.');
  });

  it('takes the name before a bracket as what a relative clause after it is about (second half)', () => {
    // Had been "The baseball is a Dominican-American professional baseball designated hitter ...".
    expect(claims('Carlos Santana should not be confused with Carlos Santana (baseball), who is a Dominican-American baseball player.'))
      .toContain('Carlos Santana is a baseball player.');
    // Had been "There is a cult." with the clause dropped as a comment on the scene.
    expect(claims('Varma first gained recognition for his crime drama, Shiva (1989), which won critical acclaim and went on to become a cult classic.'))
      .toEqual(expect.arrayContaining(['Shiva won critical acclaim.', 'Shiva went on to become a cult classic.']));
  });

  it('drops a guess named as one and makes no existence claim of a generic noun or a colour (VLM answers, both halves)', () => {
    const guess = divideRules('One possibility is that he is preparing to pack his suitcase, as the image shows him standing in front of a window.');
    expect(guess.claims.map((c) => c.claim).filter((c) => /possibility/.test(c))).toEqual([]);
    expect(guess.skipped.map((s) => s.reason)).toContain('opinion or hedge');
    expect(claims('The Mario Mug Collection is a must-have for any gaming enthusiast or collector.').filter((c) => /enthusiast|collector/.test(c) && /^There/.test(c))).toEqual([]);
    expect(claims('The second picture shows a close-up of the charger, highlighting its blue color and the connection to the cell phone.').filter((c) => /color/.test(c))).toEqual([]);
  });

  it('says a predicate after an examples list of its subject (VLM dev, first half)', () => {
    // Had been "The clock is surrounded by various plants including is located near a sidewalk."
    expect(claims('The clock is surrounded by various plants, including flowers, and is located near a sidewalk.'))
      .toEqual(['The clock is surrounded by various plants.', 'The clock is surrounded by various plants including flowers.', 'The clock is located near a sidewalk.']);
  });

  it('gives each item of a "with" list its own subject and verb (third set, LLaVA-1.5)', () => {
    expect(claims('They are enjoying a meal together, with the bear eating a donut, the cat drinking from a cup, and the rabbit eating a cookie.'))
      .toEqual(['They are enjoying a meal together.', 'The bear is eating a donut.', 'The cat is drinking from a cup.', 'The rabbit is eating a cookie.']);
  });

  it('skips an order after a short heading whole, with no claim or naming fact from inside it (third set)', () => {
    const cheese = divideRules('Cheese: Choose a type of cheese that complements the meats, such as provolone, Swiss, or cheddar.');
    // Had been "The cheese complements the meats, such as ...", "Swiss is a provolone." and "Swiss is a meat.".
    expect(cheese.claims).toEqual([]);
    expect(cheese.skipped.map((x) => x.reason)).toEqual(['instruction or advice']);
    expect(divideRules('Vegetables: Add fresh vegetables like lettuce, tomatoes, onions, pickles, or olives.').claims).toEqual([]);
  });

  it('names no kind for what a text on screen says (third set, Bard/Bing)', () => {
    const panel = claims('The cell phone is now showing a white screen with the text "Liging Cable".');
    expect(panel.filter((c) => /is a text/.test(c))).toEqual([]);
    // A record label or a slang phrase is still a kind.
    expect(claims('He signed to the label Wondaland Records in 2014.')).toContain('Wondaland Records is a label.');
  });

  it('skips what a kind is commonly used for as world knowledge, and salvages no "area" or "items" (VLM dev)', () => {
    const crystal = divideRules('The scene features a cell phone, a pair of earphones, and a small crystal, which are commonly used for listening to music.');
    // Had been "The small crystal are commonly used for listening to music."
    expect(crystal.claims.map((c) => c.claim).filter((c) => /commonly used/.test(c))).toEqual([]);
    expect(crystal.skipped.map((x) => x.reason)).toContain('world knowledge');
    expect(claims('The presence of these items suggests that the person who owns them enjoys music.').filter((c) => /^There (?:is|are)/.test(c))).toEqual([]);
    expect(claims('It could make it difficult for workers to move around or access certain areas of the site.').filter((c) => /area|access/.test(c))).toEqual([]);
  });

  it('goes back to the main clause\'s list after a participle\'s place phrase (VLM dev, first half)', () => {
    // Had been "The dog is sleeping on a couch, a ceiling fan, and a television."
    expect(claims('The key elements in this picture are a dog sleeping on a couch, a ceiling fan, and a television.')).toEqual([
      'The key elements in this picture are a dog.', 'The key elements in this picture are a ceiling fan.',
      'The key elements in this picture are a television.', 'The dog is sleeping on a couch.',
    ]);
    // A participle with an object keeps the list as its objects.
    expect(claims('The image shows a man holding a bag, a phone, and a set of keys.').join(' ')).toMatch(/holding a phone/);
  });

  it('puts an ", as well as" item after a preposition of the clause, not one inside a quoted title (second half)', () => {
    const sanchez = claims('Sánchez is best known for her roles in the TV series "Without a Trace" and "Devious Maids", as well as the films "Rush Hour 2", "The Game Plan", and "Act of Valor".');
    // Had been 'Sánchez is best known for her roles in the TV series "Without the films "Rush Hour 2", ...'.
    expect(sanchez.filter((c) => /Without the films/.test(c))).toEqual([]);
    expect(sanchez).toContain('Sánchez is best known for her roles in the film "The Game Plan".');
  });

  it('takes a performance "as A and as B" apart, one role each (second half)', () => {
    expect(claims('He is best known for his performances as Han Solo in the original Star Wars trilogy and as the title character of the Indiana Jones film series.')).toEqual([
      'He is best known for his performances as Han Solo in the original Star Wars trilogy.',
      'He is best known for his performances as the title character of the Indiana Jones film series.',
    ]);
  });

  it('splits a second verb after "and even"/"and still", and names no "own" kind (second half)', () => {
    expect(claims('Sakamoto was a regular host on Japanese variety shows and even had his own television program, "The Kyu-chan Show".')).toEqual([
      'Sakamoto was a regular host on Japanese variety shows.', 'Sakamoto even had his own television program, "The Kyu-chan Show".',
      'His own television program is The Kyu-chan Show.',
    ]);
    // "own" is never a kind's word ("... is an own television program." had been said).
    expect(claims('Sakamoto also had their own television program, "The Kyu-chan Show".').filter((c) => /\ban own\b/.test(c))).toEqual([]);
  });
});
