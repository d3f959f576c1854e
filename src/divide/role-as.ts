/**
 * "Doug Sheehan is best known for his role as Ben Galvin in the hit television drama series, Knots Landing.": the
 * role and the work it was in are facts apart ("Doug Sheehan is best known for his role as Ben Galvin.", "Doug
 * Sheehan's role as Ben Galvin is in the hit television drama series, Knots Landing."), as FActScore's annotators
 * wrote them (all seven such sentences of the dev biographies' first half state the role alone; "Andrew Shue's role
 * as Billy Campbell was on Melrose Place.").
 */
import { analyzeClause } from './clause.js';

// A role named in capitals ("as Deputy Chief Brenda Leigh Johnson"), then the work it was in or on.
// One role only: "roles as A in X, B in Y" is a list the role would swallow.
const ROLE_AS = /^(.+\brole as ((?:[A-Z][\w'’.-]*\s)*[A-Z][\w'’.-]*)) (in|on) (.+)\.$/;

const POSSESSIVE: Record<string, string> = { He: 'His', She: 'Her', They: 'Their' };

/** The claim with the role alone and the role played in its work; the claim alone when it names no such role. */
export function roleAsApart(claim: string): string[] {
  if (!claim.includes('role')) return [claim];
  const m = ROLE_AS.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  const clause = analyzeClause(claim);
  const subject = clause?.subject.map((t) => t.raw).join(' ') ?? '';
  // A role the subject is known for: the subject is a name or a pronoun, not "The film".
  if (clause === null || subject === '' || clause.intro.length > 0 || !/^(?:[A-Z][\w'’.-]*\s?)+$|^(?:He|She|They)$/.test(subject)) return [claim];
  const whose = POSSESSIVE[subject] ?? `${subject}'s`;
  // In the claim's own tense: "is best known for" -> "is in", "was known for" -> "was in".
  const be = clause.verb.word === 'was' || clause.verb.word === 'were' || (clause.verb.kind === 'main' && clause.verb.doWord === 'Did') ? 'was' : 'is';
  return [`${m[1]}.`, `${whose} role as ${m[2]} ${be} ${m[3]} ${m[4]}.`];
}
