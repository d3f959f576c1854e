/**
 * On claims over 15 words only: noun phrases, each with its own determiner and its own phrase, listed after the
 * verb's first preposition ("Donovan is also remembered for his involvement in the Nuremberg Trials, the creation of
 * the International Refugee Organization, and his successful defense of accused Nazi war criminal Adolf Eichmann.";
 * "Lousteau pushed for the implementation of a new tax system, a new exchange rate system, and the creation of an
 * international financial center in Buenos Aires.") are that preposition's objects, one claim each ("Donovan is also
 * remembered for the creation of the International Refugee Organization."), as FActScore's annotators wrote them
 * ("He is remembered for the creation of the International Refugee Organization.", "Lousteau pushed for a new
 * exchange rate system."). comma-list.ts starts a list after the last preposition and takes items with no phrase but
 * "of"; here every item has a determiner, so the list can start no later than the first.
 *
 * The first item's own phrase could hold the list instead ("known for his work with the poor, the sick, and the
 * elderly": the sick are the work's, not what he is known for): the first preposition is taken only where the last
 * item has a phrase of its own as the first does and no item is a determiner and one word, or the first has none.
 */
import { AUXILIARIES, isVerbWord, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

const DET = /^(?:the|a|an|his|her|their|its)$/;
// Where one item ends and the next, with its determiner, begins: ", ", ", and ", " and ".
const CUT = /(?:,\s+and\s+|,\s+|\s+and\s+)(?=(?:the|a|an|his|her|their|its)\s)/g;
// Prepositions that relate two things rather than take a list ("between the A and the B").
const NOT_LIST = new Set(['between', 'among', 'of', 'than', 'like', 'unlike', 'via', 'besides']);
// A clause or a question of its own inside an item, or words that tie the items in other ways.
const CLAUSE = /\b(?:which|who|whom|whose|that|where|when|while|because|or|both|either|respectively|such as|including|as well as)\b|[;:()"“”]/;
const VERB_ENDING = /(?:ed|en|s)$/;

// The first item's own phrase may be the list's place instead ("his work with the poor, the sick, and the elderly";
// "graduated from the University of Wyoming with a Bachelor of Science degree in animal science and a Bachelor of
// Science in biology"; "his works in the field of urban planning and the development of public spaces", where the
// annotators wrote "He is known for his works in the development of public spaces."). The first preposition is kept
// only where the last item has a phrase of its own as the first does, and no item is a determiner and one word ("the
// sick"); past a phrase other than "of" ("the formation of valleys and the exposure of ..." is the nouns' own), only
// in a list of three or more whose later items share no word with the first item's inner object.
function innerOk(items: readonly string[]): boolean {
  const first = items[0]!.split(' ');
  const phrase = (x: string): boolean => x.split(' ').slice(1).some((w) => PREPOSITIONS.has(w));
  if (!phrase(items[0]!)) return true;
  if (!phrase(items[items.length - 1]!) || items.some((x) => x.split(' ').length < 3)) return false;
  const deep = first.findIndex((w, k) => k > 0 && PREPOSITIONS.has(w) && w !== 'of');
  if (deep < 0) return true;
  const content = (w: string): boolean => w.length > 3 && !PREPOSITIONS.has(w) && !DET.test(w);
  const inner = new Set(first.slice(deep + 1).map((w) => w.toLowerCase()).filter(content));
  return items.length >= 3 && !items.slice(1).some((x) => x.split(' ').some((w) => inner.has(w.toLowerCase())));
}

/** One claim per determined object of the verb's first preposition, or the claim alone. */
export function detObjectsApart(claim: string): string[] {
  // Cheap tests first: most claims have no " and " and are short.
  if (!claim.includes(' and ') || !claim.endsWith('.') || !isLong(claim)) return [claim];
  const body = claim.slice(0, -1);
  const cuts = [...body.matchAll(CUT)];
  const first = cuts[0];
  const last = cuts[cuts.length - 1];
  if (first === undefined || last === undefined || !/\band\b/.test(last[0])) return [claim];
  // Every comma after the list's start is one of its cuts: no apposition or second clause.
  const head = body.slice(0, first.index);
  const clauseStart = head.lastIndexOf(', ') + 1;
  const words = head.slice(clauseStart).trim().split(' ');
  // The verb's first preposition with a determined object; a verb before it (not the subject's "of the band").
  const p = words.findIndex((w, k) => k >= 2 && PREPOSITIONS.has(w) && DET.test(words[k + 1] ?? ''));
  if (p < 0 || NOT_LIST.has(words[p]!) || !words.slice(1, p).some((w) => AUXILIARIES.has(w) || isVerbWord(w) || VERB_ENDING.test(w))) return [claim];
  const items = [words.slice(p + 1).join(' ')];
  cuts.forEach((c, k) => items.push(body.slice(c.index + c[0].length, cuts[k + 1]?.index ?? body.length)));
  if (items.some((x) => x.includes(',') || CLAUSE.test(x) || x.split(' ').some((w) => AUXILIARIES.has(w)))) return [claim];
  // "Buffy the Vampire Slayer and its spin-off series Angel": a later "its" or "their" may be the first item's.
  const owner = items.slice(1).some((x) => /^(?:its|their) /.test(x) && !x.startsWith(`${items[0]!.split(' ')[0]} `));
  if (owner || CLAUSE.test(words.slice(0, p).join(' ')) || !innerOk(items)) return [claim];
  const lead = `${head.slice(0, clauseStart)}${clauseStart > 0 ? ' ' : ''}${words.slice(0, p + 1).join(' ')}`.replace(/^\s+/, '');
  return items.map((x) => `${lead} ${x}.`);
}
