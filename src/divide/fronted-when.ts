/**
 * "After retiring from tennis, she pursued a career in fashion and fragrance design.": a fronted "after/before V-ing
 * X" places the main clause against another event. The event is a fact of its own (`frontedParticiple` in
 * person-clauses.ts: "Sabatini retired from tennis."); the main clause's claims keep the phrase in front, as the
 * sentence says them and as FActScore's annotators wrote them ("After retiring from tennis, she pursued a career in
 * fashion."). Without it the claims lost when they happened. Not on a claim about another subject than the main
 * clause's (a naming fact, an example's kind); a claim it would make long (over 15 words) stays as it was, with the
 * phrase a fact of the verb and its object beside it, as lead-in.ts gives any long claim's fronted time.
 */
import { flatMapOf } from './arrays.js';
import { part, type Part } from './clause-draft.js';
import { leadInApart } from './lead-in.js';
import { isLong } from './long.js';
import type { Tok } from './nlp.js';
import { claimToQuestion } from './question.js';

/** The main clause (the first part) with the fronted phrase's text on it, its span opened at the phrase. */
export function frontOnMain(parts: Part[], front: readonly Tok[] | undefined): Part[] {
  const main = parts[0];
  if (front === undefined || front.length === 0 || main === undefined) return parts;
  const text = front.map((t, k) => (k > 0 && t.start > front[k - 1]!.end ? ' ' : '') + t.text).join('');
  parts[0] = part(main.text, front[0]!.start, main.end, main.skip, main.attach, text);
  return parts;
}

const PRONOUN = /^(?:He|She|They|It)\b/;

/** A main clause's claims with its fronted phrase in front, each where it stays short and keeps the clause's subject. */
export function frontedOn<C extends { claim: string; question: string }>(p: Part, out: { pairs: C[]; reasons: string[] }): { pairs: C[]; reasons: string[] } {
  const front = p.front;
  if (front === undefined) return out;
  const subject = (p.text.split(' ')[0] ?? '').toLowerCase();
  const pairs = flatMapOf(out.pairs, (c) => {
    if ((c.claim.split(' ')[0] ?? '').toLowerCase() !== subject) return [c];
    const claim = `${front}, ${PRONOUN.test(c.claim) ? c.claim.charAt(0).toLowerCase() + c.claim.slice(1) : c.claim}`;
    // A long claim stays as it was, and the phrase goes with its verb and object, as lead-in.ts splits any long
    // claim with a fronted time ("Miki held several cabinet positions before becoming Prime Minister.").
    const dated = isLong(claim) ? leadInApart(claim)[1] : undefined;
    const question = isLong(claim) ? (dated === undefined ? null : claimToQuestion(dated)) : claimToQuestion(claim);
    if (question === null) return [c];
    return dated === undefined ? [{ ...c, claim, question }] : [c, { ...c, claim: dated, question }];
  });
  return { pairs, reasons: out.reasons };
}
