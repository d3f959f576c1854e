/**
 * The readings of a predicate's list whose items are a preposition's objects or names (split from claims.ts, which
 * calls them in its list pass): "books on missions, evangelism, and church planting", "played in Switzerland and
 * France", "presented BBC Breakfast, The Monday Night Club and Soccer Saturday".
 */
import { AUXILIARIES, DETERMINERS, isVerbWord, NAME_PARTICLES, PREPOSITIONS } from './lexicon.js';
import { joinTokens, type Token } from './text.js';

// "written many books on missions, evangelism, and global church planting", "a member of the International Congress
// of Underwater Archaeologists, the Institute of Nautical Archaeology, and ...": the later items are more objects of
// the first item's last preposition, as the annotators wrote them ("He has written many books on evangelism.").
// Bare nouns (no determiner) or names only: "a cup of tea, a plate and a fork" lists things.
export function objectsOfPreposition(segs: Token[][], commas: number): Token[][] | null {
  const first = segs[0] ?? [];
  let p = -1;
  first.forEach((t, k) => { if (PREPOSITIONS.has(t.word) && k < first.length - 1) p = k; });
  const name = (seg: readonly Token[]): boolean => /^[A-Z]/.test(seg[0]?.raw ?? '') || (seg[0]?.word === 'the' && /^[A-Z]/.test(seg[1]?.raw ?? ''));
  // The last item may run on ("his athleticism, strength, and ability to score in a variety of ways").
  const bare = (seg: readonly Token[], k = 0): boolean => seg.length <= (k === segs.length - 1 ? 8 : 4) && /^[a-z]/.test(seg[0]?.raw ?? '')
    && !DETERMINERS.has(seg[0]?.word ?? '') && !PREPOSITIONS.has(seg[0]?.word ?? '') && !seg.slice(0, 4).some((t) => isVerbWord(t.word));
  const later = segs.slice(1);
  // A name's preposition is the one before the name starts ("a member of the Institute of ...").
  // Single words after "of" or "for" ("Minister of Agriculture, Fisheries and Food") are one name's parts; after
  // another preposition they are names of their own ("toured throughout the US, Canada, and Europe").
  const named = first.findIndex((t, k) => k > 0 && PREPOSITIONS.has(t.word) && name(first.slice(k + 1)));
  const at = named > 0 ? named : p;
  // Only in a plain list, "A, B, and C": "Bosnia and Herzegovina, Serbia and Montenegro", "his fellow drivers and fans
  // for his passion, dedication, and ..." have an "and" inside an item.
  const plain = segs.length === commas + 1;
  const single = (seg: readonly Token[]): boolean => plain && !['of', 'for'].includes(first[at]?.word ?? 'of') && (seg[0]?.raw.length ?? 0) > 1;
  const names = later.every((seg) => name(seg) && (seg.length > 1 || single(seg)) && /^[("“']*[A-Z0-9]/.test(seg[seg.length - 1]?.raw ?? ''));
  if (named > 0 && names) p = named;
  // Three items at least, so commas mark the list: "Bosnia and Herzegovina" is one name. Two will do when both are
  // "the" and a name ("a member of the Council on Foreign Relations and the Inter-American Dialogue").
  const theName = (seg: readonly Token[]): boolean => seg[0]?.word === 'the' && /^[A-Z]/.test(seg[1]?.raw ?? '');
  const two = segs.length === 2 && named > 0 && theName(first.slice(named + 1)) && later.every(theName);
  // "played for the San Francisco Giants, Detroit Tigers, ... and the Cincinnati Reds": the preposition may lead
  // the predicate when the items are names.
  // "appeared in film, television, and theatre": bare nouns of up to three words, none with a phrase or an -ing word
  // that every item might share ("creating films, photography, and written works about social issues").
  const short = (seg: readonly Token[]): boolean => seg.length <= 3 && seg.every((t) => !PREPOSITIONS.has(t.word) && !/ing$/.test(t.word));
  const allBare = p === 0 && [first.slice(1), ...later].every((seg, k) => short(seg) && bare(seg, k));
  if ((segs.length < 3 && !two) || p < 0 || (p === 0 && !(name(first.slice(1)) && names) && !allBare)) return null;
  const object = first.slice(p + 1);
  const lead = first.slice(0, p + 1);
  if (name(object) && names) return [first, ...later.map((seg) => [...lead, ...seg])];
  // "known for his athleticism, strength, and ability ...": the possessive goes to every item ("his strength").
  // So does "being" ("the sentiment of being tired, lazy, and unmotivated" -> "... of being lazy").
  const possessive = plain && ['his', 'her', 'their', 'its', 'being'].includes(object[0]?.word ?? '') ? object.slice(0, 1) : [];
  const own = object.slice(possessive.length);
  // An "and" a serial comma kept inside the first item ("by keyboardist/vocalist and songwriter Thijs van Leer, drummer
  // ...") makes it as long as a last item may be.
  const firstBare = bare(own, own.some((t) => t.word === 'and') ? segs.length - 1 : 0);
  if (DETERMINERS.has(own[0]?.word ?? '') || !firstBare || !later.every((seg, k) => bare(seg, k + 1))) return null;
  // "with practical, functional, and aesthetic benefits": one-word adjectives before the last item's noun share it,
  // one claim each with it ("... with practical benefits ..."; "The umbrella hats provide the couple with functional."
  // had been said).
  const adjective = (seg: readonly Token[]): boolean => seg.length === 1 && /(?:al|ous|ive|ful|able|ible|less|ary|ory|ic|ical)$/.test(seg[0]!.word);
  const last = later[later.length - 1] ?? [];
  if (adjective(own) && later.slice(0, -1).every(adjective) && last.length > 1) {
    const shared = last.slice(1);
    return [[...lead, ...possessive, ...own, ...shared], ...later.slice(0, -1).map((seg) => [...lead, ...possessive, ...seg, ...shared]), [...lead, ...possessive, ...last]];
  }
  return [first, ...later.map((seg) => [...lead, ...possessive, ...seg])];
}

// "played in Switzerland and France", "played for the New York Giants and Denver Broncos": two names after a
// verb's preposition, one claim each. Not inside a name ("the Center for Sex and Society": a capital before the
// preposition) nor a name with "and" in it ("Bosnia and Herzegovina", "The Globe and Mail").
const FIXED_PAIRS = /\b(?:Bosnia and Herzegovina|Trinidad and Tobago|Antigua and Barbuda|Saint Kitts and Nevis|Turks and Caicos|Serbia and Montenegro)\b/;
// "the Health and Safety Executive", "the Food and Drug Administration": one word after "the", and a body's name
// without its own article after "and", share the article: one body ("She was the Chief Executive of the Health." and
// "She was Safety Executive." had been said).
const BODY = /^(?:Executive|Administration|Council|Committee|Commission|Agency|Authority|Board|Department|Office|Service|Institute|Society|Association|Foundation|Organi[sz]ation|Bureau|Ministry|Corporation|Trust|Federation)$/;
function oneBody(before: readonly Token[], after: readonly Token[]): boolean {
  const n = before.length;
  return n >= 2 && before[n - 2]?.word === 'the' && /^[A-Z][a-z]/.test(before[n - 1]?.raw ?? '') && after[0]?.word !== 'the' && BODY.test(after[after.length - 1]?.raw ?? '');
}

export function twoNames(segs: Token[][], verb: string): Token[][] | null {
  const [first = [], second = []] = segs;
  let named = -1;
  first.forEach((t, k) => { if (PREPOSITIONS.has(t.word)) named = k; });
  if (segs.length !== 2 || named < 0 || !['in', 'across', 'throughout', 'for', 'at', 'with', 'on', 'to'].includes(first[named]?.word ?? '')) return null;
  // "stands for Large Language and Vision Assistant" spells one name out.
  if ((named > 0 && !/^[a-z]/.test(first[named - 1]?.raw ?? '')) || ['stands', 'short'].includes(named > 0 ? first[named - 1]?.word ?? '' : verb)) return null;
  const nameSeg = (seg: readonly Token[]): boolean => seg.length > 0 && seg.length <= 5
    && seg.every((t, k) => /^[\p{Lu}0-9][\p{L}\p{M}\d'’.-]*$/u.test(t.raw) || (k === 0 && t.word === 'the' && seg.length > 1) || (k > 0 && (t.word === 'of' || NAME_PARTICLES.has(t.word))));
  const object = first.slice(named + 1);
  const wholes = `${joinTokens(object)} and ${joinTokens(second)}`;
  // Single words both: places after "in" only ("in Switzerland and France"), not "Simon and Schuster".
  const single = object.length === 1 && second.length === 1 && !['in', 'across', 'throughout'].includes(first[named]?.word ?? '');
  // Years with years ("in 2011 and 2012"); "the 2002 Central American and Caribbean Junior Championships" is one name.
  const digits = (seg: readonly Token[]): boolean => seg.some((t) => /\d/.test(t.raw));
  // "for Italian Serie A club Inter Milan and the Argentine national team": a name and a team named by its country.
  // Not "the Tamil and Telugu film industries", "the Arts and Crafts movement": a one-word name before a kind shares it.
  const capitals = object.filter((t) => /^\p{Lu}/u.test(t.raw)).length;
  const named2 = (seg: readonly Token[]): boolean => nameSeg(seg) || (namedKind(seg) && capitals >= 2);
  const body = oneBody(object, second);
  if (!named2(object) || !named2(second) || digits(object) !== digits(second) || single || body || FIXED_PAIRS.test(wholes) || (second.length === 1 && object[0]?.word === 'the')) return null;
  return [first, [...first.slice(0, named + 1), ...second]];
}

// "the Argentine national team", "Premier League club Liverpool": a name's words and at most two of a kind, no verb.
function namedKind(seg: readonly Token[]): boolean {
  const lower = seg.filter((t, k) => !(k === 0 && t.word === 'the') && !/^\p{Lu}/u.test(t.raw));
  const start = seg[0]?.word === 'the' ? 1 : 0;
  return seg.length >= 2 && seg.length <= 7 && /^\p{Lu}/u.test(seg[start]?.raw ?? '') && lower.length >= 1 && lower.length <= 2
    && lower.every((t) => /^[a-z]+$/.test(t.raw) && !isVerbWord(t.word) && !AUXILIARIES.has(t.word) && !PREPOSITIONS.has(t.word) && !DETERMINERS.has(t.word));
}

// "presented BBC Breakfast, The Monday Night Club and Soccer Saturday", "attended Brisbane State High School and the
// University of Queensland": names listed as the verb's objects, one claim each. Names of two words or more (or
// "the" and a name), so "Bosnia and Herzegovina" and "Agriculture, Fisheries and Food" stay whole.
export function namedObjects(segs: Token[][]): Token[][] | null {
  const name = (seg: readonly Token[]): boolean => seg.length > 1 && seg.length <= 8
    && (/^["“]?[A-Z]/.test(seg[0]?.raw ?? '') || (seg[0]?.word === 'the' && /^[A-Z]/.test(seg[1]?.raw ?? '')))
    && !seg.some((t) => PREPOSITIONS.has(t.word) && !/^(?:of|for|de|and)$/.test(t.word) && t !== seg[0]);
  return segs.length >= 2 && segs.every(name) && !segs.some((seg, k) => k > 0 && oneBody(segs[k - 1]!, seg)) ? segs : null;
}
