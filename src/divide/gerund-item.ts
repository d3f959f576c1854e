/**
 * "He is known for his physicality, tackling ability, and passing range": after a comma, an -ing word and one bare
 * noun that end there (a comma or "and" follows) are an item of the list a possessive opened after a preposition
 * ("for his physicality"), a noun phrase ("tackling ability"), not a participle phrase of the subject ("He is tackling
 * ability.", "He is passing range."). FActScore's annotators: "He is known for his tackling ability.".
 */
import type { Tok } from './nlp.js';

const POSSESSIVE = new Set(['his', 'her', 'their', 'its']);

/** Is the -ing word at `i` (after a comma) such a list item? */
export function gerundListItem(toks: readonly Tok[], i: number): boolean {
  const [noun, after] = [toks[i + 1], toks[i + 2]];
  if (!/ing$/.test(toks[i]!.lower) || noun === undefined || noun.pos !== 'NOUN' || noun.text !== noun.lower) return false;
  if (after !== undefined && after.text !== ',' && after.lower !== 'and') return false;
  // The list's first item: a possessive after a preposition, and a noun right before this comma.
  if (toks[i - 2]?.pos !== 'NOUN') return false;
  for (let k = i - 2; k > 0 && k > i - 8; k--) {
    if (POSSESSIVE.has(toks[k]!.lower) && toks[k - 1]!.pos === 'ADP') return true;
    if (toks[k]!.text === ',' || toks[k]!.pos === 'VERB' || toks[k]!.pos === 'AUX') return false;
  }
  return false;
}
