/**
 * On claims over 15 words only: a second clause after ", and" that the conjunction rules left joined, where its form
 * says it is one: a time adverb and a verb of the claim's subject ("Stevenson was a literary celebrity during his
 * lifetime, and now ranks among the 26 most translated authors in the world." -> "Stevenson now ranks among ..."), or
 * a short fronted phrase and a pronoun subject of its own ("Owen has won multiple WSL QS events in Australia, and in
 * 2011 he won the Oakley Pro Junior event at Bells Beach." -> "In 2011, Owen won ..."). Each part short, and a
 * question can be asked of the second.
 */
import { isLong } from './long.js';
import { claimToQuestion } from './question.js';

const SUBJECT = /^((?:[A-Z][\w'’.-]*)(?: [A-Z][\w'’.-]*){0,3}|He|She|They) /;
// "and now ranks", "and then later on transitioned": adverbs of time, then a verb in the past or third person.
const ADVERB_VERB = /^((?:(?:now|then|later|later on|also|still|eventually|subsequently|soon) )+)([a-z]+(?:ed|s)) (.+)$/;
// "and in 2011 he won", "and at the age of 27 he opened": a phrase of up to seven words, then a pronoun and a verb.
const PHRASE_PRONOUN = /^((?:in|at|on|after|by|during) (?:\S+ ){0,6}?)(he|she|they) ([a-z]+) (.+)$/;

/** The claim's two clauses apart, or the claim alone. */
export function commaAndApart(claim: string): string[] {
  const at = claim.indexOf(', and ');
  if (at < 0 || !isLong(claim) || claim.indexOf(', and ', at + 1) >= 0) return [claim];
  const left = claim.slice(0, at);
  const right = claim.slice(at + 6).replace(/\.$/, '');
  const subject = SUBJECT.exec(left)?.[1];
  let second: string | null = null;
  const a = ADVERB_VERB.exec(right);
  if (a !== null && subject !== undefined) second = `${subject} ${a[1]}${a[2]} ${a[3]}.`;
  const p = a === null ? PHRASE_PRONOUN.exec(right) : null;
  // The phrase keeps a comma after it, so the pronoun is named as after any fronted phrase (pronouns.ts).
  if (p !== null) second = `${p[1]!.charAt(0).toUpperCase()}${p[1]!.slice(1).replace(/ $/, '')}, ${p[2]} ${p[3]} ${p[4]}.`;
  if (second === null || /,/.test(left.slice(subject?.length ?? 0)) && a !== null) return [claim];
  const out = [`${left}.`, second];
  // A clause no question can be asked of ("Ji then later on transitioned to acting.") would be lost: whole.
  return out.some(isLong) || claimToQuestion(second) === null ? [claim] : out;
}
