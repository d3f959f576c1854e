/**
 * "Muranishi became one of the most prominent figures in the Japanese adult film industry, founding his own production
 * company.": a long claim that ends in a participle after a comma says two things the subject did or does. The tagger
 * reads some such participles as nouns ("founding/NOUN"), and an adverb before one ("often featuring", "famously
 * being") hides it from the clause parts (`clauses.ts`): the claim had stayed whole. The participle's fact is the
 * subject's (English subject control), in the main clause's tense ("Muranishi founded his own production company.",
 * "His work often deals with themes of cultural identity."), and the claim goes on without it.
 */
import { plainClause } from './clause.js';
import { IRREGULAR_PAST, PARTICIPLES } from './lexicon.js';
import { isLong } from './long.js';
import { verbLemma } from './nlp.js';
import { isPluralSubject, pastOfIng, thirdPerson } from './verbs.js';

// The claim, the comma (after a closing quote too: '"Tijuana Strip," perfecting ...'), an adverb, the -ing word, the rest.
const TAIL = /^(.+?),(["”]?) ((?:(?:often|also|later|eventually|famously|notably|most notably|frequently|subsequently|ultimately|thereby|thus|successfully|gradually|further|by)\s)?)([a-z]{2,}ing) (.+)\.$/;
// -ing words that are no verb of the subject's after a comma: prepositions and nouns.
const NOT_VERB = /^(?:including|during|following|according|regarding|concerning|excluding|depending|featuring|something|nothing|anything|everything|building|wedding|painting|meaning|beginning|evening|morning|ending|setting|training|funding|housing|clothing|spring|king|string|thing|bring|sing|ring|wing)$/;
const PRESENT_OF: Readonly<Record<string, string>> = { being: 'is', having: 'has' };

/** The claim without its closing participle, and the participle as the subject's fact; the claim alone otherwise. */
export function commaIngApart(claim: string): string[] {
  if (!isLong(claim) || !claim.includes('ing ')) return [claim];
  const m = TAIL.exec(claim);
  if (m === null || m[1] === undefined || m[3] === undefined || m[4] === undefined || m[5] === undefined) return [claim];
  // ", by contesting in the Lok Sabha elections": the means is what the subject did ("Reddy contested in ...").
  const [head, adverb, ing, rest] = [`${m[1]}${m[2] ?? ''}`, m[3] === 'by ' ? '' : m[3], m[4], m[5]];
  // "featuring" reads as a verb only after an adverb ("often featuring"); a bare one describes the noun before it.
  if ((NOT_VERB.test(ing) && !(ing === 'featuring' && adverb !== '')) || ing === 'having') return [claim];
  // Another clause or list goes on after it: the participle's own words may be a list's ("..., and ...").
  if (/,|\b(?:but|which|who|while|when)\b|\band (?:he|she|they|it|is|was|has|had|are|were)\b/.test(rest) || !/^(?:[a-z]|the |his |her |their |its |an? )/.test(rest)) return [claim];
  const clause = plainClause(`${head}.`);
  if (clause === null || clause.subject.length === 0 || clause.subject.length > 4) return [claim];
  // The subject names someone or something: a name, a pronoun, or a possessive's noun ("His works").
  const subject = clause.subject.map((t) => t.raw).join(' ');
  if (!/^(?:[A-Z][\p{L}\p{M}'’.-]*)(?: [\p{L}\p{M}'’.-]+){0,3}$/u.test(subject) || /^(?:It|This|That|There|These|Those)\b/.test(subject)) return [claim];
  // The main clause's tense: past after a past verb, present otherwise.
  const verb = clause.verb.word;
  // A perfect ("has competed in ..., most notably winning X in 2008") tells a past event too.
  const next = clause.tokens[clause.verbIndex + 1]?.word ?? '';
  const perfect = /^(?:has|have)$/.test(verb) && (/(?:ed|en)$/.test(next) || PARTICIPLES.has(next));
  const past = perfect || /^(?:was|were|had|did)$/.test(verb) || /ed$/.test(verb) || IRREGULAR_PAST.has(verb);
  const plural = isPluralSubject(clause.subject);
  const form = past ? (ing === 'being' ? (plural ? 'were' : 'was') : pastOfIng(ing)) : PRESENT_OF[ing] !== undefined ? (plural ? 'are' : PRESENT_OF[ing]!) : presentOf(verbLemma(ing), plural);
  if (form === null) return [claim];
  // An adverb goes after a form of "be" ("Silva was famously part of ..."), before another verb ("often featured").
  const fact = /^(?:is|are|was|were)$/.test(form) ? `${subject} ${form} ${adverb}${rest}.` : `${subject} ${adverb}${form} ${rest}.`;
  if (isLong(fact)) return [claim];
  return [`${head.replace(/,(["”])$/, '$1').replace(/,$/, '')}.`, fact];
}

// "dealing" -> "deals" (singular) / "deal" (plural), from wink's lemma.
function presentOf(base: string, plural: boolean): string | null {
  if (!/^[a-z]{2,}$/.test(base) || /ing$/.test(base)) return null;
  return plural ? base : thirdPerson(base);
}
