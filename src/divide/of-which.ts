/**
 * "The image shows three mangosteen fruits, one of which is cut in half.", "He has released more than 20 albums, many
 * of which have been international successes.": a counted "of which" clause says its count of the noun before it, a
 * statement of its own ("One of the mangosteen fruits is cut in half."). Left as it was, the clause became a claim
 * with no antecedent ("One of which is cut in half.") or was read as a list's last item ("Since then, Kang has starred
 * in all of which have received positive reviews."). The clause is divided as a statement of its own; the noun is
 * the nearest plural common noun before it, past any named items ("several other dramas, including "Sweet Home" and
 * "Navillera", all of which" -> "all of the dramas").
 */

import { BASE_VERBS } from './lexicon.js';
import { thirdPerson } from './verbs.js';

// The comma may sit inside a closing quote ('"Sylvia," both of which').
const OF_WHICH = /,(["”]?)\s+(one|some|many|most|all|both|each|none|several|few|two|three|four|five|\d+) of which (?=[a-z])/;
// Words before the noun that are counts or determiners, not part of what it is ("three", "several other").
const NOT_MODIFIER = /^(?:and|or|of|with|in|on|at|for|a|an|the|his|her|their|its|my|our|your|this|these|those|some|many|several|other|more|most|few|two|three|four|five|six|seven|eight|nine|ten|than|over|about|different|various|numerous|multiple|\d[\d,]*)$/;
// Plural forms that are no nouns.
const NOT_PLURAL = /^(?:is|was|has|his|hers|its|this|thus|us|yes|always|perhaps|as|less|unless|across|towards|whereas|plus|series|news|ss)$/;

/**
 * The text before a counted "of which" clause, then the clause as a statement about the noun before it (one per named
 * item for "both", "all" and "each"); null when the text has no such clause.
 */
export function ofWhichApart(text: string): string[] | null {
  const m = OF_WHICH.exec(text);
  if (m === null || m[2] === undefined) return null;
  const before = `${text.slice(0, m.index)}${m[1] ?? ''}`;
  // The nearest plural common noun within 14 words, past quoted or capitalised names.
  const quoted: string[] = [];
  const words = before.replace(/["“][^"“”]*["”]/g, (q) => ` Q${quoted.push(q) - 1} `).trim().split(/\s+/);
  let k = words.length - 1;
  for (; k >= 0 && k >= words.length - 14; k--) {
    const w = words[k]!.replace(/[,;:]+$/, '');
    if (/^[a-z][a-z-]*[^s']s$/.test(w) && !NOT_PLURAL.test(w)) break;
  }
  if (k < 0 || k < words.length - 14) return null;
  let a = k;
  while (a > 0 && a > k - 2 && /^[a-z][a-z-]*$/.test(words[a - 1]!) && !NOT_MODIFIER.test(words[a - 1]!)) a--;
  const noun = words.slice(a, k + 1).join(' ').replace(/[,;:]+$/, '');
  const rest = text.slice(m.index + m[0].length);
  // "two albums, One Day at a Time and Ben Lummis, both of which reached ...": each named item is the clause's
  // subject, as the annotators wrote them ("Ben Lummis reached multi-platinum status in his native country.").
  const named = /^(?:both|all|each)$/.test(m[2]) ? namedItems(words.slice(k + 1).join(' '), quoted) : null;
  if (named !== null) {
    const verb = singularVerb(rest);
    if (verb !== null) return [`${before}.`, ...named.map((x) => `${x} ${verb}`)];
  }
  const count = m[2].charAt(0).toUpperCase() + m[2].slice(1);
  return [`${before}.`, `${count} of the ${noun} ${rest}`];
}

// The items named after the noun: quoted titles, or capitalised names split at commas and "and"; null when any item
// is not one ("including various health initiatives").
function namedItems(after: string, quoted: readonly string[] = []): string[] | null {
  const list = after.replace(/^[,:]?\s*(?:including|such as|namely)?\s*/, '');
  const items = list.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).filter((x) => x !== '');
  if (items.length < 2 || !items.every((x) => /^(?:Q\d+|[A-Z0-9][^,]*)$/.test(x) && x.split(' ').length <= 8)) return null;
  return items.map((x) => x.replace(/Q(\d+)/g, (_, n: string) => quoted[Number(n)] ?? ''));
}

// The clause's verb for one item: "are" -> "is", "have" -> "has", "feature" -> "features"; a past stays. Null when
// its first word is no verb form this can tell.
function singularVerb(rest: string): string | null {
  const [first = '', ...others] = rest.split(' ');
  const tail = others.length > 0 ? ` ${others.join(' ')}` : '';
  const one = ({ are: 'is', were: 'was', have: 'has', do: 'does' } as Record<string, string>)[first];
  if (one !== undefined) return `${one}${tail}`;
  if (/^(?:[a-z]+ed|was|had|did|won|made|became|went|came|received|reached)$/.test(first)) return rest;
  if (!/^[a-z]+$/.test(first) || !BASE_VERBS.has(first)) return null;
  return `${thirdPerson(first)}${tail}`;
}
