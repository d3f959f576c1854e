/**
 * A preposition said again after "and": "was appointed to the Football League in 2010 and to the Premier League in
 * 2019", "was organist at Saint-Nicolas-des-Champs from 1857-1864 and at the Church of the Madeleine from 1864-1911",
 * "was known for his ability to ... and for his strong sense of visual style". The two phrases are two facts about the
 * subject and its verb, as FActScore's annotators wrote them ("Massey-Ellis was appointed to the Premier League in
 * 2019."): the second takes the first one's place after the verb. The first phrase is that preposition's only one
 * between the verb and "and", with no other preposition before it but "of". Not under a relational word ("between X
 * and Y"), nor where either phrase's object is a bare year ("in the band in 2001 and in 2005": the year goes with the
 * band).
 */
import { plainClause, type Clause } from './clause.js';
import { PREPOSITIONS } from './lexicon.js';

const PREP = new Set(['in', 'at', 'for', 'to', 'of', 'on', 'from', 'as', 'with', 'by', 'under']);
const ADVERB = new Set(['also', 'later', 'then', 'again', 'subsequently']);
const RELATIONAL = /\b(?:between|among|amongst|both|either|neither|together|respectively)\b/i;
const AND_PREP = / and (?:(?:also|later|then|again|subsequently) )?(?:in|at|for|to|of|on|from|as|with|by|under) /;
const OBJECT = /^(?:the|an?|his|her|their|its|[A-Z0-9"“].*)$/;
const YEAR = /^(?:(?:the )?(?:1[5-9]|20)\d\ds?|\d+)$/;

/**
 * A claim's words and main clause when a word said again after "and" may split it (`trigger`, this file's and
 * possessive-repeat.ts's): no relational word, and a plain clause (no fronted phrase, not locative, not from a
 * relative) whose tokens are the claim's words; else null.
 */
export function repeatClause(claim: string, trigger: RegExp): { words: string[]; clause: Clause } | null {
  if (!trigger.test(claim) || RELATIONAL.test(claim)) return null;
  const words = claim.replace(/\.$/, '').split(' ');
  const clause = plainClause(claim);
  if (clause === null || clause.tokens.length !== words.length) return null;
  return { words, clause };
}

/** The claim with one claim per repeated preposition's phrase, or the claim alone. */
export function prepRepeatApart(claim: string): string[] {
  const found = repeatClause(claim, AND_PREP);
  if (found === null) return [claim];
  const { words, clause } = found;
  for (let j = clause.verbIndex + 2; j < words.length - 2; j++) {
    if (words[j] !== 'and') continue;
    const k = ADVERB.has(words[j + 1]!) ? j + 2 : j + 1;
    const p = words[k]!;
    if (!PREP.has(p)) continue;
    // The first phrase's preposition, said once between the verb and "and" ("of" inside a name, "the University of
    // San Carlos", does not count): with two ("in various teams in the United States and in Japan") either may be it.
    const at = [];
    for (let x = clause.verbIndex + 1; x < j; x++) if (words[x] === p && !(p === 'of' && /^[A-Z]/.test(words[x - 1]!))) at.push(x);
    const i = at[0] ?? -1;
    // ", and for his work ...": after a comma the "and" joins the clause's phrases, and the first such preposition
    // after the verb is the one said again ("known for his advocacy for gun control ..., and for his work to ...").
    const comma = /,$/.test(words[j - 1]!) && at.length > 1 && at[0] === clause.verbIndex + 1 + words.slice(clause.verbIndex + 1).findIndex((w) => PREPOSITIONS.has(w));
    if ((at.length !== 1 && !comma) || i >= j - 1) continue;
    // The phrase is the verb's, not a noun's: no other preposition ("of" aside) between the verb and it, so "lived in
    // a house by the lake and by the river" stays whole (the house is by both).
    if (words.slice(clause.verbIndex + 1, i).some((w) => PREPOSITIONS.has(w) && w !== 'of')) continue;
    // "to educate communities ... and to promote": an infinitive's "to" is no preposition.
    if (p === 'to' && !(OBJECT.test(words[i + 1]!) && OBJECT.test(words[k + 1]!))) continue;
    const left = words.slice(i + 1, j).join(' ').replace(/,$/, '');
    if (YEAR.test(left) || YEAR.test(words[k + 1]!) || /\band\b/.test(words.slice(0, i).join(' '))) continue;
    // "attended school first in his hometown and then in Guadalajara": the order words are the first claim's and
    // the second's sequence, not of the second claim alone ("Kirby trained at the Royal Academy ...").
    const head = words.slice(0, words[i - 1] === 'first' ? i - 1 : i);
    const first = `${words.slice(0, j).join(' ').replace(/,$/, '')}.`;
    return [first, ...prepRepeatApart(`${[...head, ...words.slice(k)].join(' ')}.`)];
  }
  return [claim];
}
