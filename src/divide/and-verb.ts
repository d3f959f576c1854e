/**
 * On claims over 15 words only: a second predicate of the subject after "and" that the conjunction rules left joined
 * ("His debut album, The Nebulizer, was released in 2011 and peaked at number 10 on the ARIA Charts." -> "... was
 * released in 2011.", "His debut album, The Nebulizer, peaked at number 10 on the ARIA Charts."; "is an outspoken
 * advocate for X and campaigns for Y"), as FActScore's annotators wrote them. The word after "and" must be one the
 * tagger read as a verb right after "and" in this answer (wink's tag in its sentence, collected with the verb hints),
 * in the past or the third person: "books and articles on X" and "to revitalize X and promote Y" stay whole.
 */
import { analyzeClause } from './clause.js';
import { DETERMINERS, IRREGULAR_PAST, PREPOSITIONS, PRONOUNS } from './lexicon.js';
import { claimToQuestion } from './question.js';
import { isLong } from './long.js';

const ADVERB = /^(?:now|later|also|then|currently|subsequently|still|eventually|soon|often|even|never|always|[a-z]+ly)$/;
const PAST_VERB = /^(?:was|were|had|did)$|ed$/;

let andVerbs: ReadonlySet<string> = new Set();

/** The words the tagger read as verbs right after "and" (or "and" and an adverb) in this answer. */
export function setAndVerbs(words: ReadonlySet<string>): void {
  andVerbs = words;
}

/** The claim's two predicates apart, or the claim alone. */
export function andVerbApart(claim: string): string[] {
  if (andVerbs.size === 0 || !claim.includes(' and ') || !isLong(claim)) return [claim];
  const clause = analyzeClause(claim);
  const words = claim.replace(/\.$/, '').split(' ');
  if (clause === null || clause.intro.length > 0 || clause.subject.length === 0 || clause.tokens.length !== words.length) return [claim];
  // "His debut album, The Nebulizer, was released ...": the second predicate is the name's ("The Nebulizer peaked ...").
  const head = words.slice(0, clause.subject.length).join(' ');
  const subject = /^[^,]+, ([A-Z][^,]*),$/.exec(head)?.[1] ?? head;
  const pastMain = PAST_VERB.test(clause.verb.word) || IRREGULAR_PAST.has(clause.verb.word);
  for (let j = clause.verbIndex + 3; j < words.length - 2; j++) {
    if (words[j] !== 'and') continue;
    // "... and they both supported him and advised him": the second predicate is another subject's.
    if (PRONOUNS.has(words[j + 1]!)) return [claim];
    const k = ADVERB.test(words[j + 1]!) && andVerbs.has(words[j + 2]!) ? j + 2 : j + 1;
    const w = words[k]!;
    if (!andVerbs.has(w) || k >= words.length - 1 || w.includes('-')) continue;
    // A bare noun after the verb ("and entered politics") only where the first predicate ends in a name or a number,
    // not in an adjective ("a skilled and dedicated lawyer"), and no clause of another subject opened before "and"
    // ("until they withdrew support for Israel and withdrew ...").
    const subordinate = words.slice(clause.verbIndex + 1, j).some((x) => /^(?:until|when|while|because|although|though|where|which|who|that)$/.test(x));
    const bare = /^[a-z]+$/.test(words[k + 1]!) && /^(?:[A-Z]|\(|\d)|\)$/.test(words[j - 1]!) && (/ed$/.test(w) || IRREGULAR_PAST.has(w));
    if (subordinate || !(objectStart(words[k + 1]!) || /^\d/.test(words[k + 2] ?? '') || bare)) continue;
    // "was released in 2011 and peaked at ...": a past verb after a past main verb ("is sliced into strips and cooked
    // until" is one passive); "is signed to X and competes in Y": a third-person verb after a present one.
    const past = /ed$/.test(w) || IRREGULAR_PAST.has(w);
    if (past ? !pastMain : !/[^s]s$/.test(w) || pastMain) continue;
    const out = [`${words.slice(0, j).join(' ').replace(/,$/, '')}.`, `${subject} ${words.slice(j + 1).join(' ')}.`];
    return out.every((c) => claimToQuestion(c) !== null) ? out : [claim];
  }
  return [claim];
}

// What a verb takes next ("peaked at", "supported Puerto Rico's", "became a"): a preposition, a determiner, a pronoun, a
// number or a name; "complex and nuanced characters", "a skilled and dedicated lawyer" are adjectives before a noun.
function objectStart(word: string): boolean {
  const w = word.toLowerCase();
  return PREPOSITIONS.has(w) || DETERMINERS.has(w) || PRONOUNS.has(w) || /^(?:as|alongside|after|before|until|since|him|her|them|us)$/.test(w) || /^["“]?[A-Z0-9]/.test(word);
}
