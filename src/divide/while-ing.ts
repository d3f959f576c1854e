/**
 * "Welbourn developed an interest in vascular surgery while working as a registrar at St Mary's Hospital, London.": a
 * long claim with a temporal participle ("while", "after", "before" and an -ing verb) says two things the subject did,
 * each a fact, and when one happened is a third ("Welbourn developed an interest in vascular surgery while working as a
 * registrar.", "Welbourn worked as a registrar at St Mary's Hospital, London."), as FActScore's annotators wrote them. The subject of the participle is the clause's (English
 * subject control); "being" makes it passive ("before being cast in X" -> "... was cast in X."). A past main verb
 * only, so the participle's verb takes the past tense the sentence implies.
 */
import { IRREGULAR_PAST, PREPOSITIONS } from './lexicon.js';
import { plainClause } from './clause.js';
import { pastOfIng } from './verbs.js';
import { isLong } from './long.js';

const TEMPORAL = / (while|after|before) ([a-z]+ing) /;
// -ing words that are no verb after "after"/"before" ("after morning practice").
const NOT_VERB = /^(?:morning|evening|nothing|something|anything|everything|during|spring|king|wedding|ceiling|string|thing|bring|sing|ring|wing|sling)$/;

/** The claim without its temporal participle and the participle as the subject's own past fact; the claim alone otherwise. */
export function whileIngApart(claim: string, i = 0, all: readonly string[] = []): string[] {
  if (!claim.includes('ing ')) return [claim];
  const m = TEMPORAL.exec(claim);
  if (m === null || !isLong(claim) || m[1] === undefined || m[2] === undefined || NOT_VERB.test(m[2])) return [claim];
  const main = claim.slice(0, m.index).replace(/,$/, '');
  let rest = claim.slice(m.index + m[0].length).replace(/\.$/, '');
  // The main clause keeps when it happened, with the participle cut before its next phrase ("Clemente died tragically
  // on December 31, 1972, while attempting to deliver aid."): the annotators wrote that relation as a fact of its own.
  const linked = `${claim.slice(0, m.index)} ${m[1]} ${m[2]} ${headOf(rest)}`.trim();
  const clause = plainClause(`${main}.`);
  if (clause === null || clause.subject.length === 0 || clause.subject.length > 5) return [claim];
  const subject = clause.subject.map((t) => t.raw).join(' ');
  // A named or pronoun subject, a past main verb after its object: "retired from football in 2015 after playing".
  if (!/^(?:\p{Lu}[\p{L}\p{M}'’.-]*\s?)+$|^(?:He|She|They)$/u.test(subject)) return [claim];
  const verb = clause.verb.word;
  if (!/^(?:was|were|had|did)$|ed$/.test(verb) && !IRREGULAR_PAST.has(verb)) return [claim];
  if (clause.tokens.length < clause.verbIndex + 3) return [claim];
  let past: string;
  if (m[2] === 'being') {
    // "before being cast in X": the passive's participle follows.
    const participle = /^(\S+) (.+)$/.exec(rest);
    if (participle === null || participle[1] === undefined || participle[2] === undefined) return [claim];
    past = `${/^(?:they|we)$/i.test(subject) ? 'were' : 'was'} ${participle[1]}`;
    rest = participle[2];
  } else {
    past = pastOfIng(m[2]);
  }
  // The participle's own clause ends the claim: no second clause after it ("while ..., he ...").
  if (/,\s*(?:he|she|they|it|and|but)\b/i.test(rest)) return [claim];
  // Where the relation itself is long, the main clause and the participle's fact are two claims without it ("Hacker was
  // named the International League Pitcher of the Year." and "Hacker was playing for the Indianapolis Indians.", as the
  // annotators wrote them); where the main clause is long too, the claim stays whole.
  // "While" keeps its aspect ("Hacker was playing for ...", the annotators' words); "after having X" is no fact alone.
  if (isLong(linked)) {
    if (isLong(main) || m[2] === 'having' || all.slice(0, i).some((c) => c.startsWith(main))) return [claim];
    const during = m[1] === 'while' && m[2] !== 'being' ? `${/^(?:they|we)$/i.test(subject) ? 'were' : 'was'} ${m[2]}` : past;
    return [`${main}.`, `${subject} ${during} ${rest}.`];
  }
  // "Silva retired ... after playing for a variety of clubs in Brazil / in Greece / in England": the relation once.
  const said = all.slice(0, i).some((c) => c.startsWith(linked));
  return said ? [`${subject} ${past} ${rest}.`] : [`${linked.replace(/,$/, '')}.`, `${subject} ${past} ${rest}.`];
}

// The participle's words up to its first phrase ("to deliver aid" of "to deliver aid to earthquake victims in
// Nicaragua", "as a registrar" of "as a registrar at St Mary's Hospital"): a phrase that opens it is kept with its object.
function headOf(rest: string): string {
  const words = rest.split(' ');
  let e = PREPOSITIONS.has(words[0] ?? '') ? 1 : 0;
  while (e < words.length && !(PREPOSITIONS.has(words[e]!) && words[e] !== 'of') && !/,$/.test(words[e - 1] ?? '')) e++;
  return words.slice(0, e).join(' ');
}
