/**
 * "Wenham has won the Australian Film Institute Award for Best Supporting Actor for his role in the movie The Boys.":
 * an award and what it was for are facts apart ("Wenham has won the Australian Film Institute Award for Best
 * Supporting Actor.", "Wenham has won the Australian Film Institute Award for his role in the movie The Boys."), as
 * FActScore's annotators wrote them ("He won the award for his role in The Boys."). The award keeps its head (its name
 * before its own phrase) in the second claim; a claim that would still be long stays whole. "later"/"posthumously"
 * may stand before the verb, and what it was for may be "his efforts" ("Donovan was later awarded the Medal of
 * Freedom for his efforts.", the twentieth pass).
 */
import { isLong } from './long.js';

const AWARD_VERB = String.raw`(?:(?:has |have |had )?(?:also )?(?:won|received|earned)|(?:was|were|has been|have been) (?:also |later |posthumously )?(?:awarded|nominated for|honored with|honoured with|inducted into))`;
const AWARD_FOR = new RegExp(String.raw`^([A-Z][^,]*? ${AWARD_VERB}) ((?:the|a|an|[A-Z])[^,]*?) for (his|her|their) ((?:role|roles|performance|portrayal|work|album|film|movie|appearance|book|novel|song|single|invention|efforts|contributions|services)\b[^,]*)\.$`);

/** The award with its own phrase, and its head with what it was for; the claim alone otherwise. */
export function awardForApart(claim: string): string[] {
  if (!claim.includes(' for ') || !isLong(claim)) return [claim];
  const m = AWARD_FOR.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  const [head, award, whose, what] = [m[1], m[2], m[3], m[4]];
  // Two things it was for stay one claim; an "and" inside a quoted title ("Art and Life") is the title's.
  if (/\b(?:and|or)\b/.test(what.replace(/["“][^"”]*["”]/g, '""'))) return [claim];
  // The award's name before its own phrase ("the Grammy Award" of "the Grammy Award for Best Reggae Album"), and the
  // event it was given at ("at the Venice Film Festival"), each a fact of the award's, as the annotators wrote them
  // ("She won the Volpi Cup for Best Actress.", "She won the Volpi Cup at the Venice Film Festival.", "She won the
  // Volpi Cup for her performance in a film.").
  const at = / at (?:the )?(?:\d{4} )?[A-Z]/.exec(award);
  const event = at === null ? '' : award.slice(at.index);
  const named = at === null ? award : award.slice(0, at.index);
  const name = named.replace(/ (?:for|in|from|by) .*$/, '');
  // Where the name makes the reason long, the annotators' "the award" ("He won the award for his role in The Boys.").
  const kind = /\b(Award|Prize|Medal|Cup|Trophy|Order)s?\b[^A-Z]*$/.exec(name)?.[1]?.toLowerCase();
  const reasonOf = (ref: string): string => `${head} ${ref} for ${whose} ${what}.`;
  const reason = !isLong(reasonOf(name)) ? reasonOf(name) : kind !== undefined ? reasonOf(`the ${kind}`) : null;
  if (reason === null || isLong(reason)) return [claim];
  if (event === '') return [`${head} ${award}.`, reason];
  // An award at an event: the annotators wrote the name with the event ("He has won the Grand Prize at the 2013 Korea
  // Drama Awards."), its category apart where it has one.
  const atEvent = `${head} ${name}${event}.`;
  if (isLong(atEvent)) return [claim];
  return named === name ? [atEvent, reason] : [`${head} ${named}.`, atEvent, reason];
}
