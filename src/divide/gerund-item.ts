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

const GERUND_BEFORE = new Set(['ADP', 'VERB', 'SCONJ']);

/**
 * "Visitors can enjoy swimming, sunbathing, or taking a stroll", "changes in their feeding, resting, or breeding
 * patterns", "such as reading, working, or simply enjoying a snack": after a comma, an -ing word in the middle of a
 * series of gerunds (its item ends at a comma followed by "and"/"or") whose first item is an -ing word right after a
 * preposition, a verb or a possessive is an item of that series, not a participle phrase of the subject ("Visitors is
 * sunbathing, or taking a leisurely stroll along the beach.", "The noise is resting, or breeding patterns.").
 */
export function gerundSeriesItem(toks: readonly Tok[], i: number): boolean {
  if (!/ing$/.test(toks[i]!.lower)) return false;
  // This item ends at a comma and a conjunction, within a few words.
  let j = i + 1;
  while (j < toks.length && j < i + 6 && toks[j]!.text !== ',' && toks[j]!.pos !== 'VERB' && toks[j]!.pos !== 'AUX') j++;
  if (toks[j]?.text !== ',' || !['and', 'or'].includes(toks[j + 1]?.lower ?? '')) return false;
  // The item before: back to its first word, which is a gerund after a preposition, a verb or a possessive.
  let k = i - 2;
  while (k > 0 && k > i - 6 && !/ing$/.test(toks[k]!.lower) && toks[k]!.text !== ',') k--;
  const first = toks[k];
  if (first === undefined || !/ing$/.test(first.lower) || first.text !== first.lower) return false;
  const before = toks[k - 1];
  return before !== undefined && (GERUND_BEFORE.has(before.pos) || POSSESSIVE.has(before.lower) || before.lower === 'as');
}

const PAST = /^(?:[a-z]+ed|was|were|became|won|led|made|wrote|took|gave|went|began|held|ran|left|met|rose|sang|spent|taught|fought|built|founded)$/;

/**
 * "He supported the American Revolution, served in the Confederation Congress, and signed the Constitution": a past
 * verb after a comma is the next item of a series of the subject's past verbs when the series ends with ", and" and a
 * past verb, and the main clause's own verb is a past verb, not "was" ("He was born in X, raised in Y, and educated
 * at Z" shares "was"). It had been read as a participle: "He was served in the Confederation Congress.".
 */
export function verbSeriesItem(toks: readonly Tok[], i: number, main: readonly Tok[]): boolean {
  if (!PAST.test(toks[i]!.lower)) return false;
  // Past a fronted phrase ("Throughout his long and distinguished career, Santana has released ...").
  const comma = ['ADP', 'SCONJ', 'ADV'].includes(main[0]?.pos ?? '') ? main.findIndex((t) => t.text === ',') : -1;
  const verb = main.slice(comma + 1).find((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (verb === undefined || verb.pos !== 'VERB' || !PAST.test(verb.lower) || /^(?:was|were)$/.test(verb.lower)) return false;
  for (let k = i + 1; k < toks.length - 2; k++) {
    if (toks[k]!.text !== ',' || toks[k + 1]!.lower !== 'and') continue;
    const next = /^(?:later|then|also|eventually|finally)$/.test(toks[k + 2]!.lower) ? toks[k + 3] : toks[k + 2];
    return next !== undefined && PAST.test(next.lower);
  }
  return false;
}
