/**
 * On claims over 15 words only: named examples that each carry an apposition ('He wrote several books about his
 * experiences in China, including "Hudson Taylor and the China Inland Mission", a biography of his father, and
 * "Behind the Ranges: ...", a biography of another CIM missionary.'; "Ahmadu Bello University has produced notable
 * alumni such as Namadi Sambo, former vice president of Nigeria, and Olufemi Obafemi, poet, playwright, and author."):
 * the list rules cannot tell the items from the appositions, so the claim had stayed whole. The category is a claim
 * of its own, each name takes its place after the verb ('He wrote "Behind the Ranges: ..."'), and each apposition
 * says what its name is ("Namadi Sambo is a former vice president of Nigeria."), as FActScore's annotators wrote them
 * ("He wrote a biography of his father.").
 */
import { PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

const EXAMPLES = /^(.+?),?\s+(?:including|such as)\s+(.+?)\.?$/;
// Where the category starts: a count, or the words right after a perfect's participle ("has produced notable alumni").
const COUNT = /^(.*?\s)(?:several|numerous|many|various|multiple|a number of|(?:over|more than)\s+\d+)\s/;
const PERFECT = /^(.*?\s(?:has|have|had)\s+(?:also\s+)?[a-z]+(?:ed|en|wn)\s)(?:[a-z][\w'’-]*\s+){0,2}(?:[a-z][\w'’-]*s|alumni|people|children|women|men)$/;
const NAME = /^(?:the\s+)?["“]?[A-Z0-9]/;
const DET = /^(?:a|an|the|one of|his|her|their|its)\s/;

/** The category, each named example in its place and what each is; the claim alone when it has no such list. */
export function apposedExamplesApart(claim: string): string[] {
  if (!claim.includes(', ') || !isLong(claim)) return [claim];
  const m = EXAMPLES.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined) return [claim];
  const [head, list] = [m[1], m[2]];
  const lead = COUNT.exec(head)?.[1] ?? PERFECT.exec(head)?.[1];
  if (lead === undefined || lead.includes(',')) return [claim];
  // The list's pieces at its commas (not inside quotes); an "and" before a piece is the list's.
  const pieces = list.replace(/"[^"]*"|“[^”]*”/g, (q) => q.replace(/,/g, '\u0001')).split(/,\s+/).map((x) => x.replace(/\u0001/g, ',').replace(/^and\s+/, ''));
  const items: { name: string; what: string[] }[] = [];
  let tail = '';
  for (const [k, p] of pieces.entries()) {
    if (NAME.test(p) && !/\s(?:and|or)\s/.test(p.replace(/"[^"]*"|“[^”]*”/g, ''))) items.push({ name: p, what: [] });
    else if (k === pieces.length - 1 && PREPOSITIONS.has(p.split(' ')[0]!)) tail = ` ${p}`;
    else if (items.length > 0 && /^[a-z]/.test(p) && !PREPOSITIONS.has(p.split(' ')[0]!) && !/\b(?:which|who|that|whose|where|when|is|was|are|were|has|had)\b/.test(p)) items[items.length - 1]!.what.push(p);
    else return [claim];
  }
  // Appositions on every name, and no phrase after them: "the Naoki Prize, one of Japan's most prestigious literary
  // prizes, in 1982 for her novel ..." stays whole ("She received the award in 1982." is the annotators' fact of it,
  // which "She received the Naoki Prize in 1982 ..." would not say in its words).
  if (items.length === 0 || !items.every((x) => x.what.length > 0) || tail !== '') return [claim];
  const name = (x: string): string => x.replace(/^the\s/, 'The ');
  const what = (x: string): string => (DET.test(x) ? x : `${/^[aeiou]/.test(x) ? 'an' : 'a'} ${x}`);
  // "a biography of his father" is a thing the verb took too ("He wrote a biography of his father.", as annotated).
  const took = (w: string): string[] => (/^an?\s/.test(w) ? [`${lead}${w}.`] : []);
  return [`${head}.`, ...items.flatMap((x) => [`${lead}${x.name}.`, ...x.what.flatMap((w) => [`${name(x.name)} is ${what(w)}.`, ...took(w)])])];
}
