/**
 * A claim "over 15 words", as issue 29's study counts them (words are what a single space separates): the rules that
 * cut long claims apart act only on those, and keep a piece only where it is not long itself.
 */

/** Claims with more words than this are long. */
export const LONG_CLAIM_WORDS = 15;

/** How many words `text` has, split on single spaces: `text.split(' ').length` without making the array. */
export function spaceWords(text: string): number {
  let n = 1;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) n++;
  return n;
}

/** Whether `text` has more than LONG_CLAIM_WORDS words. */
export function isLong(text: string): boolean {
  return spaceWords(text) > LONG_CLAIM_WORDS;
}
