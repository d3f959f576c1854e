/**
 * "a hard worker on and off the field", "in and around London": two prepositions joined by "and"/"or" share the
 * object after them, so the "and" joins no roles or items. rolesApart (roles.ts) had cut there: "Houghton is a hard
 * worker on." and "Houghton is an off the field.".
 */
import { PREPOSITIONS } from './lexicon.js';

const MORE = new Set(['off', 'up', 'down', 'out', 'before', 'after']);
const PAIR = /\b([a-z]+) (?:and|or) ([a-z]+)\b/g;
const prep = (w: string): boolean => PREPOSITIONS.has(w) || MORE.has(w);

/** Whether `text` joins two prepositions with "and"/"or" ("on and off", "in and around"). */
export function hasPrepPair(text: string): boolean {
  if (!text.includes(' and ') && !text.includes(' or ')) return false;
  for (const m of text.matchAll(PAIR)) if (prep(m[1]!) && prep(m[2]!)) return true;
  return false;
}
