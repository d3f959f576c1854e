/**
 * On claims over 15 words only: "Dubois' first fight as a professional was in April 2017 against Marcus Kelly, which
 * he won by knockout in the first round." A "which" that the person wins or loses, after "against" a name, is not the
 * name's (which-apart.ts and relative-name.ts leave it whole there) but the claim's subject's, an event its owner
 * fought: "Dubois' first fight as a professional was in April 2017 against Marcus Kelly." and "Dubois won his first
 * fight as a professional by knockout in the first round.", as FActScore's annotators wrote them ("Dubois won his
 * first professional fight by knockout."). Only where the subject is a name's possessive event (a fight, bout, match,
 * game, race, final, election or battle) and the clause's verb is "won" or "lost".
 */
import { isLong } from './long.js';
import { claimToQuestion } from './question.js';

const NAME = String.raw`\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){0,3}`;
const EVENT = new RegExp(String.raw`^(${NAME})(?:'s|'|’s|’) ((?:[\w-]+ ){0,3}(?:fight|bout|match|game|race|final|election|battle)(?: as an? [a-z]+)?) (?:was|were) (.+ against ${NAME}), which (he|she|they) (won|lost)\b(.*?)\.?$`, 'u');
const POSSESSIVE: Readonly<Record<string, string>> = { he: 'his', she: 'her', they: 'their' };

/** The claim without its "which he won" clause, and the clause as the owner's claim; the claim alone otherwise. */
export function eventWhichApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes(', which ')) return [claim];
  const m = EVENT.exec(claim);
  if (m === null) return [claim];
  const [, owner = '', event = '', , pronoun = '', verb = '', rest = ''] = m;
  const main = claim.slice(0, claim.indexOf(', which '));
  const fact = `${owner} ${verb} ${POSSESSIVE[pronoun]} ${event}${rest}.`;
  return isLong(fact) || claimToQuestion(fact) === null ? [claim] : [`${main}.`, fact];
}
