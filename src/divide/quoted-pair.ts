/**
 * On claims over 15 words only: two quoted titles joined by "and" at the end of a claim, after a preposition or a
 * singular kind ("Faye was also known for her work in "The Ten Commandments" and "The King of Kings"."; "Palmer has
 * also appeared in the critically acclaimed TV series "Berlin Station" and "A Discovery of Witches."") are one fact
 * each, as FActScore's annotators wrote them ("Faye was known for her work in The King of Kings."). A plural kind
 * ("the films "A" and "B"") is titles.ts's, which names each title's kind.
 */
import { isLong } from './long.js';

const PAIR = /^(.+ )["“]([^"“”]+?)[,.]?["”],? and ["“]([^"“”]+?)[,.]?["”]\.?$/;

/** One claim per title, or the claim alone. */
export function quotedPairApart(claim: string): string[] {
  if (!claim.includes('" and "') && !claim.includes('," and "') && !claim.includes('” and “')) return [claim];
  if (!isLong(claim)) return [claim];
  const m = PAIR.exec(claim);
  if (m === null) return [claim];
  const [, pre = '', a = '', b = ''] = m;
  const last = /(\S+) $/.exec(pre)?.[1] ?? '';
  // After a preposition or a singular kind; not in a list or a clause that goes on before the titles.
  // "The two concepts ... are "A" and "B"": after a copula the pair is one answer, not two facts.
  if (/[,"“”]/.test(pre) || (/s$/.test(last) && last !== 'series') || /^(?:is|are|was|were|be|been|include|includes|included)$/.test(last) || !/ (?:in|on|for|of|as|from|with|by|at) /.test(pre)) return [claim];
  const out = [`${pre}"${a}".`, `${pre}"${b}".`];
  return out.some(isLong) ? [claim] : out;
}
