import { describe, expect, it } from 'vitest';
import { claimToQuestion } from '../../src/divide/rules.js';

// [claim, expected question], each worked out by hand.
const CASES: [string, string][] = [
  // The shapes world's frames.
  ['There is a large red circle in the top left.', 'Is there a large red circle in the top left?'],
  ['There are three shapes in the image.', 'Are there three shapes in the image?'],
  ['There is one shape in the image.', 'Is there one shape in the image?'],
  ['There is one star.', 'Is there one star?'],
  ['There is one red shape.', 'Is there one red shape?'],
  ['There are two blue shapes.', 'Are there two blue shapes?'],
  ['There is an orange square.', 'Is there an orange square?'],
  ['The red circle is in the top left.', 'Is the red circle in the top left?'],
  ['The large circle is in the bottom center.', 'Is the large circle in the bottom center?'],
  ['The square is green.', 'Is the square green?'],
  ['The small yellow triangle is large.', 'Is the small yellow triangle large?'],
  // Negation kept in every form.
  ['There are no stars.', 'Are there no stars?'],
  ['There is no red square.', 'Is there no red square?'],
  ['The star is not blue.', 'Is the star not blue?'],
  ['The square is not in the middle right.', 'Is the square not in the middle right?'],
  ['The cat is not black.', 'Is the cat not black?'],
  ['There is no dog.', 'Is there no dog?'],
  ["The man doesn't wear a hat.", 'Does the man not wear a hat?'],
  ['The man does not wear a hat.', 'Does the man not wear a hat?'],
  ["The dog didn't sit.", 'Did the dog not sit?'],
  ["The man isn't smiling.", 'Is the man not smiling?'],
  ["There aren't any dogs.", 'Are there not any dogs?'],
  ["The man can't swim.", 'Can the man not swim?'],
  ['The man cannot swim.', 'Can the man not swim?'],
  ["The bus won't stop.", 'Will the bus not stop?'],
  ['The man never wears a hat.', 'Does the man never wear a hat?'],
  ['The cat has no tail.', 'Does the cat have no tail?'],
  ['The cat has not eaten.', 'Has the cat not eaten?'],
  ['Nobody is in the room.', 'Is nobody in the room?'],
  ['None of the shapes are blue.', 'Are none of the shapes blue?'],
  // Auxiliaries and modals invert.
  ['The dogs are brown.', 'Are the dogs brown?'],
  ['The door was open.', 'Was the door open?'],
  ['The cups were empty.', 'Were the cups empty?'],
  ['The bird can fly.', 'Can the bird fly?'],
  ['The man could reach the shelf.', 'Could the man reach the shelf?'],
  ['The bus will leave.', 'Will the bus leave?'],
  ['The sign would fall.', 'Would the sign fall?'],
  ['The sky should be blue.', 'Should the sky be blue?'],
  ['The man has been waiting.', 'Has the man been waiting?'],
  ['The dog has eaten the food.', 'Has the dog eaten the food?'],
  ['The woman has painted the wall.', 'Has the woman painted the wall?'],
  ['The man is wearing a red shirt.', 'Is the man wearing a red shirt?'],
  ["It's raining.", 'Is it raining?'],
  ["There's a dog.", 'Is there a dog?'],
  ['It is red.', 'Is it red?'],
  ['They are playing.', 'Are they playing?'],
  ['This is a picture of a street.', 'Is this a picture of a street?'],
  // has/have as possession take do-support.
  ['The man has a hat.', 'Does the man have a hat?'],
  ['The dogs have collars.', 'Do the dogs have collars?'],
  ['The car had a flat tire.', 'Did the car have a flat tire?'],
  ['The car has tinted windows.', 'Does the car have tinted windows?'],
  // Simple present and past main verbs take do/does/did with the base form.
  ['The man holds a cup.', 'Does the man hold a cup?'],
  ['The dog sat on the mat.', 'Did the dog sit on the mat?'],
  ['The image shows a red circle.', 'Does the image show a red circle?'],
  ['The boy carries a bag.', 'Does the boy carry a bag?'],
  ['The girl watches TV.', 'Does the girl watch TV?'],
  ['The bird goes away.', 'Does the bird go away?'],
  ['The dog lies on the grass.', 'Does the dog lie on the grass?'],
  ['The man uses a laptop.', 'Does the man use a laptop?'],
  ['The woman tied her shoes.', 'Did the woman tie her shoes?'],
  ['Two dogs play in the park.', 'Do two dogs play in the park?'],
  ['They sit on a bench.', 'Do they sit on a bench?'],
  ['The children played soccer.', 'Did the children play soccer?'],
  ['The woman smiled.', 'Did the woman smile?'],
  ['The kid hopped.', 'Did the kid hop?'],
  ['The man opened the door.', 'Did the man open the door?'],
  ['The baby cried.', 'Did the baby cry?'],
  ['The man left the room.', 'Did the man leave the room?'],
  ['The dog lay on the floor.', 'Did the dog lie on the floor?'],
  ['The man wore a hat.', 'Did the man wear a hat?'],
  ['The girl ran across the street.', 'Did the girl run across the street?'],
  ['The man did his homework.', 'Did the man do his homework?'],
  ['The chef cut the bread.', 'Did the chef cut the bread?'],
  ['The people in the park walk slowly.', 'Do the people in the park walk slowly?'],
  // Subjects with modifiers, relative clauses and fronted phrases.
  ['The circle in the top left is red.', 'Is the circle in the top left red?'],
  ['The man who is standing holds a cup.', 'Does the man who is standing hold a cup?'],
  ['The man who holds a cup is tall.', 'Is the man who holds a cup tall?'],
  ['The cup that holds the tea is white.', 'Is the cup that holds the tea white?'],
  ['The trash can is full.', 'Is the trash can full?'],
  ['Street lights are on.', 'Are street lights on?'],
  ['Brightly colored pencils are on the desk.', 'Are brightly colored pencils on the desk?'],
  ['In the top left, there is a red circle.', 'Is there a red circle in the top left?'],
  ['In the top left there is a red circle.', 'Is there a red circle in the top left?'],
  ['On the table is a cup.', 'Is a cup on the table?'],
  ['Next to the dog sits a cat.', 'Does a cat sit next to the dog?'],
  ['Additionally, there is a tree.', 'Is there a tree?'],
  ['The Eiffel Tower is tall.', 'Is the Eiffel Tower tall?'],
  ['NASA launched a rocket.', 'Did NASA launch a rocket?'],
];

describe('claimToQuestion', () => {
  it.each(CASES)('%s', (claim, question) => {
    expect(claimToQuestion(claim)).toBe(question);
  });

  it('returns null when there is nothing to invert', () => {
    for (const s of ['', '   ', 'A red circle.', 'Red.', 'Is the star blue?', 'There is.', 'The man is', 'the man who is tall']) {
      expect(claimToQuestion(s), s).toBeNull();
    }
  });
});
