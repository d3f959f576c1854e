// The "with" parts of a clause (", with a parking meter next to it", ", with trees and greenery surrounding the road")
// and the -ing test they share with the clause cutter (clauses.ts).
import type { Tok } from './nlp.js';
import { draft, type Draft } from './clause-draft.js';
import { isParticipleForm } from './person-clauses.js';
import { NOUNISH, pluralHead, POSSESSIVES, textOf } from './noun-phrase.js';

/** "is" or "are". */
export const be = (plural: boolean): string => (plural ? 'are' : 'is');

// "standing on it" the tagger may read as a noun; an -ing word before a preposition or article is a verb.
export function ingBeforePhrase(toks: readonly Tok[], j: number): boolean {
  const t = toks[j];
  return t !== undefined && t.text.endsWith('ing') && /^[a-z]+ing$/.test(t.text) && ['ADP', 'DET', 'ADV', 'PART'].includes(toks[j + 1]?.pos ?? '');
}

// ", with trees and greenery surrounding the road": two bare nouns share what follows, so each is a fact of its own
// ("There is greenery surrounding the road."); with a determiner the phrase may be one thing ("a cup and saucer").
export function withNounsApart(d: Draft): Draft[] {
  const items = d.kind === 'with' && d.toks.some((t) => t.text === ',') ? withListApart(d) : [d];
  if (items.length > 1) return items;
  const [a, and, b, next] = d.toks;
  if (d.kind !== 'with' || a?.pos !== 'NOUN' || and?.lower !== 'and' || b?.pos !== 'NOUN' || next === undefined || NOUNISH.has(next.pos)) return [d];
  const rest = d.toks.slice(3);
  return [draft(d.prefix, [a, ...rest], d.kind, d), draft(d.prefix, [b, ...rest], d.kind, d)];
}

// ", with the skateboarder standing on it" -> "the skateboarder is standing on it";
// ", with a parking meter next to it" -> "there is a parking meter next to it".
export function withClause(toks: readonly Tok[]): string {
  let h = toks.findIndex((t) => NOUNISH.has(t.pos) || (t.pos === 'PRON' && !POSSESSIVES.has(t.lower) && t.lower !== 'it'));
  while (h >= 0 && NOUNISH.has(toks[h + 1]?.pos ?? '') && !ingBeforePhrase(toks, h + 1)) h++;
  const head = toks[h];
  const all = textOf(toks).replace(/[,;\s]+$/, '');
  if (!head) return all;
  const plural = pluralHead(head);
  // ", with other vehicles such as a truck and a car visible in the scene": the examples belong to the subject, and
  // what is said of it comes after them ("Other vehicles such as a truck and a car are visible in the scene.").
  if (toks[h + 1]?.lower === 'such' && toks[h + 2]?.lower === 'as') {
    const k = toks.findIndex((t, j) => j > h + 3 && (t.pos === 'ADJ' || isParticipleForm(t)) && !NOUNISH.has(toks[j + 1]?.pos ?? ''));
    if (k > 0) return `${textOf(toks.slice(0, k))} ${be(plural)} ${textOf(toks.slice(k))}`;
  }
  const after = toks[h + 1];
  if (after && (isParticipleForm(after) || ingBeforePhrase(toks, h + 1) || after.pos === 'ADJ')) {
    const rest = after.lower === 'being' ? toks.slice(h + 2) : toks.slice(h + 1); // "with X being Y" -> "X is Y"
    return `${textOf(toks.slice(0, h + 1))} ${be(plural)} ${textOf(rest)}`;
  }
  return `there ${be(plural)} ${all}`;
}

// ", with the bear eating a donut, the cat drinking from a cup, and the rabbit eating a cookie": each item has its own
// subject and -ing verb, a fact of its own ("The cat is drinking from a cup."); it had been "The bear is eating the cat
// drinking from a cup.". Every item must be a noun phrase (with its determiner) right before its -ing verb.
function withListApart(d: Draft): Draft[] {
  const items: Tok[][] = [[]];
  for (const t of d.toks) {
    if (t.text === ',') items.push([]);
    else if (!(t.lower === 'and' && items[items.length - 1]!.length === 0)) items[items.length - 1]!.push(t);
  }
  const shaped = (x: readonly Tok[]): boolean => {
    const h = x.findIndex((t, k) => k > 0 && /ing$/.test(t.lower) && (t.pos === 'VERB' || ingBeforePhrase(x, k)));
    return h >= 2 && ['DET', 'PRON'].includes(x[0]!.pos) && x.slice(1, h).every((t) => NOUNISH.has(t.pos) || t.pos === 'ADJ');
  };
  return items.length >= 2 && items.every(shaped) ? items.map((x) => draft(d.prefix, x, d.kind, d)) : [d];
}

// A measure the subject has: "with an estimated worth of over $800 million", "with a population of over 2 million".
const ATTRIBUTES = new Set(['worth', 'value', 'population', 'price', 'height', 'length', 'width', 'depth', 'area', 'capacity', 'budget',
  'revenue', 'salary', 'weight', 'record', 'score', 'average', 'rating', 'diameter', 'elevation', 'altitude', 'lifespan', 'wingspan', 'cost',
  'circulation', 'attendance', 'membership', 'enrollment', 'runtime', 'duration']);

/**
 * "The Mona Lisa is one of the most valuable paintings in the world, with an estimated worth of over $800 million.": a
 * "with" phrase whose noun is a measure "of" something says what the main clause's subject has ("The Mona Lisa has an
 * estimated worth of over $800 million."), not that the measure exists ("There is an estimated worth ..."). The
 * owner's prefix ("The Mona Lisa has"), or null: the subject must open the main clause, before its finite verb.
 */
export function attributeOwner(toks: readonly Tok[], i: number, main: readonly Tok[]): string | null {
  let h = i;
  while (h < toks.length && h < i + 4 && toks[h + 1]?.lower !== 'of' && ['DET', 'ADJ', 'ADV', 'VERB', 'NOUN'].includes(toks[h]?.pos ?? '')) h++;
  if (!ATTRIBUTES.has(toks[h]?.lower ?? '') || toks[h + 1]?.lower !== 'of') return null;
  const verb = main.findIndex((t) => t.pos === 'AUX' || (t.pos === 'VERB' && !/(?:ing|ed)$/.test(t.lower)));
  const subject = main.slice(0, verb);
  if (verb < 1 || subject.length > 5 || !['DET', 'PROPN'].includes(subject[0]!.pos) || subject.some((t) => t.text === ',')) return null;
  return `${textOf(subject)} has`;
}
