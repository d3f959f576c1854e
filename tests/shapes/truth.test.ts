import { describe, expect, it } from 'vitest';
import { COLORS, POSITIONS, SHAPES, SIZES, parseTruth } from '../../src/shapes/index.js';

const circle = { shape: 'circle', color: 'red', size: 'large', position: 'top left' };
const star = { shape: 'star', color: 'orange', size: 'small', position: 'center' };

describe('vocabulary', () => {
  it('matches world.py', () => {
    expect(SHAPES).toEqual(['circle', 'square', 'triangle', 'star']);
    expect(COLORS).toEqual(['red', 'green', 'blue', 'yellow', 'purple', 'orange']);
    expect(SIZES).toEqual(['small', 'large']);
    expect(POSITIONS).toEqual([
      'top left',
      'top center',
      'top right',
      'middle left',
      'center',
      'middle right',
      'bottom left',
      'bottom center',
      'bottom right',
    ]);
  });
});

describe('parseTruth', () => {
  it('accepts a valid truth and returns it', () => {
    const t = parseTruth({ objects: [circle, star] });
    expect(t).toEqual({ objects: [circle, star] });
  });

  it('accepts 1 to 4 objects', () => {
    const four = POSITIONS.slice(0, 4).map((position) => ({ ...circle, position }));
    expect(parseTruth({ objects: four }).objects).toHaveLength(4);
    expect(parseTruth({ objects: [star] }).objects).toHaveLength(1);
  });

  it('drops unknown keys', () => {
    const t = parseTruth({ objects: [{ ...circle, id: 7 }], extra: true });
    expect(t).toEqual({ objects: [circle] });
  });

  const bad: [string, unknown, RegExp][] = [
    ['a bad colour', { objects: [{ ...circle, color: 'pink' }] }, /objects\.0\.color/],
    ['a bad shape', { objects: [star, { ...circle, shape: 'hexagon' }] }, /objects\.1\.shape/],
    ['a bad size', { objects: [{ ...circle, size: 'medium' }] }, /objects\.0\.size/],
    ['a bad position', { objects: [{ ...circle, position: 'top' }] }, /objects\.0\.position/],
    ['a missing field', { objects: [{ shape: 'circle', color: 'red', size: 'large' }] }, /objects\.0\.position/],
    ['a capitalised value', { objects: [{ ...circle, color: 'Red' }] }, /objects\.0\.color/],
    ['no objects', { objects: [] }, /objects/],
    ['five objects', { objects: POSITIONS.slice(0, 5).map((position) => ({ ...circle, position })) }, /objects/],
    ['two objects in one cell', { objects: [circle, { ...star, position: 'top left' }] }, /objects\.1\.position.*same cell/],
    ['a missing objects array', {}, /objects/],
    ['objects not an array', { objects: 'circle' }, /objects/],
    ['an object that is a string', { objects: ['red circle'] }, /objects\.0/],
    ['null', null, /invalid truth/],
    ['a string', 'red circle', /invalid truth/],
    ['a number', 3, /invalid truth/],
  ];
  for (const [name, value, message] of bad) {
    it(`rejects ${name} with an Error naming the field`, () => {
      expect(() => parseTruth(value)).toThrow(Error);
      expect(() => parseTruth(value)).toThrow(message);
    });
  }
});
