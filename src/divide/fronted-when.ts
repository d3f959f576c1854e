/**
 * "After retiring from tennis, she pursued a career in fashion and fragrance design.": a fronted "after/before V-ing
 * X" places the main clause against another event. The event is a fact of its own (`frontedParticiple` in
 * person-clauses.ts: "Sabatini retired from tennis."); the main clause's claims keep the phrase in front, as the
 * sentence says them and as FActScore's annotators wrote them ("After retiring from tennis, she pursued a career in
 * fashion."). Without it the claims lost when they happened. Not on a claim about another subject than the main
 * clause's (a naming fact, an example's kind); a claim it would make long (over 15 words) stays as it was, with the
 * phrase a fact of the verb and its object beside it, as lead-in.ts gives any long claim's fronted time.
 */
import { additiveOnce } from './additive-once.js';
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

// Where a trailing phrase stops: a comma, a bracket, a citation, or a word that opens another phrase or clause.
const TAIL_END = new Set([',', ';', ':', '(', '[', 'and', 'or', 'but', 'which', 'who', 'where', 'when', 'while', 'because', 'due', 'despite']);

/**
 * "Jahanbani died on April 16, 2014 after battling cancer for several years": the main clause (the first part) gets
 * the trailing "after/before V-ing X" on it, up to the phrase's first comma, bracket or clause word, where the
 * main clause is one predicate and opens the sentence (no "and", "or" or comma but a date's: "was born in X and moved to
 * Y after ..." would put the phrase on both). The phrase's own part ("Jahanbani battled cancer for several years.") stays.
 */
export function backOnMain(parts: Part[], toks: readonly Tok[]): Part[] {
  const main = parts[0];
  // The main clause as the sentence opens it: not a fronted phrase's fact ("After retiring ..., she came back to win
  // X after turning 50" is the main clause's phrase, not the retirement's).
  if (main === undefined || parts.length < 2 || main.start !== toks[0]?.start || !main.text.startsWith(toks[0].text)) return parts;
  // The phrase's own part opens at its "after"/"before".
  const i = toks.findIndex((t) => t.start > main.start && (t.lower === 'after' || t.lower === 'before') && parts.some((p, k) => k > 0 && p.start === t.start));
  if (i < 0 || !/^[a-z]+ing$/.test(toks[i + 1]?.text ?? '') || toks[i + 1]!.pos !== 'VERB' || /\b(?:and|or)\b|, \D/.test(main.text)) return parts;
  let e = i + 2;
  while (e < toks.length && !TAIL_END.has(toks[e]!.lower) && toks[e]!.text !== '.') e++;
  const tail = toks.slice(i, e);
  let text = tail.map((t, k) => (k > 0 && t.start > tail[k - 1]!.end ? ' ' : '') + t.text).join('');
  // A title's comma inside its quotes ("the 2006 film "Snakes on a Plane,""): the quote closes the phrase.
  if ((text.match(/["“”]/g) ?? []).length % 2 === 1) {
    if (toks[e]?.text !== ',' || !/^["”]$/.test(toks[e + 1]?.text ?? '')) return parts;
    text += toks[e + 1]!.text;
  }
  if (isLong(`${main.text} ${text}`)) return parts;
  parts[0] = part(main.text, main.start, Math.max(main.end, tail[tail.length - 1]!.end), main.skip, main.attach, undefined, text);
  return parts;
}

const PRONOUN = /^(?:He|She|They|It)\b/;

/** A main clause's claims with its fronted phrase in front, each where it stays short and keeps the clause's subject. */
export function frontedOn<C extends { claim: string; question: string }>(p: Part, out: { pairs: C[]; reasons: string[] }): { pairs: C[]; reasons: string[] } {
  const front = p.front;
  out = { pairs: additiveOnce(out.pairs), reasons: out.reasons };
  if (p.back !== undefined) return backedOn(p, p.back, out);
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

// The main clause's claims with the trailing phrase at their end, each where it keeps the clause's subject and stays
// short.
function backedOn<C extends { claim: string; question: string }>(p: Part, back: string, out: { pairs: C[]; reasons: string[] }): { pairs: C[]; reasons: string[] } {
  const subject = (p.text.split(' ')[0] ?? '').toLowerCase();
  const pairs = out.pairs.map((c) => {
    if ((c.claim.split(' ')[0] ?? '').toLowerCase() !== subject) return c;
    const claim = `${c.claim.replace(/[.!?]+$/, '')} ${back}.`;
    const question = isLong(claim) ? null : claimToQuestion(claim);
    return question === null ? c : { ...c, claim, question };
  });
  return { pairs, reasons: out.reasons };
}
