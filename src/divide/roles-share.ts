/**
 * On claims over 15 words only: two roles after one article that share a phrase, "Cheney is best known as the lead
 * vocalist and guitarist for the rock band The Living End." -> "Cheney is best known as the lead vocalist for the rock
 * band The Living End.", "Cheney is best known as the guitarist for the rock band The Living End.", as FActScore's
 * annotators wrote them. Each role is one or two lower-case words ending in an agent noun ("bassist", "co-founder"),
 * so two adjectives ("the most respected and successful directors") or two things ("the history and culture of")
 * stay whole; role-pairs.ts takes roles that each have their own phrase.
 */
import { isLong } from './long.js';
import { articleFor } from './text.js';

const SHARED = /^(.+? (?:as|is|was|are|were|became|becomes|become) )(the|a|an) ((?:[a-z-]+ )?[a-z-]+) and ((?:[a-z-]+ )?[a-z-]+) ((?:of|for|at|with) [^,]+)\.$/;
const AGENT = /(?:er|or|ist|ian|man|woman|chair|head)$/;

/** One claim per role with the shared phrase, or the claim alone. */
export function rolesShareApart(claim: string): string[] {
  if (!claim.includes(' and ') || !isLong(claim)) return [claim];
  const m = SHARED.exec(claim);
  if (m === null) return [claim];
  const [, pre = '', article = '', a = '', b = '', phrase = ''] = m;
  if (!AGENT.test(a) || !AGENT.test(b) || / and /.test(phrase)) return [claim];
  const second = article === 'the' ? 'the' : articleFor(b);
  const out = [`${pre}${article} ${a} ${phrase}.`, `${pre}${second} ${b} ${phrase}.`];
  return out.some(isLong) ? [claim] : out;
}
