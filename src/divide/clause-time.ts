// Time in clause parts (clauses.ts): a past participle dated by a year happened then.
import type { Tok } from './nlp.js';

/**
 * "Focus, formed in 1969 by ...", "Con Pasión, released in 2003": a past participle dated by a year happened then
 * ("Focus was formed in 1969."), not "is formed". The prefix of a participle part, in the past when so dated.
 */
export function datedPast(kind: string, toks: readonly Tok[], prefix: string, body: string): string {
  const verb = toks[0];
  if (kind !== 'participle' || verb?.pos !== 'VERB' || !/(?:ed|en|wn)$/.test(verb.lower) || !DATED.test(body)) return prefix;
  return prefix.replace(/ is$/, ' was').replace(/ are$/, ' were');
}
const DATED = /\b(?:in|on)\s+(?:[A-Z]?[a-z]+\s+){0,2}(?:\d{1,2},?\s+)?(?:1[5-9]|20)\d\d\b/;
