/**
 * A listed example that is a name and a quoted title after a preposition: 'soap operas, including his portrayal of
 * Joe Kelly on "General Hospital" and Ben Gibson on "Knots Landing"', 'real-life historical figures such as Jackie
 * Robinson in "42"'. The item is the title where the category is a kind of work, else the name before the
 * preposition. Whole, with the quotes dropped, it had given "Ben Gibson onKnots Landing is a soap opera." and
 * "Jackie Robinson in42 is a real-life historical figure.".
 */
import type { Tok } from './nlp.js';
import { WORKS } from './titles.js';

/** The part of a listed `item` that names an example of `category` (see above); the item itself otherwise. */
export function titledItem(item: Tok[], category: string): Tok[] {
  const q = item.findIndex((t, k) => k > 1 && /^["“]$/.test(t.text) && item[k - 1]!.pos === 'ADP');
  if (q < 0) return item;
  return WORKS.test(category) ? item.slice(q) : item.slice(0, q - 1);
}
