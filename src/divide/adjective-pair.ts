/**
 * "has had a long and distinguished career": an -ed word after "and" between a determiner's adjective and a bare noun
 * is the second adjective of one noun phrase, not a verb phrase of its own (which gave "William Waldegrave has had a
 * long." and "William Waldegrave distinguished career in British politics and public service.").
 */
import { DETERMINERS, isVerbWord, PREPOSITIONS, PRONOUNS } from './lexicon.js';
import type { Token } from './text.js';

/** Is `pred[j]` (after "and") the second of two adjectives after a determiner ("a long and distinguished career")? */
export function adjectivePair(pred: readonly Token[], j: number): boolean {
  const [det, adj, and, ed, noun] = [pred[j - 3], pred[j - 2], pred[j - 1], pred[j], pred[j + 1]];
  if (det === undefined || adj === undefined || and?.word !== 'and' || ed === undefined || noun === undefined) return false;
  if (!['a', 'an', 'the', 'his', 'her', 'their', 'its'].includes(det.word) || !/^[a-z]+$/.test(adj.raw) || !/^[a-z]+ed$/.test(ed.raw)) return false;
  // "picked up the guitar and started playing", "gave her an education and helped put": a verb goes on after it.
  if (/ing$/.test(noun.word) || isVerbWord(noun.word)) return false;
  return /^[a-z]+$/.test(noun.raw) && !DETERMINERS.has(noun.word) && !PREPOSITIONS.has(noun.word) && !PRONOUNS.has(noun.word);
}
