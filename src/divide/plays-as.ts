/**
 * "Luis Guillermo Rivera Martinez played as an attacking midfielder for Emelec in the Ecuadorian Football League.":
 * the position someone plays and the team they play for are facts apart ("... played as an attacking midfielder.",
 * "... played for Emelec in the Ecuadorian Football League."), as FActScore's annotators wrote them ("He plays as a
 * striker.", "He plays for Paris Saint-Germain."). A named team only, on claims over 15 words.
 */
import { isLong } from './long.js';

const PLAYS_AS = /^([A-Z][^,]*?\b(?:plays|played))((?: [^,]*?)?) (as (?:an?|the) [a-z][\w-]*(?: [a-z][\w-]*){0,2}) for ((?:the )?[A-Z].*)\.$/;

/** The position and the team apart; the claim alone otherwise. */
export function playsAsApart(claim: string): string[] {
  if (!claim.includes(' as ') || !isLong(claim)) return [claim];
  const m = PLAYS_AS.exec(claim);
  if (m === null || m[1] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  // "... for Premier League club Liverpool and captains the Egypt national team": another predicate follows.
  if (/\b(?:and|or|who|which|where)\b/.test(m[4])) return [claim];
  return [`${m[1]}${m[2] ?? ''} ${m[3]}.`, `${m[1]} for ${m[4]}.`];
}
