import { describe, expect, it } from 'vitest';
import { divideRules } from '../../src/divide/rules.js';

const claims = (answer: string, question?: string): [string, string][] =>
  divideRules(answer, question === undefined ? undefined : { question }).claims.map((c) => [c.claim, c.question]);
const reasons = (answer: string): string[] => divideRules(answer).skipped.map((s) => s.reason);

describe('divideRules: lists split into one claim each', () => {
  it.each([
    ['There is a purple circle, a yellow star and an orange square.', [
      ['There is a purple circle.', 'Is there a purple circle?'],
      ['There is a yellow star.', 'Is there a yellow star?'],
      ['There is an orange square.', 'Is there an orange square?'],
    ]],
    ['There is a purple circle, a yellow star, and a orange square.', [ // Oxford comma; article repaired
      ['There is a purple circle.', 'Is there a purple circle?'],
      ['There is a yellow star.', 'Is there a yellow star?'],
      ['There is an orange square.', 'Is there an orange square?'],
    ]],
    ['There is a red circle and an orange star.', [
      ['There is a red circle.', 'Is there a red circle?'],
      ['There is an orange star.', 'Is there an orange star?'],
    ]],
    ['There is a dog and two cats.', [ // the copula agrees with each item
      ['There is a dog.', 'Is there a dog?'],
      ['There are two cats.', 'Are there two cats?'],
    ]],
    ['There were two dogs and a cat.', [
      ['There were two dogs.', 'Were there two dogs?'],
      ['There was a cat.', 'Was there a cat?'],
    ]],
    ['There is no dog and no cat.', [
      ['There is no dog.', 'Is there no dog?'],
      ['There is no cat.', 'Is there no cat?'],
    ]],
    ['The image shows a dog, a cat and a bird.', [ // issue 29: the picture showing X is X's existence
      ['There is a dog.', 'Is there a dog?'],
      ['There is a cat.', 'Is there a cat?'],
      ['There is a bird.', 'Is there a bird?'],
    ]],
    ['The man holds a cup and a plate.', [
      ['The man holds a cup.', 'Does the man hold a cup?'],
      ['The man holds a plate.', 'Does the man hold a plate?'],
    ]],
    ['There are three shapes: a red circle, a blue star and a green square.', [
      ['There are three shapes.', 'Are there three shapes?'],
      ['There is a red circle.', 'Is there a red circle?'],
      ['There is a blue star.', 'Is there a blue star?'],
      ['There is a green square.', 'Is there a green square?'],
    ]],
    ['In the image, I can see a dog and two cats.', [
      ['In the image, there is a dog.', 'Is there a dog in the image?'],
      ['In the image, there are two cats.', 'Are there two cats in the image?'],
    ]],
  ] as [string, [string, string][]][])('%s', (answer, expected) => {
    expect(claims(answer)).toEqual(expected);
  });
});

describe('divideRules: conjoined predicates and clauses', () => {
  it.each([
    ['The circle is large and red.', [['The circle is large.', 'Is the circle large?'], ['The circle is red.', 'Is the circle red?']]],
    ['The circle is red and in the top left.', [
      ['The circle is red.', 'Is the circle red?'], ['The circle is in the top left.', 'Is the circle in the top left?'],
    ]],
    ['The shapes are red, blue and green.', [
      ['The shapes are red.', 'Are the shapes red?'], ['The shapes are blue.', 'Are the shapes blue?'],
      ['The shapes are green.', 'Are the shapes green?'],
    ]],
    ['The man is tall and wears a hat.', [['The man is tall.', 'Is the man tall?'], ['The man wears a hat.', 'Does the man wear a hat?']]],
    ['The sky looks gray and cloudy.', [['The sky looks gray.', 'Does the sky look gray?'], ['The sky looks cloudy.', 'Does the sky look cloudy?']]],
    ['The woman has long hair and wears glasses.', [
      ['The woman has long hair.', 'Does the woman have long hair?'], ['The woman wears glasses.', 'Does the woman wear glasses?'],
    ]],
    ['The man sat down and ate a sandwich.', [
      ['The man sat down.', 'Did the man sit down?'], ['The man ate a sandwich.', 'Did the man eat a sandwich?'],
    ]],
    ['The man is wearing a red shirt and holding a cup.', [
      ['The man is wearing a red shirt.', 'Is the man wearing a red shirt?'], ['The man is holding a cup.', 'Is the man holding a cup?'],
    ]],
    ['The man is holding a cup and a plate.', [
      ['The man is holding a cup.', 'Is the man holding a cup?'], ['The man is holding a plate.', 'Is the man holding a plate?'],
    ]],
    ["The man doesn't wear a hat and doesn't smile.", [ // negation kept in both halves
      ['The man does not wear a hat.', 'Does the man not wear a hat?'], ['The man does not smile.', 'Does the man not smile?'],
    ]],
    ['The dog is brown, and the cat is black.', [['The dog is brown.', 'Is the dog brown?'], ['The cat is black.', 'Is the cat black?']]],
    ['There is a red circle, a blue star and an orange square, and the man holds a cup and smiles.', [
      ['There is a red circle.', 'Is there a red circle?'],
      ['There is a blue star.', 'Is there a blue star?'],
      ['There is an orange square.', 'Is there an orange square?'],
      ['The man holds a cup.', 'Does the man hold a cup?'],
      ['The man smiles.', 'Does the man smile?'],
    ]],
    ['The sky is blue; the grass is green.', [['The sky is blue.', 'Is the sky blue?'], ['The grass is green.', 'Is the grass green?']]],
    ['A cat sleeps on the windowsill, and a dog lies under the table.', [
      ['A cat sleeps on the windowsill.', 'Does a cat sleep on the windowsill?'],
      ['A dog lies under the table.', 'Does a dog lie under the table?'],
    ]],
    ['A man rides a bike while a dog runs beside him.', [
      ['A man rides a bike.', 'Does a man ride a bike?'], ['A dog runs beside him.', 'Does a dog run beside him?'],
    ]],
    ['On the left, a man is sitting on a bench and reading a newspaper.', [
      ['On the left, a man is sitting on a bench.', 'Is a man sitting on a bench on the left?'],
      ['On the left, a man is reading a newspaper.', 'Is a man reading a newspaper on the left?'],
    ]],
  ] as [string, [string, string][]][])('%s', (answer, expected) => {
    expect(claims(answer)).toEqual(expected);
  });

  it.each([
    'There is a black and white cat.', // "and" inside one noun phrase
    'The dog is between the cat and the bird.', // one relation between two things
    'The table is covered with cups and plates.',
    'The man holds a knife and fork.',
    'The cat has black and white fur.',
    'Two brown dogs and a cat are sleeping.', // coordinated subject: kept whole
  ])('keeps "%s" whole', (answer) => {
    expect(claims(answer).map(([c]) => c)).toEqual([answer]);
  });
});

describe('divideRules: skipped sentences', () => {
  it.each([
    ['I think the dog is happy.', 'opinion or hedge'],
    ['I believe there are three shapes.', 'opinion or hedge'],
    ['It seems to be sunny.', 'opinion or hedge'],
    ['It appears that the star is red.', 'opinion or hedge'],
    ['Is the circle red?', 'question'],
    ['What a lovely view!', 'exclamation'],
    ['Overall, the image is beautiful.', 'subjective ("beautiful")'],
    ['The scene is peaceful and serene.', 'subjective ("peaceful")'],
    ['The scene captures a typical urban atmosphere.', 'subjective ("atmosphere")'],
    ['Let me know if you need more details.', 'about the conversation, not the image'],
    ['Yes.', 'fragment'],
    ['Red.', 'fragment'],
    ['The red circle in the corner.', 'no finite verb'],
    ['The following shapes:', 'heading or lead-in'],
    // A place with no thing in it: GRPO taught the shapes policy to say it because the labeler said yes to "Is there a
    // right?" and the default reward paid for it (docs/studies/online.md).
    ['There is a right.', 'fragment'],
    ['There is the top left.', 'fragment'],
    ['There are corners.', 'fragment'],
  ])('%s -> %s', (answer, reason) => {
    const r = divideRules(answer);
    expect(r.claims).toEqual([]);
    expect(r.skipped).toEqual([{ sentence: answer, reason }]);
  });

  // Issue 29: a hedge drops the guess, not the things it is about; only what precedes the hedge word is kept.
  it.each([
    ['The dog may be sleeping.', ['There is a dog.']],
    ['The man could be a chef.', ['There is a man.']],
  ])('%s salvages %j and records the hedge', (answer, salvaged) => {
    const r = divideRules(answer);
    expect(r.claims.map((c) => c.claim)).toEqual(salvaged);
    expect(r.claims.map((c) => answer.slice(c.start, c.end))).toEqual(['dog', 'man'].filter((w) => answer.includes(w)));
    expect(r.skipped).toEqual([{ sentence: answer, reason: 'opinion or hedge' }]);
  });

  it('keeps a thing in a place, and a "right angle", while the bare place is skipped', () => {
    const r = divideRules('There is a large blue triangle in the top right. There is a right. There is a right angle.');
    expect(r.claims.map((c) => c.claim)).toEqual(['There is a large blue triangle in the top right.', 'There is a right angle.']);
    expect(r.skipped).toEqual([{ sentence: 'There is a right.', reason: 'fragment' }]);
  });

  it('keeps the factual sentences around the skipped ones', () => {
    const r = divideRules('I think it is nice. There is a red circle. Is it big? Overall, there are two shapes.');
    expect(r.claims.map((c) => c.question)).toEqual(['Is there a red circle?', 'Are there two shapes?']);
    expect(r.skipped.map((s) => s.reason)).toEqual(['opinion or hedge', 'question']);
  });
});

describe('divideRules: discourse markers, fragments and the instruction', () => {
  it.each([
    ['Additionally, there is a small tree.', undefined, [['There is a small tree.', 'Is there a small tree?']]],
    ['Overall, there are three shapes.', undefined, [['There are three shapes.', 'Are there three shapes?']]],
    ['No, there is no red circle.', undefined, [['There is no red circle.', 'Is there no red circle?']]],
    ['Yes, the star is blue.', undefined, [['The star is blue.', 'Is the star blue?']]],
    ['A red circle.', undefined, [['There is a red circle.', 'Is there a red circle?']]],
    ['There is a red circle in the top left and.', undefined, [
      ['There is a red circle in the top left.', 'Is there a red circle in the top left?'],
    ]],
    ['There is a a red circle.', undefined, [['There is a red circle.', 'Is there a red circle?']]],
    ['Two dogs and a cat.', undefined, [['There are two dogs.', 'Are there two dogs?'], ['There is a cat.', 'Is there a cat?']]],
    ['Red.', 'What color is the star?', [['The star is red.', 'Is the star red?']]],
    ['In the top left.', 'Where is the red circle?', [['The red circle is in the top left.', 'Is the red circle in the top left?']]],
    ['Three.', 'How many stars are there?', [['There are three stars.', 'Are there three stars?']]],
    ['One.', 'How many stars are there?', [['There is one star.', 'Is there one star?']]],
    ['None.', 'How many stars are there?', [['There are no stars.', 'Are there no stars?']]],
    ['Yes.', 'Is there a red circle?', [['There is a red circle.', 'Is there a red circle?']]],
    ['No.', 'Is there a red circle?', [['There is no red circle.', 'Is there no red circle?']]], // "no" kept
    ['The square is green.', 'What color is the square?', [['The square is green.', 'Is the square green?']]],
  ] as [string, string | undefined, [string, string][]][])('%s (%s)', (answer, question, expected) => {
    expect(claims(answer, question)).toEqual(expected);
  });

  it('records the source sentence of every claim', () => {
    const r = divideRules('There are two shapes in the image. There is a red circle and a blue star.');
    expect(r.claims.map((c) => c.sentence)).toEqual([
      'There are two shapes in the image.',
      'There is a red circle and a blue star.',
      'There is a red circle and a blue star.',
    ]);
  });

  it('handles bullet lists under a lead-in', () => {
    const r = divideRules('The image contains the following shapes:\n- a red circle\n- a blue star');
    expect(r.claims.map((c) => c.question)).toEqual(['Is there a red circle?', 'Is there a blue star?']);
    expect(r.skipped).toEqual([{ sentence: 'The image contains the following shapes:', reason: 'heading or lead-in' }]);
  });
});

describe('divideRules: robustness', () => {
  it('returns nothing for empty input', () => {
    expect(divideRules('')).toEqual({ claims: [], skipped: [] });
    expect(divideRules('   \n\n ')).toEqual({ claims: [], skipped: [] });
  });

  it('never throws and is deterministic on arbitrary strings', () => {
    let seed = 12345;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ['There', 'is', 'are', 'a', 'an', 'the', 'and', ',', '.', '?', '!', ':', ';', '-', '\n', '1.', 'not',
      'no', "n't", "'s", 'red', 'circle', 'dogs', 'holds', 'sat', 'has', 'been', 'which', 'that', 'e.g.', '3.5', 'In',
      '\u2019', '\u00e9', '\ud83d\ude00', '', ' ', '(', ')', '"', 'I', 'think', 'can', 'between', 'was', 'were'];
    for (let n = 0; n < 2000; n++) {
      const len = Math.floor(rand() * 25);
      const text = Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(rand() < 0.5 ? ' ' : '');
      const a = divideRules(text);
      expect(divideRules(text)).toEqual(a);
      for (const c of a.claims) expect(c.question.endsWith('?')).toBe(true);
      expect(a.skipped.every((s) => s.reason !== 'could not be analysed'), text).toBe(true);
    }
  });

  it('tolerates non-string input at runtime', () => {
    expect(divideRules(undefined as unknown as string)).toEqual({ claims: [], skipped: [] });
    expect(divideRules(42 as unknown as string, { question: null as unknown as string })).toEqual({ claims: [], skipped: [] });
  });
});
