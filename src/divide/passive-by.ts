/**
 * "Heyward-Bey was selected by the Oakland Raiders in the first round of the 2009 NFL Draft.": in a long passive claim
 * the named agent and the phrase after it are facts apart ("Heyward-Bey was selected by the Oakland Raiders.",
 * "Heyward-Bey was selected in the first round of the 2009 NFL Draft."), as FActScore's annotators wrote them ("He
 * was drafted by the San Francisco Giants.", "He was drafted in the second round."). The agent must be a name, so
 * the phrase after it cannot be its own ("by the head of the department in 2001" stays whole).
 */
import { isLong } from './long.js';

const NAME = String.raw`(?:the )?(?:[A-Z][\w.'’-]*)(?: [A-Z][\w.'’-]*){0,5}`;
const PASSIVE = new RegExp(String.raw`^([A-Z][^,]*? (?:was|were|has been|had been|have been) (?:[a-z]+ly )?[a-z]+(?:ed|en|wn)) by (${NAME}) ((?:in|at|on|during|for|after|from|as) .+)\.$`);

/** The passive with its agent and with the phrase after the agent; the claim alone otherwise. */
export function passiveByApart(claim: string): string[] {
  if (!claim.includes(' by ') || !isLong(claim)) return [claim];
  const m = PASSIVE.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  // A second clause or list after the agent: the phrase may not be the verb's alone.
  if (/\b(?:and|or|who|which|that|where|when|while)\b/.test(m[3]) || /,/.test(m[1])) return [claim];
  return [`${m[1]} by ${m[2]}.`, `${m[1]} ${m[3]}.`];
}
