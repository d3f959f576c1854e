/**
 * 'Hicks is best known for her single "Sentimental," which was on the soundtrack of the 1997 film, Money Talks.': a
 * relative clause after a quoted title, whose comma sits inside the quotes, was read as part of the claim. The
 * title's clause is a fact of the title ("Sentimental was on the soundtrack of the 1997 film, Money Talks."), as
 * the annotators wrote it ("Sentimental was on the soundtrack of Money Talks."), and the claim ends at the title.
 */

import { claimToQuestion } from './question.js';
import { isLong } from './long.js';

// Over this many words a claim is long (the study's measure).
const TITLE_WHICH = /^(.+?\s)["“]([^"“”]+?),?["”],?\s+which\s+((?:is|was|are|were|has|had|peaked|propelled|combines|chronicles|reached|became|topped|won|features|tells)\b.+?)\.?$/;

/** The claim up to its quoted title and the title's relative clause as a claim of its own; the claim otherwise. */
export function titleWhichApart(claim: string): string[] {
  if (!claim.includes('which') || !isLong(claim)) return [claim];
  const m = TITLE_WHICH.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  // "propelled them", "chronicles her ...": the clause's pronouns are the claim's subject's; kept as written.
  // The title as the clause's subject goes without its quotes, as the annotators wrote it: a question cannot open
  // on a quote ('Does "slackness" combine ...?' was not formed).
  const title = `${m[2].charAt(0).toUpperCase()}${m[2].slice(1)}`;
  const clause = `${title} ${m[3]}.`;
  // A clause no question can be asked of ("Slackness combines ...", read with "combines" as a noun) stays in the claim.
  return claimToQuestion(clause) === null ? [claim] : [`${m[1]}"${m[2]}".`, clause];
}
