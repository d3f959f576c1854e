/** The claim steps of the rules divider: a piece of a statement -> its atomic claims (rules.ts calls it). */
import { longOnly, through } from './arrays.js';
import { splitClaims } from './claims.js';
import { hangingExampleApart } from './example-items.js';
import { roleAsApart, rolesInApart } from './role-as.js';
import { gerundLeadApart } from './gerund-lead.js';
import { timeSpanApart } from './time-spans.js';
import { rolePairsApart } from './role-pairs.js';
import { whileIngApart } from './while-ing.js';
import { whoseApart } from './whose-apart.js';
import { whichApart } from './which-apart.js';
import { passiveByApart } from './passive-by.js';
import { dateCommaApart } from './date-comma.js';
import { awardForApart } from './award-for.js';
import { playsAsApart } from './plays-as.js';
import { yearApart } from './year-apart.js';
import { leadInApart } from './lead-in.js';
import { examplesApart } from './examples-apart.js';
import { titleWhichApart } from './title-which.js';
import { relativeNameApart } from './relative-name.js';
import { duringWhichApart } from './during-which.js';
import { eventWhichApart } from './event-which.js';
import { inWhichApart } from './in-which.js';
import { andObjectsApart } from './and-objects.js';
import { commaListApart } from './comma-list.js';
import { detObjectsApart } from './det-objects.js';
import { apposedExamplesApart } from './apposed-examples.js';
import { unnamedExamplesApart } from './plain-examples.js';
import { focusApart } from './focus-apart.js';
import { gappedPairApart } from './gapped-pair.js';
import { quotedPairApart } from './quoted-pair.js';
import { longExampleApart } from './long-example.js';
import { rolesShareApart } from './roles-share.js';
import { knownPairApart } from './known-pair.js';
import { whereApart } from './where-apart.js';
import { onLoanApart } from './on-loan.js';
import { commaAndApart } from './comma-and.js';
import { placeEndApart } from './place-end.js';
import { alongsideApart } from './alongside.js';
import { prepRepeatApart } from './prep-repeat.js';
import { possessiveRepeatApart } from './possessive-repeat.js';
import { nameListApart } from './name-list.js';
import { endAppositionApart } from './end-apposition.js';
import { innerAppositionApart } from './inner-apposition.js';
import { sequenceApart } from './sequence.js';
import { andVerbApart } from './and-verb.js';
import { nationalityApart, once, rolesApart } from './roles.js';
import { asExistence } from './shows.js';
import { subjectPairApart } from './subject-pair.js';
import { adjunctsApart } from './adjuncts-apart.js';
import { institutionAtApart } from './institution-at.js';
import { whoApart } from './who-apart.js';
import { leadHeadApart } from './lead-head.js';
import { bornToApart } from './born-to.js';
import { dayLeadApart } from './day-lead.js';
import { afterClauseApart } from './after-clause.js';
import { commaIngApart } from './comma-ing.js';
import { framingLeadApart } from './framing-lead.js';
import { untilDeathApart } from './until-death.js';
import { andAgainApart } from './and-again.js';

// "born in the Bronx, New York on September 21, 1974" -> born in the Bronx, New York / born on September 21, 1974:
// the place and the date are two facts, as FActScore's annotators wrote them.
const BORN = /^(.*?\b(?:born|died))\s+((?:in|on)\s+.+?)\.?$/;
// "in the small town of Vimieiro", "in the village of Kakru": a place named after its kind opens a phrase too.
const NEXT_PHRASE = /,?\s+(?=(?:in|on)\s+(?:the\s+)?(?:[A-Z0-9]|(?:small\s+|tiny\s+|little\s+)?(?:town|village|city|hamlet|district|municipality|province|region)\s+of\s+[A-Z]))/;

function bornApart(claim: string): string[] {
  const m = BORN.exec(claim);
  if (!m || m[1] === undefined || m[2] === undefined) return [claim];
  const phrases = m[2].split(NEXT_PHRASE).map((x) => x.replace(/[,\s]+$/, '')).filter((x) => x !== '');
  if (phrases.length < 2) return [claim];
  // "in the small town of Vimieiro, in the municipality of Santa Comba": the town is in the larger area, as the
  // annotators wrote it ("Vimieiro is in the municipality of Santa Comba.").
  const within = phrases.flatMap((x, k) => {
    const next = phrases[k + 1];
    if (!/^in the (?:[a-z]+ )?(?:town|village|city|hamlet) of [A-Z]/.test(x) || next === undefined || !/^in the (?:district|municipality|province|region|county|state) of [A-Z]/.test(next)) return [];
    return [`${x.charAt(3).toUpperCase()}${x.slice(4)} is ${next}.`];
  });
  return [...phrases.map((x) => `${m[1]} ${x}.`), ...within];
}

// A piece's claims through the claim steps. The steps in `longOnly` runs act on claims over 15 words only (each tests
// isLong and returns the claim alone otherwise): a run is skipped where no claim is long (nearly every piece).
export function claimsOfPiece(p: string): string[] {
  const c = through(splitClaims(p), subjectPairApart, whoseApart, sequenceApart, prepRepeatApart, possessiveRepeatApart, hangingExampleApart, bornApart, whoApart, rolesApart, nationalityApart, timeSpanApart);
  const d = through(longOnly(through(longOnly(through(longOnly(c, gerundLeadApart), whichApart), rolePairsApart), roleAsApart, rolesInApart), framingLeadApart, leadInApart, leadHeadApart, dayLeadApart, dateCommaApart), yearApart);
  const e = through(longOnly(through(longOnly(d, awardForApart, playsAsApart), examplesApart), titleWhichApart, relativeNameApart, duringWhichApart, eventWhichApart, inWhichApart), nameListApart, innerAppositionApart, endAppositionApart);
  return once(longOnly(e, apposedExamplesApart, longExampleApart, unnamedExamplesApart, focusApart, detObjectsApart, commaListApart, gappedPairApart, quotedPairApart, rolesShareApart, knownPairApart, whereApart, onLoanApart, commaAndApart, placeEndApart, institutionAtApart, alongsideApart, andObjectsApart, andVerbApart, whileIngApart, passiveByApart, adjunctsApart, bornToApart, afterClauseApart, commaIngApart, untilDeathApart, awardForApart, andAgainApart)).map(asExistence);
}
