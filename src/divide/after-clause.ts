/**
 * "Daniel later debuted as a solo artist after the group disbanded.", "Joyce won the fight after Dubois was unable to
 * continue in the tenth round due to swelling around his left eye.": a long claim whose event is timed by another
 * clause says two things, each a fact of its own as FActScore's annotators wrote them ("Daniel debuted as a solo
 * artist.", "The group disbanded."). The claim goes on without the "after"/"before" clause, which becomes a claim.
 */
import { plainClause } from './clause.js';
import { AUXILIARIES, BE_FORMS } from './lexicon.js';
import { isLong, spaceWords } from './long.js';

// The clause's subject opens right after the word: an article, a possessive, a pronoun or a name.
const TIMED = / (after|before|when) (?=(?:the|his|her|their|its|a|an|he|she|they|[A-Z][\w'’.-]*) )/g;
// "during an era when ...", "the year when ...": a "when" after a time noun is that noun's relative, no event's time.
const TIME_NOUN = /\b(?:era|time|times|period|day|days|year|years|age|moment|point|decade|season)$/;
// Another person in the claim before the clause: a pronoun after it may be theirs ("ran campaigns with her husband
// before he died"), and the answer's pronouns are all read as its subject's (pronouns.ts).
const OTHER_PERSON = /\b(?:husband|wife|father|mother|son|daughter|brother|sister|parents?|partner|friend|coach|teacher|family|children|wife's|husband's)\b/;

/** The claim without its "after"/"before" clause, and the clause; the claim alone where that says too little. */
export function afterClauseApart(claim: string): string[] {
  if (!isLong(claim) || !/ (?:after|before|when) /.test(claim)) return [claim];
  for (const m of claim.matchAll(TIMED)) {
    const left = claim.slice(0, m.index);
    const right = claim.slice(m.index + m[0].length).replace(/\.$/, '');
    // "only held these positions before ...": the clause bounds the claim, which alone says something else.
    if (spaceWords(left) < 4 || spaceWords(right) < 4 || /\b(?:only|just|shortly|soon|long|years|months|days|weeks|immediately)$/.test(left) || /\b(?:only|first|last)\b/.test(left)) continue;
    // A comma only before a name goes on ("crashed into Mount Takamagahara Ueno, Gunma Prefecture").
    // ", when the crowds are smaller": a clause after a comma is the clause parts' (clauses.ts), not this step's.
    if (/[;:"“”(]|,(?! [A-Z])/.test(right) || /,$/.test(left)) continue;
    const when = m[1] === 'when';
    const lc = plainClause(left);
    if (lc === null || (when && TIME_NOUN.test(left))) continue;
    // "began when ...", "came when ...": a main verb with nothing after it says nothing without the clause.
    if (when && lc.tokens.length - lc.verbIndex < 3) continue;
    const rc = plainClause(right);
    if (rc === null || rc.verbIndex === 0 || rc.verbIndex > 5 || rc.subject.some((t) => t.word === 'and' || t.word === 'who' || t.word === 'which')) continue;
    const verbs = rc.tokens.slice(rc.verbIndex).filter((t, k) => k === 0 || AUXILIARIES.has(t.word) || BE_FORMS.has(t.word));
    // "before he was born", "after he had been appointed": a pronoun's verb group with nothing after it says only when;
    // a named subject's says what ("The party was defeated.").
    const after = rc.tokens.length - rc.verbIndex - verbs.length;
    const pronoun = /^(?:he|she|they)$/.test(rc.subject[0]?.word ?? '');
    if (after < (pronoun ? 2 : 1) || rc.tokens.some((t) => t.word === 'born')) continue;
    // "when he was five years old", "when he was already married": a state says when, not what happened.
    const v = rc.tokens[rc.verbIndex]!.word;
    const next = rc.tokens[rc.verbIndex + 1]?.word ?? '';
    if (when && BE_FORMS.has(v) && !/(?:ed|en)$/.test(next)) continue;
    if (pronoun && (OTHER_PERSON.test(left) || /\s[A-Z]\w+\s.*\s[A-Z]\w+/.test(left.slice(left.indexOf(' '))))) continue;
    // "... until 1960 when the party was defeated": the clause happened in the year before it.
    const year = when ? /\b(?:in|until|by) ((?:1[5-9]|20)\d\d)$/.exec(left)?.[1] : undefined;
    const timed = year === undefined || /\b(?:1[5-9]|20)\d\d\b/.test(right) ? right : `${right} in ${year}`;
    return [`${left}.`, `${timed.charAt(0).toUpperCase()}${timed.slice(1)}.`];
  }
  return [claim];
}
