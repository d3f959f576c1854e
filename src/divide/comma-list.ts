/**
 * On claims over 15 words only: a list of three or more objects that ends the claim, "A, B, and C" after a verb or a
 * preposition ("Salazar also established a secret police force, censorship of the press, and suppression of political
 * opposition."; "Diamond has written numerous books and articles on the topics of gender identity, homosexuality,
 * transgenderism, and sexual health.") gives one claim per item, as FActScore's annotators wrote them ("Salazar
 * established censorship of the press."). The first item starts after the last preposition or at the last determiner
 * before the first comma. Not where the items may share a head or be a name's parts ("the light middleweight,
 * middleweight, and light heavyweight divisions", "the Committee on Foreign Affairs, Defence and Trade"), where a
 * clause, a second "and", an "or" or examples come in, nor where a part would still be long.
 */
import { DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

const NOT_LIST = /\b(?:such as|including|like|as well as|which|who|whom|that|where|when|whose|while|both|either|between|or|but|than|respectively)\b|\d/;
// A one-word item with an adjective's ending may modify what follows the list.
const MODIFIER = /(?:al|ous|ive|ful|able|ible|less|ary|ory|ish|ic|ical|ese|ian|an)$/;
const UNITS = /\b(?:years?|months?|days?|weeks?|hours?|minutes?)\b/;

// An item: up to seven words, no clause or second list in it, no phrase but "of" ("across television" is not an item).
const ITEM = String.raw`[^,]+?`;
const LIST = new RegExp(String.raw`^((?:${ITEM}, )*${ITEM}),? and (${ITEM})$`);
const COPULA = /\b(?:is|was|are|were|be|been|became|become|becomes)(?: [a-z]+ly)? $/;

/** One claim per item of the list that ends the claim, or the claim alone. */
export function commaListApart(claim: string): string[] {
  // Cheap tests first: most claims have no comma and "and" and are short.
  if (!claim.includes(', ') || !claim.includes(' and ') || !claim.endsWith('.') || !isLong(claim)) return [claim];
  if (NOT_LIST.test(claim)) return [claim];
  const comma = claim.indexOf(', ');
  const head = claim.slice(0, comma);
  const m = LIST.exec(claim.slice(comma + 2, -1));
  // A list of names before the comma ("alongside rappers Nas and DMX in their film debut, Method Man, and ...") may be
  // the one the items go on.
  if (m === null || /[A-Z]\S* and [A-Z]/.test(head) || / and /.test(m[1]!)) return [claim];
  const others = [...m[1]!.split(', '), m[2]!];
  const words = head.split(' ');
  // The first item starts after the last preposition ("of" only after a word that names a field: "the topics of"),
  // or at the last lower-case determiner ("established a secret police force").
  let start = -1;
  for (let k = 2; k < words.length; k++) {
    const w = words[k]!;
    if ((PREPOSITIONS.has(w) && w !== 'of') || (w === 'of' && /^(?:topics?|fields?|areas?|subjects?|use|issues?)$/.test(words[k - 1]!))) start = k + 1;
    else if (DETERMINERS.has(w)) start = Math.max(start, k);
  }
  if (start < 2 || start >= words.length) return [claim];
  const pre = `${words.slice(0, start).join(' ')} `;
  // After a copula the items may share the first one's article and adjectives ("an evangelical Christian author,
  // psychologist and founder of ...": roles.ts's work).
  if (COPULA.test(pre)) return [claim];
  const items = [words.slice(start).join(' '), ...others];
  // The first item a noun phrase too: no "and", no verb ("the crater is challenging but rewarding, offering ...").
  if (/\b(?:and|is|was|are|were|has|have|had)\b/.test(items[0]!)) return [claim];
  const bare = (x: string): string[] => x.split(' ').filter((w) => !DETERMINERS.has(w));
  // After a preposition, the last item may have its own phrase when it opens with a determiner ("focused on mental
  // health epidemiology, substance abuse, and the development of interventions to improve ..."): the others may not.
  const afterPrep = PREPOSITIONS.has(words[start - 1]!);
  const ownPhrase = (x: string, k: number): boolean => afterPrep && k === items.length - 1 && k > 1 && /^(?:the|a|an) /.test(x) && x.split(' ').length <= 10;
  if (items.some((x, k) => (x.split(' ').length > 7 && !ownPhrase(x, k)) || bare(x).length === 0)) return [claim];
  // Each item a noun phrase: no phrase but "of", not led by an adverb or a verb with its object ("featuring a dog").
  if (items.some((x, k) => (!ownPhrase(x, k) && x.split(' ').some((w) => PREPOSITIONS.has(w) && w !== 'of')) || /^[a-z]+ly\b/.test(x) || /^[a-z]+ing (?:a|an|the|his|her|their|\S+ \S+)/.test(x))) return [claim];
  // A single capitalised word is a name's part ("Defence"); "Canadian co-production Together Forever" runs names
  // and words together.
  if (items.some((x) => /^[A-Z][^ ]*$/.test(x) || /^[A-Z]\S* .*\b[a-z][\w-]* [A-Z]/.test(x))) return [claim];
  // Shared head: the last item longer than all others, ending in a plural the others lack ("the light middleweight,
  // middleweight, and light heavyweight divisions"), or a one-word adjective among the items.
  const last = items[items.length - 1]!;
  const plural = (x: string): boolean => /[^s]s$/.test(x);
  if (plural(last) && !ownPhrase(last, items.length - 1) && !items.slice(0, -1).some(plural) && items.slice(0, -1).every((x) => bare(x).length < bare(last).length)) return [claim];
  if (items.slice(0, -1).some((x) => !x.includes(' ') && MODIFIER.test(x)) || items.some((x) => UNITS.test(x))) return [claim];
  // "consists of two parts, the Mishnah and the Gemara": a counted noun and its items, an apposition.
  const counted = ['two', 'three', 'four', 'five', 'six'].indexOf(items[0]!.split(' ')[0]!) + 2;
  if (counted >= 2 && others.length === counted) return [claim];
  // "Islamic history, culture, and gender studies": a bare noun after a modified one may share its modifier.
  if (bare(items[0]!).length > 1 && others.slice(0, -1).some((x) => bare(x).length === 1 && !DETERMINERS.has(x.split(' ')[0]!))) return [claim];
  // "his speed, movement, clinical finishing": the first item's possessive is each bare item's ("his movement").
  const whose = /^(?:his|her|their|its) /.exec(items[0]!)?.[0] ?? '';
  const own = (x: string): string => (DETERMINERS.has(x.split(' ')[0]!) || /['’]s\b/.test(x.split(' ')[0]!) ? x : `${whose}${x}`);
  // "wins over former UFC Light Heavyweight Champions Quinton Jackson, Rashad Evans, and Jon Jones": names of one
  // length after a descriptor share it ("... over former UFC Light Heavyweight Champions Rashad Evans.").
  const n = others[0]!.split(' ').length;
  const firstWords = items[0]!.split(' ');
  const names = others.every((x) => /^[A-Z]/.test(x) && x.split(' ').length === n) && firstWords.length > n && /^[A-Z]/.test(firstWords[firstWords.length - n]!);
  const shared = names ? `${firstWords.slice(0, -n).join(' ')} ` : '';
  const out = items.map((x, k) => `${pre}${k === 0 ? x : `${shared}${own(x)}`}.`);
  return out.some(isLong) ? [claim] : out;
}
