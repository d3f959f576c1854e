/**
 * "Kirby won the Volpi Cup for Best Actress at the Venice Film Festival.": a long claim whose verb has its object
 * and then two phrases or more says one fact per phrase, each with the verb and its object ("Kirby won the Volpi Cup
 * at the Venice Film Festival."), as FActScore's annotators wrote them ("She won the Volpi Cup for Best Actress.",
 * "She won the Volpi Cup at the Venice Film Festival.", "Roberto Enrique Clemente Walker played 18 seasons for the
 * Pittsburgh Pirates."). year-apart.ts does this for a year; this is the general case, on what is still long.
 */
import { plainClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES, BE_FORMS, PREPOSITIONS } from './lexicon.js';
import { isLong, LONG_CLAIM_WORDS, spaceWords } from './long.js';

// The prepositions that open a phrase of the verb's ("of", "as", "to" and the like stay inside the phrase before).
const OPENS = new Set(['in', 'at', 'for', 'from', 'with', 'on', 'during']);
// A phrase of time that may govern what follows it ("after more than four years in the role"): it ends the claim.
const LAST = new Set(['after', 'before', 'since', 'until']);
// A second clause, a list, a comparison or a negation: the phrases may not all be the verb's.
const NOT_PLAIN = /[,;:]| (?:and|or|but|nor|not|which|who|whom|whose|that|when|where|while|because|than|including|such|between|each|both|either|neither)\b/;
// An object that needs what follows it ("a key role in ...", "the first woman to ...", "one of ...").
const NEEDS_MORE = /^(?:role|roles|part|first|only|last|one|number|some|many|most|all|way|ability|impact|influence|effect|career|debut|name)$/;
// A phrase that holds one of these takes the phrases after it as its own ("for his role in "Hong Gil-dong"").
const HOLDS_NEXT = /^(?:role|roles|part|parts|performance|performances|work|appearance|portrayal|services|contributions?)$/;
// An object that is a pronoun, an ordinal or a particle ("named him one of ...", "came second", "followed it up").
const NO_OBJECT = /^(?:it|him|her|them|this|that|itself|himself|herself|first|second|third|up|out|back|down|off|history)$/;

// "and" inside a name, between capitals ("the High Court of Jammu and Kashmir"), is no coordination of the claim's.
const NAME_AND = /([A-Z][\w'’.-]*) and (?=[A-Z])/g;
const PICTURE = /^(?:the|this|in the) (?:image|picture|photo|photograph|scene|painting|video)\b/i;

/** One claim per phrase, each with the subject, the verb and its object; the claim alone otherwise. */
export function adjunctsApart(claim: string): string[] {
  if (!isLong(claim) || !claim.endsWith('.') || NOT_PLAIN.test(claim.includes(' and ') ? claim.replace(NAME_AND, '$1') : claim)) return [claim];
  // Brackets only around an abbreviation of the name before them ("the International Cricket Council (ICC)").
  if (claim.includes('(') && claim.replace(/ \([A-Z]{2,}\)/g, '').includes('(')) return [claim];
  // A picture's description ("The image shows a row of mugs with ... on them"): its phrases are one another's nouns'.
  if (PICTURE.test(claim)) return [claim];
  const body = claim.slice(0, -1);
  const clause = plainClause(body);
  if (clause === null) return [claim];
  const toks = clause.tokens;
  const v = clause.verbIndex;
  // The subject names someone: a capital or a pronoun, and short.
  // "There is a row of mugs with ... on them" describes a picture, its phrases one another's nouns'.
  if (v === 0 || v > 5 || !/^(?:[A-Z]|he$|she$|they$)/.test(toks[0]!.raw) || /^(?:there|it|this|that|these|those)$/.test(toks[0]!.word)) return [claim];
  let k = v + 1;
  while (k < toks.length && (AUXILIARIES.has(toks[k]!.word) || AUX_ADVERBS.has(toks[k]!.word) || /(?:ed|en)$/.test(toks[k]!.word))) k++;
  // A progressive's verb ("is currently serving as ...").
  if (k < toks.length && /ing$/.test(toks[k]!.word) && BE_FORMS.has(toks[k - 1]!.word)) k++;
  // A copula's predicate ("is best known for ...", "is a member of ...") is no event with phrases of its own.
  const main = toks.slice(v, k).filter((t) => !AUX_ADVERBS.has(t.word));
  if (main.length === 0 || main.every((t) => BE_FORMS.has(t.word) || AUXILIARIES.has(t.word))) return [claim];
  // The object runs to the first preposition that opens a phrase; no object (a phrase right after the verb) leaves
  // nothing to carry into each phrase.
  // A role after "as" stands as the object does ("worked as a fishmonger at ...").
  const role = toks[k]?.word === 'as';
  if (k >= toks.length || PREPOSITIONS.has(toks[k]!.word) || toks[k]!.word === 'to') return [claim];
  if (role && k + 1 >= toks.length) return [claim];
  const cap = (j: number): boolean => /^["“]?[A-Z0-9]/.test(toks[j]?.raw ?? '');
  // Where the phrases start: at a preposition of OPENS or LAST, unless it stands between capitals inside a name
  // ("the Magnus Hirschfeld Medal for Sexual Science").
  const starts: number[] = [];
  for (let j = k + 1; j < toks.length; j++) {
    const w = toks[j]!.word;
    if (!OPENS.has(w) && !LAST.has(w)) continue;
    const name = (i: number): boolean => /^["“]?[A-Z]/.test(toks[i]?.raw ?? '');
    if (cap(j - 1) && OPENS.has(w) && (name(j + 1) || (/^an?$/.test(toks[j + 1]?.word ?? '') && name(j + 2)))) continue;
    // After a role or a performance the phrases are its own ("for her performance as Elena in the play ... at ...").
    if (starts.length > 0 && toks.slice(starts[starts.length - 1], j).some((t) => HOLDS_NEXT.test(t.word))) break;
    starts.push(j);
    if (LAST.has(w)) break;
  }
  // The same preposition twice ("with no mention of any association with ..."): the second may be the first's noun's.
  if (starts.length === 0 || new Set(starts.map((j) => toks[j]!.word)).size < starts.length) return [claim];
  const raw = (a: number, b: number): string => toks.slice(a, b).map((t) => t.raw).join(' ');
  const objectEnd = starts[0]!;
  // The object is a plain noun phrase: no verb form, infinitive or phrase of its own but "of".
  const object = toks.slice(k, objectEnd);
  if (NEEDS_MORE.test(toks[objectEnd - 1]!.word) || NO_OBJECT.test(toks[k]!.word) || object.slice(role ? 1 : 0).some((t) => /ing$/.test(t.word) || t.word === 'as' || t.word === 'to' || (PREPOSITIONS.has(t.word) && t.word !== 'of'))) return [claim];
  if (starts.length === 1) return timeApart(claim, toks, k, objectEnd, role);
  const core = raw(0, objectEnd);
  const out: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i]!;
    const b = starts[i + 1] ?? toks.length;
    const phrase = toks.slice(a, b);
    // A phrase of one word, or one that holds a verb form ("in shaping ..."), is not the verb's phrase alone.
    if (phrase.length < 2 || /^(?:it|them|him|her|top)$/.test(phrase[phrase.length - 1]!.word) || phrase.some((t) => /ing$/.test(t.word) && !/^[A-Z]/.test(t.raw))) return [claim];
    out.push(`${core} ${raw(a, b)}.`);
  }
  // Quotes must stay paired, and every piece must be short, or the split only moved the length.
  if (out.some((c) => spaceWords(c) > LONG_CLAIM_WORDS || ((c.match(/["“”]/g) ?? []).length % 2 === 1))) return [claim];
  return out;
}

// "Timothy Andrew Fischer AC served as the leader of the National Party from 1990 to 1999.": one phrase of time
// after a long object is a fact with the object's head ("... served as the leader from 1990 to 1999."), as the
// annotators wrote it ("He was the leader from 1990 to 1999."); the claim goes on without it. The head is the object
// before its own "of"/"for" phrase; an object with no such phrase leaves the claim whole.
function timeApart(claim: string, toks: readonly { word: string; raw: string }[], k: number, at: number, role: boolean): string[] {
  const phrase = toks.slice(at);
  if (!/^(?:from|since|until|during|in)$/.test(phrase[0]!.word) || !phrase.some((t) => /^(?:1[5-9]|20)\d\ds?\b/.test(t.word))) return [claim];
  const of = toks.findIndex((t, j) => j > k + (role ? 1 : 0) && j < at && (t.word === 'of' || t.word === 'for'));
  // A head that means nothing without its phrase ("the Brazilian version", "a member") leaves the claim whole.
  if (of < 0 || NEEDS_MORE.test(toks[of - 1]!.word) || /^(?:the|a|an|version|edition|season|episode|kind|type|member|series)$/.test(toks[of - 1]!.word)) return [claim];
  const raw = (a: number, b: number): string => toks.slice(a, b).map((t) => t.raw).join(' ');
  const out = [`${raw(0, at)}.`, `${raw(0, of)} ${raw(at, toks.length)}.`];
  return out.some((c) => spaceWords(c) > LONG_CLAIM_WORDS || ((c.match(/["“”]/g) ?? []).length % 2 === 1)) ? [claim] : out;
}
