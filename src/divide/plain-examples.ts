/**
 * "She has supported organizations such as St. Jude Children's Research Hospital, The National Alliance on Mental
 * Illness, and The National Foundation for Autism Research.": a plural category right after a verb, with no count
 * before it ("several", "numerous": countedExamples in rules.ts) and no preposition ("in films such as": EXAMPLES),
 * has its named examples as objects of their own ("She has supported St. Jude Children's Research Hospital."); the
 * naming facts say what each is ("St. Jude Children's Research Hospital is an organization.").
 */
import { isLong } from './long.js';

// The category: up to two lower-case words and a plural noun.
// No preposition or determiner among the category's words: "appeared in films such as" is EXAMPLES's.
const CAT = String.raw`(?!(?:in|on|at|for|with|of|by|from|to|into|over|through|against|about|the|a|an|his|her|their|its)\b)[a-z][\w'’-]*`;
// The verb a perfect's participle right before the category ("has supported organizations"): an -ed word alone may be
// an adjective ("performed with renowned artists such as ...").
// Or another verb group that ends in its verb: "continued to release", "is supporting", "can play"; after a fronted
// phrase of time or circumstance and its comma ("Throughout the 1980s, Scientist continued to release critically
// acclaimed albums, such as").
const GROUP = String.raw`(?:(?:has|have|had)\s+(?:also\s+)?[a-z]+(?:ed|en|wn)|(?:continued|went on|began|started)\s+to\s+[a-z]+|(?:is|are|was|were)\s+(?:also\s+)?[a-z]+ing|(?:can|could|will|would)\s+(?:also\s+)?[a-z]+)`;
const PLAIN = new RegExp(String.raw`^((?:(?:In|On|At|During|Throughout|After|Before|Since|By|Under|As|Besides|Apart from|Outside of)\s[^,]*,\s)?[^,]*?\s${GROUP}\s)((?:${CAT}\s+){0,2}${CAT}[^s\s]s),?\s+(such as|including)\s+(.+?)\.?$`);

// An example that is a plain noun phrase: up to five words, with an article or a possessive at most, and no verb,
// clause or phrase but "of" ("cancer research", "the preservation of Iranian culture", "the COVID-19 pandemic").
const PLAIN_NP = /^(?:(?:the|a|an|his|her|their)\s)?[\w'’-]+(?:\s[\w'’-]+){0,4}$/;
const NOT_NP = /\b(?:is|are|was|were|has|have|had|be|been|which|who|that|where|when|in|on|at|for|with|by|from|to|as|or)\b/;

/**
 * On claims over 15 words only: the same shape with examples that are not names ("Pahlavi is supporting causes such
 * as cancer research, children's charities, and the preservation of Iranian culture.", "Under her leadership, the BBC
 * has covered major events such as Brexit negotiations and the COVID-19 pandemic."): each example takes the category's
 * place ("Pahlavi is supporting cancer research."), as FActScore's annotators wrote them ("She supports causes such as
 * cancer research."). No naming fact: an example that is no name says what it is itself.
 */
export function unnamedExamplesApart(claim: string): string[] {
  if (!claim.includes(' such as ') || !isLong(claim)) return [claim];
  const m = PLAIN.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[4] === undefined || /\b(?:been|is|was|are|were)\s$/.test(m[1])) return [claim];
  const items = m[4].split(/,\s+(?:and\s+)?|\s+and\s+/);
  if (items.length < 2 || !items.every((x) => PLAIN_NP.test(x) && !NOT_NP.test(x.replace(/^\S+\s/, '')))) return [claim];
  return [`${m[1]}${m[2]}.`, ...items.map((x) => `${m[1]}${x}.`)];
}

/** One claim per named example and the category's own; null when the text has no such list. */
export function plainExamples(text: string, listItems: (list: string, most?: number) => string[] | null): string[] | null {
  const m = text.includes(' such as ') || text.includes(' including ') ? PLAIN.exec(text) : null;
  if (m === null || m[1] === undefined || m[2] === undefined || m[4] === undefined) return null;
  // "has been ...", "was ...": a copula's complement is no object.
  if (/\b(?:been|is|was|are|were)\s$/.test(m[1])) return null;
  const items = listItems(m[4]);
  // Named examples only, each whole: "Jail Breakers, My Teacher, Mr. Kim, and Ghost House" cannot be told apart.
  // A quoted title is the whole item ('"Pari" under her production company' goes on); a bare one is capitalised words.
  const named = (x: string): boolean => /^["“][^"“”]+["”]$/.test(x) || /^(?:[A-Z0-9][\w'’.&-]*|of|the|and|for|on|in|y|de)(?:\s(?:[A-Z0-9][\w'’.&-]*|of|the|and|for|on|in|y|de))*$/.test(x);
  if (items === null || items.length < 2 || !items.every(named)) return null;
  if (items.some((x) => /^(?:Mr|Mrs|Ms|Dr|St)\.?$/.test(x))) return null;
  return [`${m[1]}${m[2]}.`, ...items.map((x) => `${m[1]}${x}.`)];
}
