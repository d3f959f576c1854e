// "influenced by the minimalist sculptors of the 1960s, including Carl Andre", "several classic movie musicals from the
// mid-1950s to the early 1970s, including South Pacific": a time phrase before a list of examples is the time of the
// noun phrase before it, and the examples are of that noun phrase ("influenced by Carl Andre.", "Carl Andre is a
// minimalist sculptor.", "South Pacific is a classic movie musical.", not "... an early 1970"). One rule, read by the
// list of examples in the claims (rules.ts) and by the naming facts (naming.ts).
import { AUXILIARIES, DETERMINERS, PREPOSITIONS } from './lexicon.js';

const TIME_WORD = /^(?:the|early|late|mid|-|from|to|of|in|and|between|through|until|'?\d{4}s?|'?\d0s|mid-\d{4}s?|\d{1,2}(?:st|nd|rd|th)|century)$/;

/**
 * The noun phrase a list's time phrase is the time of, as [start, end) word indices, or null. `words` are the
 * lower-cased words before the list ("including", "such as" and the comma before it left out). The words must end in
 * a time ("the 1960s", "the early 1970s", "the 19th century"); before it stands a plural noun, and the phrase runs
 * back from it to its determiner or to the preposition before it, at most five words.
 */
export function timedNounPhrase(words: readonly string[]): [number, number] | null {
  const n = words.length;
  const last = words[n - 1] ?? '';
  if (!/\d/.test(last) && !(last === 'century' && /\d/.test(words[n - 2] ?? ''))) return null;
  let e = n;
  while (e > 0 && e > n - 12 && TIME_WORD.test(words[e - 1]!)) e--;
  if (e === n || e === 0 || !/^[a-z'’-]*[^su]s$/.test(words[e - 1]!)) return null;
  for (let b = e - 1; b >= 0 && b >= e - 5; b--) {
    const w = words[b]!;
    if (DETERMINERS.has(w)) return [b, e];
    if (!/^[a-z'’-]+$/.test(w) || AUXILIARIES.has(w)) return null;
    if (PREPOSITIONS.has(w)) return b + 1 < e ? [b + 1, e] : null;
  }
  return null;
}

// The text before a timed noun phrase and the phrase itself, or null when the text ends in no time: the rule on a
// list's text, as rules.ts reads it.
export function timedSplit(text: string): [string, string] | null {
  const spans = [...text.matchAll(/\S+/g)];
  const np = timedNounPhrase(spans.map((w) => w[0].toLowerCase()));
  if (np === null) return null;
  const [b, e] = np;
  const end = spans[e - 1]!;
  return [text.slice(0, spans[b]!.index), text.slice(spans[b]!.index, end.index + end[0].length)];
}
