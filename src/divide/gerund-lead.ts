/**
 * On claims over 15 words only: "In addition to playing for América Mineiro and Atlético Mineiro, Gilberto also played
 * for several other clubs." fronts a fact of its own with the main clause's verb: "Gilberto played for América
 * Mineiro and Atlético Mineiro." (the gerund's verb in the main verb's form), and the claim goes on without it
 * ("Gilberto also played for several other clubs."), as FActScore's annotators wrote them. Only where the gerund and
 * the main verb are one verb ("playing"/"played", "serving"/"has served"), so no verb form is made up; "In addition to
 * acting, Besant Ravi is also a member of ..." stays whole (lead-in.ts's work where it can).
 */
import { isLong } from './long.js';

const LEAD = /^(?:In addition to|Apart from|Aside from|Besides) ([a-z]+)ing ([^,]+), ((?:[A-Z][\w'’.-]*)(?: [A-Z][\w'’.-]*){0,3}|He|She|They) ((?:has |have |had )?)(?:also )?((?:has |have |had )?)([a-z]+) (.+)$/;

/** The claim without its gerund lead-in, and the lead-in as a fact with the main verb; the claim alone otherwise. */
export function gerundLeadApart(claim: string): string[] {
  if (!/^(?:In addition to|Apart from|Aside from|Besides) /.test(claim) || !isLong(claim)) return [claim];
  const m = LEAD.exec(claim);
  if (m === null) return [claim];
  const [, stem = '', object = '', subject = '', aux1 = '', aux2 = '', verb = '', rest = ''] = m;
  // One verb: "played" / "playing", "served" / "serving", "starred" / "starring".
  const verbStem = verb.replace(/(?:ed|s)$/, '');
  if (verbStem !== stem || verbStem.length < 3 || / and [a-z]+ing\b|,/.test(object)) return [claim];
  const body = claim.slice(claim.indexOf(', ') + 2);
  const fact = `${subject} ${aux1}${aux2}${verb} ${object}.`;
  if (isLong(fact) || rest === '') return [claim];
  return [`${body.charAt(0).toUpperCase()}${body.slice(1)}`, fact];
}
