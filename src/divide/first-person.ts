/**
 * What the narrator says they see: "I can see two dogs" states the fact "There are two dogs", "I can see that X"
 * states X; "you can see it is tired" or "you can see how ..." states no thing (filters.ts keeps those narration).
 */
import { isPluralPhrase } from './list.js';
import { capitalize, cleanWord } from './text.js';

/** What follows "see" when it is a clause or a question word, not a thing. */
export const NO_THING = /^(?:how|what|if|whether)\b|^(?:it|he|she|they|this)\s+(?:is|are|was|were|has|have|seems?)\b/i;

const FIRST_PERSON_SEE = /^(?:(.+?),\s*)?(?:i|we|you|one)\s+(?:can\s+|could\s+)?(?:also\s+)?(?:see|notice|observe|spot)\s+(.+)$/i;

// "I can see two dogs" says "There are two dogs", "I can see that X" says X ("you can see it is tired": no thing).
export function rewriteFirstPerson(text: string): string {
  const m = FIRST_PERSON_SEE.exec(text);
  if (!m || m[2] === undefined || NO_THING.test(m[2])) return text;
  // The intro stays for every item ("In the image, there is ..."), unless it is the reader's or a "based on".
  const intro = m[1] !== undefined && !/\b(?:you|your|me|my|i|we|our)\b|^based on\b/i.test(m[1]) ? m[1] : undefined;
  const there = /^that\s/i.test(m[2]) ? m[2].slice(5) : `there ${isPluralPhrase(m[2].split(/\s+/).map(cleanWord)) ? 'are' : 'is'} ${m[2]}`;
  return intro ? `${intro}, ${there}` : capitalize(there);
}
