/**
 * "first ... and then ...": "Valli was married twice, first to actor Charles Farrell and then to writer-director Dr.
 * James W. Runciman.", "Taylor later returned to China as a missionary himself, first as a teacher in the CIM's
 * schools and later as a medical missionary." The sentence says three things: the main clause, and each step with its
 * order word after the subject's verb, or after the main clause up to its own phrase with that preposition ("Valli
 * was married first to actor Charles Farrell.", "Valli was married then to writer-director Dr. James W. Runciman.",
 * "Taylor later returned to China as a medical missionary."), as the annotators wrote the steps ("He returned to
 * China as a teacher.").
 */
import { plainClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES } from './lexicon.js';

const STEPS = /^(.+?), first (as|to|in|at|for|with|on) (.+?),? and (then|later|subsequently) \2 (.+)\.$/;

/** The main clause and each step apart, or the claim alone. */
export function sequenceApart(claim: string): string[] {
  if (!claim.includes(', first ')) return [claim];
  const m = STEPS.exec(claim);
  if (m === null) return [claim];
  const [, head = '', p = '', one = '', order = '', two = ''] = m;
  const clause = plainClause(`${head}.`);
  if (clause === null) return [claim];
  const toks = clause.tokens;
  let e = clause.verbIndex + 1;
  while (e < toks.length && (AUXILIARIES.has(toks[e]!.word) || AUX_ADVERBS.has(toks[e]!.word) || toks[e]!.word === 'been' || /(?:ed|en)$/.test(toks[e]!.word))) e++;
  // The steps take the place of the head's own phrase with that preposition ("returned to China as a missionary
  // himself" -> "returned to China as a medical missionary"), or follow the verb.
  const own = head.lastIndexOf(` ${p} `);
  const verb = own > 0 && own > head.indexOf(toks[clause.verbIndex]!.raw) ? head.slice(0, own) : toks.slice(0, e).map((t) => t.raw).join(' ');
  // "Taylor later returned": the order word is there already.
  const then = new RegExp(`\\b${order}\\b`).test(verb) ? '' : `${order} `;
  return [`${head}.`, `${verb} first ${p} ${one}.`, `${verb} ${then}${p} ${two}.`];
}
