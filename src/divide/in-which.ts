/**
 * On claims over 15 words only: "Casali gave a rare interview in which she deplored the courts' involvement in Mrs
 * Blood's case." An "in which" clause with its own subject ("he", "she") on a noun phrase the claim's verb takes
 * says what happened in that thing: "Casali gave a rare interview." and "She deplored the courts' involvement in Mrs
 * Blood's case in the rare interview.", as FActScore's annotators wrote it ("In the interview, Casali deplored the
 * courts' involvement in Mrs Blood's case."). Whole after a noun's preposition ("the success of the eponymous TV series
 * in which she starred": the series or the success?), where the phrase has a preposition or a name of its own, where
 * the clause has a second predicate ("in the X" would end the last), or where it makes no question.
 */
import { DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';
import { claimToQuestion } from './question.js';
import { isVerbLike } from './relative-name.js';
import { capitalize } from './text.js';

const IN_WHICH = /^(.*?(\S+) )(a|an|the|his|her|their) ((?:[a-z][\w'’-]* ){0,3}[a-z][\w-]*) in which (he|she) (.+?)\.?$/;

/** The claim up to the noun phrase, and the clause as a claim of what happened in it; the claim alone otherwise. */
export function inWhichApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(' in which ')) return [claim];
  const m = IN_WHICH.exec(claim);
  if (m === null) return [claim];
  const [, head = '', verb = '', det = '', phrase = '', pronoun = '', rest = ''] = m;
  // The verb that takes the phrase ("gave", "starred in"): not a noun's preposition, nor a list's "and".
  if (!isVerbLike(verb) || phrase.split(' ').some((w) => PREPOSITIONS.has(w) || DETERMINERS.has(w))) return [claim];
  // A second predicate or clause ("he was injured and spent three months in hospital"): "in the X" would end the last.
  if (/\b(?:which|who|whom|that|and|but|or)\b|,/.test(rest)) return [claim];
  const the = det === 'a' || det === 'an' ? 'the' : det;
  const fact = `${capitalize(pronoun)} ${rest} in ${the} ${phrase}.`;
  return isLong(fact) || claimToQuestion(fact) === null ? [claim] : [`${head}${det} ${phrase}.`, fact];
}
