/**
 * "After the outbreak of World War II, Harrer was interned in a prisoner of war camp in India.": a long claim with a
 * fronted time or circumstance phrase says two things, what happened and when. The claim goes on without the phrase
 * ("Harrer was interned in a prisoner of war camp in India."), and the phrase becomes a fact with the verb and its
 * object ("Harrer was interned after the outbreak of World War II."), as FActScore's annotators wrote them ("He was
 * appointed Shadow Minister in 2013.", "He was interned after the outbreak of World War II.").
 */
import { analyzeClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES, DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

// Over this many words a claim is long (the study's measure); shorter ones keep their phrase, as annotators did.
// The fronted phrases that date or place an event. Not "As a member of ..." (a role), "With CSKA" (a team), "In
// addition to ..." (another fact), "Since then" (a reference back), "Today"/"As of ..." (a state, not an event).
export const LEAD = /^(?:in|after|before|during|following|throughout|from|upon|prior to|over|at the age of|by|between|apart from|aside from|besides|at the)\s/i;
export const NOT_LEAD = /^(?:in recognition|in (?:his|her|their) (?:role|capacity|position)|by then|from then on|over time|in this|in that|in the process)\b/i;
// Words that end the verb's object: another phrase, a clause or a list goes on.
const OBJECT_END = new Set([...PREPOSITIONS, 'to', 'and', 'or', 'but', 'which', 'who', 'whom', 'whose', 'where', 'when', 'while', 'as', 'that', 'because', 'due', 'such', 'including', 'then', 'after', 'before', 'during', 'since', 'until']);
OBJECT_END.delete('of');
// Past participles that end in neither -ed nor -en ("was cast in the lead role").
export const IRREGULAR = /^(?:cast|put|set|hit|made|won|held|told|sold|found|built|brought|bought|taught|thought|led|left|met|kept|sent|spent|shot|struck|sung|begun|become|done|gone|seen|heard|paid|laid|run|hung|dealt|meant|felt|lost|known|shown|grown|drawn|born)$/;

/** The claim without its fronted phrase and the verb with its object in that phrase; the claim alone otherwise. */
export function leadInApart(claim: string): string[] {
  if (!LEAD.test(claim) || NOT_LEAD.test(claim) || !isLong(claim)) return [claim];
  const clause = analyzeClause(claim);
  if (clause === null || clause.intro.length === 0 || clause.locative || clause.verb.fromRelative) return [claim];
  const { intro, subject } = clause;
  // "In addition to his radio work, ...", "Besides ...": another fact, kept with the verb and its object as a time is.
  // Its body must be a plain clause: a list or clause after a comma ("..., including ...") is split before this rule
  // runs only when no such phrase leads the claim.
  const another = /^(?:in addition to|apart from|aside from|besides)\s/i.test(claim);
  if (another && /,.*(?:,|\bsuch as\b|\bincluding\b)/.test(claim)) return [claim];
  // One fronted phrase and a short subject that names someone or something: "In March 2002, during Operation
  // Anaconda, Furlong ..." has two phrases; "the tragedy of ..." is no agent.
  if (subject.length === 0 || subject.length > 5 || subject.some((t) => /,$/.test(t.raw)) || !/^(?:[A-Z]|he$|she$|they$|it$)/.test(subject[0]!.raw)) return [claim];
  const toks = clause.tokens;
  const v = clause.verbIndex;
  let k = v + 1;
  while (k < toks.length && (AUXILIARIES.has(toks[k]!.word) || AUX_ADVERBS.has(toks[k]!.word) || /(?:ed|en)$/.test(toks[k]!.word) || IRREGULAR.test(toks[k]!.word))) k++;
  // "has since gone on to ...", "has won ...": after "have" the next word is the main verb's participle.
  if (/^(?:has|have|had)$/.test(toks[v]!.word) && toks.slice(v + 1, k).every((t) => AUX_ADVERBS.has(t.word)) && k < toks.length && !/^[A-Z0-9"“]/.test(toks[k]!.raw) && !DETERMINERS.has(toks[k]!.word) && !PREPOSITIONS.has(toks[k]!.word)) k++;
  // The object runs to the first word that opens another phrase or clause ("of" belongs to it); a verb with no
  // object takes its first phrase instead ("was inducted into the National Inventors Hall of Fame in 2007").
  const first = toks[k]?.word ?? '';
  // "to" opens a phrase before an article or a name ("was elected to the Kenyan parliament", "moved to Los Angeles"),
  // an infinitive otherwise ("was elected to succeed him").
  // A number after "to" is a phrase too ("was sentenced to six-and-a-half years in prison").
  const toPhrase = first === 'to' && (DETERMINERS.has(toks[k + 1]?.word ?? '') || /^[A-Z0-9]/.test(toks[k + 1]?.raw ?? '') || /^(?:two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)(?:-|$)/.test(toks[k + 1]?.word ?? ''));
  if (first === '' || (first === 'to' && !toPhrase) || first === 'on') return [claim];
  // After the verb: its object, or its first phrase ("as a clerk"); a clause or coordination ("hosted or starred",
  // "revealed that ...") leaves the claim whole.
  const phraseFirst = PREPOSITIONS.has(first) || first === 'as';
  if (OBJECT_END.has(first) && !phraseFirst) return [claim];
  let e = phraseFirst ? k + 1 : k;
  const cap = (j: number): boolean => /^["“]?[A-Z0-9]/.test(toks[j]?.raw ?? '');
  for (;;) {
    while (e < toks.length && !OBJECT_END.has(toks[e]!.word) && !/[,;:"”]$/.test(toks[e - 1]?.raw ?? '')) e++;
    // A name goes on across a preposition between capitals ("the Ig Nobel Prize for Art").
    if (e > k && e + 1 < toks.length && cap(e - 1) && cap(e + 1) && PREPOSITIONS.has(toks[e]!.word) && !/[,;:]$/.test(toks[e - 1]!.raw)) e += 2;
    else break;
  }
  // A list of names cut at its first comma ("the Department of Health, Education, and Welfare"): no object alone.
  if (e > k && /,$/.test(toks[e - 1]!.raw) && cap(e - 1) && cap(e)) return [claim];
  // Where the object stops inside a coordination ("romantic and sentimental cartoons"), before its own complement
  // ("the first woman to command ...", "a key role in ..."), or the verb is a bare copula, the split says nothing
  // true alone: the claim stays whole.
  const stop = toks[e]?.word ?? '';
  const last = toks[e - 1]!.word;
  if (e <= k + (phraseFirst ? 1 : 0) || /^(?:and|or|but)$/.test(stop) || /^(?:role|part|first|only|last)$/.test(last) || (stop === 'to' && (toks.slice(k, e).some((t) => /^(?:first|only|last|one|able|chance|opportunity)$/.test(t.word)) || ((another || /ing$/.test(last)) && !DETERMINERS.has(toks[e + 1]?.word ?? '') && !/^[A-Z0-9]/.test(toks[e + 1]?.raw ?? ''))))) return [claim];
  if (/^(?:it|there|this|that)$/.test(subject[0]!.word)) return [claim];
  // The phrase and the body as the claim spells them: the intro ends at the claim's first comma.
  const comma = claim.indexOf(',');
  if (comma < 0) return [claim];
  const phrase = claim.slice(0, comma);
  const rest = claim.slice(comma + 1).trim();
  const dated = datedFact(toks.slice(intro.length, e), phrase);
  // The dated fact must be short itself, or the split only moved the length.
  if (dated === null || isLong(dated)) return [claim];
  return [`${rest.charAt(0).toUpperCase()}${rest.slice(1)}`, dated];
}

// The verb with its object and the fronted phrase after them, or null where a quotation would be cut open.
function datedFact(toks: readonly { raw: string }[], phrase: string): string | null {
  const words = toks.map((t) => t.raw).join(' ').replace(/[,;:]$/, '').replace(/,(["”])$/, '$1');
  if ((words.match(/["“”]/g) ?? []).length % 2 === 1) return null;
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${phrase.charAt(0).toLowerCase()}${phrase.slice(1)}.`;
}
