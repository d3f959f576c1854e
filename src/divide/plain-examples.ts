/**
 * "She has supported organizations such as St. Jude Children's Research Hospital, The National Alliance on Mental
 * Illness, and The National Foundation for Autism Research.": a plural category right after a verb, with no count
 * before it ("several", "numerous": countedExamples in rules.ts) and no preposition ("in films such as": EXAMPLES),
 * has its named examples as objects of their own ("She has supported St. Jude Children's Research Hospital."); the
 * naming facts say what each is ("St. Jude Children's Research Hospital is an organization.").
 */
// The category: up to two lower-case words and a plural noun.
// No preposition or determiner among the category's words: "appeared in films such as" is EXAMPLES's.
const CAT = String.raw`(?!(?:in|on|at|for|with|of|by|from|to|into|over|through|against|about|the|a|an|his|her|their|its)\b)[a-z][\w'’-]*`;
// The verb a perfect's participle right before the category ("has supported organizations"): an -ed word alone may be
// an adjective ("performed with renowned artists such as ...").
const PLAIN = new RegExp(String.raw`^([^,]*?\s(?:has|have|had)\s+(?:also\s+)?[a-z]+(?:ed|en|wn)\s)((?:${CAT}\s+){0,2}${CAT}[^s\s]s),?\s+(such as|including)\s+(.+?)\.?$`);

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
