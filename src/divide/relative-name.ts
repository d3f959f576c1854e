/**
 * On claims over 15 words only: a "which" or "that" clause right after a quoted title or a name, which which-apart.ts
 * (a name, after a comma) and title-which.ts (a title, after a comma, with one of its verbs) leave in the claim, says
 * a fact of its own about the title, as FActScore's annotators wrote them:
 *  - 'Kirby was cast as Princess Margaret in the Netflix series "The Crown," which earned her critical acclaim ...'
 *    -> '... in the Netflix series "The Crown".' and "The Netflix series The Crown earned her critical acclaim ..."
 *    ("The Crown earned her critical acclaim.");
 *  - "... the rockabilly band The Living End which he formed in 1994 with schoolmate Scott Owen" (the object, no
 *    comma) -> "He formed The Living End in 1994 with schoolmate Scott Owen." ("Cheney and Scott Owen formed The
 *    Living End.");
 *  - "... the film "Pieces of a Woman," for which she received ... nominations" -> 'She received ... nominations for
 *    "Pieces of a Woman".';
 *  - "... including "That Girl in Yellow Boots," which she also starred in" (the one example after "including"; a
 *    preposition at the clause's end) -> 'She also starred in "That Girl in Yellow Boots".'.
 * Whole where the clause may be another's (each guard below says whose), or where the fact makes no question.
 */
import { isLong } from './long.js';
import { DETERMINERS, IRREGULAR_PAST, PREPOSITIONS, PRONOUNS } from './lexicon.js';
import { claimToQuestion } from './question.js';
import { capitalize } from './text.js';

// A quoted title, its comma inside or outside the quotes; or a run of capitalised words (with "of", "the" and the
// like inside, not "in" or "and": "for Chelsea in the Premier League which" is the league's), a colon after a word,
// a year after "of" ("the Philadelphia Convention of 1787").
const TITLE = String.raw`["“]([^"“”]+?),?["”]`;
const WORD = String.raw`(?:[a-z]{1,3}-)?[A-Z][\w'’.-]*:?`;
const NAME = String.raw`(${WORD}(?: (?:${WORD}|of|on|the|for|de|la|von|van|vs))*(?: of \d{4})?)`;
// After the title, a year it came out in ('"Everlasting Life" in 1998 which won her ...': a year wins nothing) or
// after the name a bracketed gloss ("Alfonso Architects Inc. (AAI), which"), both kept in the claim.
const RELATIVE = new RegExp(String.raw`^(.*?)(\S+ )(?:${TITLE}( in \d{4})?|${NAME}( \([^()]+\))?)(,?) (?:(for|in|with|from|by|during) )?(which|that) (.+?)\.?$`);
const NOT_BEFORE = /^(?:and|or|against|by|with|nor) $/;
const KIN = /^(?:His|Her|Their) (?:[a-z-]+ )?(?:father|mother|parents?|brother|sister|son|daughter|wife|husband|partner|uncle|aunt|grand[a-z]+|cousin|friend|teacher|coach|mentor|boss)\b/;
// An auxiliary after the clause's own verb, not after "and"/"but"/"or" ("which peaked at 8 and was nominated ..."): the
// main clause's verb.
const AFTER_CLAUSE = /^\S+ .*?(?<!\b(?:and|but|or|which|that|who|it|he|she|they))\s(?:is|was|are|were|has|had|have|will|would|did|does)\b/;
// An award in the claim: a subject clause after the title may be the award's event's.
const AWARD = /\b(?:won|wins|received|earned|awarded|nominated)\b/;
// A subject pronoun, the adverbs it may take, a verb (or two joined by "and") and the rest.
const PRONOUN = /^(he|she|they) ((?:also |later |then |first )?)(?!(?:is|was|were|are|has|had|have|would|will|could)\b)([a-z][\w-]*(?: and (?:also )?[a-z][\w-]*)?)\b(.*)$/;
const PREP = '(?:in|on|at|for|with|to|of|about|from)';
// Words SUBJECT_VERB's "-s" would take for a verb ("that his father died", "that this album ...", "that as a child"),
// and the auxiliaries a name's clause does not open on (a place's "which was then ...").
const NOT_VERB = /^(?:is|was|are|were|has|had|does|did|his|this|its|as|us|thus|hers|ours|theirs|yours|perhaps|always|sometimes)\b/;
// "told the journalist Mark Smith that ...": after a verb of saying, "that" opens what was said.
const SAYING = /\b(?:told|tells|said|says|claimed|claims|announced|revealed|stated|wrote|writes|reported|argued|explained|noted|admitted|confirmed|insisted|informed|assured|reminded|convinced|warned|believed|thought|felt|knew|learned|showed|proved)\b/;
const QUOTING = /^(?:said|says|told|tells|stated|declared|added|remarked|replied|tweeted|exclaimed|quipped|words|phrase|line|quote|quotation|slogan|saying|message|statement|remark) $/;
// A finite verb that opens a subject relative ("which earned", "that brought", "which features").
const SUBJECT_VERB = /^(?:[a-z]+(?:s|ed)|became|won|led|made|held|ran|grew|went|began|gave|took|brought|wrote|drew|saw|sold|told) /;

/** The claim up to its title or name, and the relative clause as a fact of the title; the claim alone otherwise. */
export function relativeNameApart(claim: string): string[] {
  if (!isLong(claim) || !/ (?:which|that) /.test(claim)) return [claim];
  const m = RELATIVE.exec(claim);
  if (m === null) return [claim];
  const [, head = '', before = '', quoted, year = '', name, gloss = '', comma = '', prep, relative = '', rest = ''] = m;
  const bare = quoted ?? name ?? '';
  // One of several examples ("such as Tru Calling and Dollhouse, for which ...") may share the clause with the others;
  // the one example right after "including" or "such as" owns it ("several action films, including Black Panther,
  // for which he received ..."), as a clause about the category would stand before the example.
  const example = /\b(?:including|such as)\b/.test(head);
  if (head.trim() === '' || NOT_BEFORE.test(before) || (example && !/^(?:including|as) $/.test(before)) || /\b(?:including|such as)\b.*\b(?:including|such as)\b/.test(`${head}${before}`)) return [claim];
  // A quotation, not a title: right after a verb of saying or its noun ('he said "I have never played better ...,"
  // which surprised ...'; "wrote" takes titles too), lower-case ('wrote "the world is a stage ...," which became
  // ...'), or a sentence ("I have never ...": a title's words are capitalised, "I Will Always Love You").
  if (quoted !== undefined && (QUOTING.test(before) || /^(?:[a-z]|(?:I|We|You|It's|There) [a-z])/.test(quoted))) return [claim];
  // A capitalised word after a comma ("near Concord, Massachusetts, which"): a place's, and "which" may be the event's.
  if (quoted === undefined && /,$/.test(before.trim()) && /^[A-Z]/.test(before)) return [claim];
  // A name after a preposition that follows a capitalised word may start before it ("the Nobel Prize in Physics which
  // he shared ..." is the prize's); a title after a title is a list's item ('"Bad," "Dangerous," which sold ...').
  // So may one after "and the" ("The Old Man and the Sea, which won ..." is the novel's).
  if ((/^[a-z]+ $/.test(before) && PREPOSITIONS.has(before.trim()) && /[A-Z][\w'’.-]* $/.test(head)) || /["”],? $/.test(before) || (before === 'the ' && /\b(?:and|or|&) $/.test(head))) return [claim];
  // After a noun's preposition the clause may be the noun's ("the first album by Oasis that sold ...", "a friendly
  // against Brazil which ended ..."); after a verb's it is the name's ("studied at the University of Oxford which he
  // left ...").
  const lead = /(\S+) (\S+) (?:the |an? )?$/.exec(`${head}${before}`);
  if (lead !== null && PREPOSITIONS.has(lead[2]!) && !isVerbLike(lead[1]!)) return [claim];
  // A name's "the" goes with it where the name is the object ("He left the University of Oxford ...").
  const title = quoted === undefined ? `${before === 'the ' ? 'the ' : ''}${bare}` : `"${bare}"`;
  const main = `${head}${before === 'the ' && quoted === undefined ? '' : before}${title}${year}${gloss}`.replace(/\.?$/, '.');
  // "His father was a member of the Communist Party which he left ...": the clause's "he" may be the father, where a
  // fact's "he" is read as the answer's person.
  const p = KIN.test(head) ? null : PRONOUN.exec(rest);
  const facts: string[] = [];
  if (prep !== undefined) {
    // "for which she received X" -> "She received X for Title."; "that" takes no preposition.
    if (p === null || relative === 'that' || prep === 'during') return [claim];
    facts.push(`${capitalize(p[1]!)} ${p[2]}${p[3]}${p[4]} ${prep} ${title}.`);
  } else if (p !== null && relative === 'which') {
    const verbs = p[3]!.split(/ and (?:also )?/);
    const tail = p[4]!;
    // "which she starred in alongside X": a stranded preposition with more after it leaves the object's place unknown.
    if (new RegExp(String.raw`^ ${PREP} (?:${PREP}|alongside|during|until|since|between|as|and|after|before|when|while|again|later|once|twice)\b`).test(tail) || verbs.length > 2) return [claim];
    // "which he helped to found in 1957": an infinitive, not a place for the object ("He helped X to found ...").
    if (/^ to ([a-z]+)\b/.test(tail) && !DETERMINERS.has(/^ to ([a-z]+)/.exec(tail)![1]!)) return [claim];
    // "which he formed in 1994 with X" -> "He formed Title in 1994 with X."; "which she also starred in" -> "She also
    // starred in Title."; "which he wrote and starred in" -> "He wrote Title." and "He starred in Title.".
    const stranded = new RegExp(String.raw`^ ${PREP}$`).test(tail);
    const at = (verb: string, adverb: string, after: string): string => `${capitalize(p[1]!)} ${adverb}${verb}${stranded ? `${tail} ${title}` : ` ${title}${after}`}.`;
    if (verbs.length === 1) facts.push(at(verbs[0]!, p[2]!, tail));
    else if (tail === '' || stranded) facts.push(`${capitalize(p[1]!)} ${p[2]}${verbs[0]} ${title}.`, at(verbs[1]!, '', ''));
  } else if (AWARD.test(head)) {
    // 'She won an Emmy for her performance in "Olive Kitteridge," which made her ...': the win may be what did it.
    return [claim];
  } else if (quoted === undefined && comma !== '') {
    // "while surfing in Hawaii, which forced him to ...", "aired on Netflix, which earned him ...": after a name's
    // comma a subject clause may be the whole event's (which-apart.ts reads the names' own).
    return [claim];
  } else if ((SUBJECT_VERB.test(rest) && !NOT_VERB.test(rest) && !(relative === 'that' && SAYING.test(head)))
    || (quoted !== undefined && relative === 'which' && /^(?:is|was|are|were|has|had) /.test(rest))) {
    // A title's "which was ..." as title-which.ts reads it; a name's only with another verb (see NOT_VERB).
    facts.push(`${subjectOf(`${head}${before}`, quoted === undefined ? title : bare)} ${rest}.`);
  }
  // "the company Microsoft that dominated the market had stifled ...": a clause inside the subject ends before the
  // main verb, which follows it; the claim up to the name must have a verb of its own.
  if (AFTER_CLAUSE.test(rest) || claimToQuestion(main) === null) return [claim];
  if (facts.length === 0 || facts.some((f) => f === '' || /\b(?:which|who|whom|that)\b/.test(f.replace(bare, '')) || claimToQuestion(f) === null)) return [claim];
  return [main, ...facts];
}

// A title's kind before it ("the music video", "her major-label debut album", "the Netflix series"): its words back to
// the determiner or possessive that opens it.
const KIND = /(?:^|\s)(the|a|an|his|her|its|their) ((?:[\w-]+ ){1,4})$/;

/**
 * A subject clause's subject: the title with its kind where one goes before it ('the music video "Pardesiya ..."
 * which brought her ...' -> "The music video Pardesiya ... brought her ...", as the annotators wrote "The music video
 * brought her ..."), the title alone otherwise.
 */
function subjectOf(before: string, title: string): string {
  // 'His most recent book is "China vs America: A Warning," which discusses ...': the claim's subject is the kind.
  const named = /^((?:His|Her|Their|Its) (?:[\w-]+ ){0,3}[\w-]+) (?:is|was) $/.exec(before);
  if (named !== null) return named[1]!;
  const m = KIND.exec(before);
  const kind = m?.[2]?.trim();
  // Nouns and their adjectives only ("the match he famously said" is no kind).
  const notKind = (w: string): boolean => PREPOSITIONS.has(w) || DETERMINERS.has(w) || PRONOUNS.has(w) || SAYING.test(w) || /^(?:is|was|are|were|became|called|named|titled)$/.test(w);
  if (kind === undefined || kind.split(' ').some(notKind)) return capitalize(title);
  return `${/^(?:his|her|its|their)$/.test(m![1]!) ? capitalize(m![1]!) : 'The'} ${kind} ${title}`;
}

/** A verb before a preposition ("studied at", "was cast as", "starred in"), not a noun ("album by", "member of"). */
export function isVerbLike(w: string): boolean {
  return /(?:ed|ing)$/.test(w) || IRREGULAR_PAST.has(w) || /^(?:is|was|are|were|be|been)$/.test(w);
}
