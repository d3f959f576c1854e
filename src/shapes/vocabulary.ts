// The closed vocabulary of the shapes world (mirrors scripts/shapes/world.py).

/** The four shapes an object can have. */
export const SHAPES = ['circle', 'square', 'triangle', 'star'] as const;
/** The six colours an object can have. */
export const COLORS = ['red', 'green', 'blue', 'yellow', 'purple', 'orange'] as const;
/** The two sizes an object can have. */
export const SIZES = ['small', 'large'] as const;
/** The nine cells of the 3×3 grid, row by row. */
export const POSITIONS = [
  'top left',
  'top center',
  'top right',
  'middle left',
  'center',
  'middle right',
  'bottom left',
  'bottom center',
  'bottom right',
] as const;

/** A shape name. */
export type Shape = (typeof SHAPES)[number];
/** A colour name. */
export type Color = (typeof COLORS)[number];
/** A size name. */
export type Size = (typeof SIZES)[number];
/** A grid cell name. */
export type Position = (typeof POSITIONS)[number];

/** The number words used by the generator, indexed by value ("no" is 0). */
export const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four'] as const;

const NUMBER_VALUES: ReadonlyMap<string, number> = new Map([
  ['zero', 0],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
]);

const NUMBER_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The value of a number token ("two", "2", "zero"; not "no"), or null. */
export function numberValue(token: string): number | null {
  const v = NUMBER_VALUES.get(token);
  if (v !== undefined) return v;
  if (/^\d{1,3}$/.test(token)) return Number.parseInt(token, 10);
  return null;
}

/** The word for a count as the generator writes it ("two"; digits above nine). */
export function numberWord(n: number): string {
  return NUMBER_NAMES[n] ?? String(n);
}

/** True iff the token is a shape name. */
export function isShape(token: string): token is Shape {
  return (SHAPES as readonly string[]).includes(token);
}

/** True iff the token is a colour name. */
export function isColor(token: string): token is Color {
  return (COLORS as readonly string[]).includes(token);
}

/** True iff the token is a size name. */
export function isSize(token: string): token is Size {
  return (SIZES as readonly string[]).includes(token);
}

/** True iff the string is a position name. */
export function isPosition(text: string): text is Position {
  return (POSITIONS as readonly string[]).includes(text);
}

/** Spellings of grid cells accepted besides the canonical names (keys are space-joined tokens). */
const POSITION_SYNONYMS: ReadonlyMap<string, Position> = new Map<string, Position>([
  ['centre', 'center'],
  ['middle', 'center'],
  ['middle center', 'center'],
  ['middle centre', 'center'],
  ['middle middle', 'center'],
  ['top centre', 'top center'],
  ['top middle', 'top center'],
  ['bottom centre', 'bottom center'],
  ['bottom middle', 'bottom center'],
  ['center left', 'middle left'],
  ['centre left', 'middle left'],
  ['center right', 'middle right'],
  ['centre right', 'middle right'],
  ['upper left', 'top left'],
  ['upper right', 'top right'],
  ['lower left', 'bottom left'],
  ['lower right', 'bottom right'],
]);

/** The cell named by a space-joined phrase ("top left", "centre", "top middle"), or null. */
export function positionValue(phrase: string): Position | null {
  if (isPosition(phrase)) return phrase;
  return POSITION_SYNONYMS.get(phrase) ?? null;
}

/** True iff the position is one of the four corners (which may be followed by "corner"). */
export function isCorner(p: Position): boolean {
  return p === 'top left' || p === 'top right' || p === 'bottom left' || p === 'bottom right';
}

/** The indefinite article the generator uses before a word ("an" before a vowel). */
export function article(word: string): 'a' | 'an' {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
