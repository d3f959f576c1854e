/** The built-in English rules divider: answer -> atomic claims -> yes/no questions, with no model. */
import { flatMapOf, through } from './arrays.js';
import { asRolesApart, asWellAsApart, bothApart, possessivesApart, yearsApart } from './as-well-as.js';
import { eventsApart, listedSubjectApart } from './example-items.js';
import { rolesAsListApart } from './role-as.js';
import { plainExamples } from './plain-examples.js';
import { timedSplit } from './time-np.js';
import { ofWhichApart } from './of-which.js';
import { setAndVerbs } from './and-verb.js';
import { includingAsApart, officeTitles } from './including-as.js';
import { analyzeClause, clearClauseMemo, stripDiscourseMarkers } from './clause.js';
import { clauseParts, type Part } from './clauses.js';
import { isPlainPart } from './clause-draft.js';
import { completeFromQuestion } from './context.js';
import { contentSkipReason, isFragment, isOrder, isPlaceOnly, opensWithOrder, sentenceSkipReason } from './filters.js';
import { setVerbHints } from './lexicon.js';
import { andInLastItem, isPluralPhrase } from './list.js';
import { HEDGE_WORDS, inGuess } from './hedge-scope.js';
import { exampleKind, namingFacts } from './naming.js';
import { namePronouns } from './pronouns.js';
import { knownApart } from './roles.js';
import { claimToQuestion, setNameHints } from './question.js';
import { namingQuestionOf } from './naming-question.js';
import { salvagePart } from './salvage.js';
import { standsBeforeHedge, withoutHedgedAppositions } from './hedged-apposition.js';
import { subjectParticipleApart } from './subject-participle.js';
import { akaApart } from './aka-apart.js';
import { dropRepeatedNames, nameHints } from './answer-names.js';
import { segmentSentences, type Sentence } from './segment.js';
import { WORKS } from './titles.js';
import { cleanWord, normalizeText, stripTrailingPunct } from './text.js';
import type { DividedClaim } from './divided.js';
import { backOnMain, frontedOn } from './fronted-when.js';
import { kindNamed } from './kind-named.js';
import { claimsOfPiece } from './claim-steps.js';

/** Claim -> yes/no question, re-exported so callers need only this module. */
export { claimToQuestion } from './question.js';
/** Text -> sentences, re-exported so callers need only this module. */
export { splitSentences } from './sentences.js';

export type { DividedClaim } from './divided.js';

/** Claims in answer order, and the sentences (or parts of sentences) that yielded none, with the reason. */
export interface DivideResult {
  claims: DividedClaim[];
  skipped: { sentence: string; reason: string }[];
}

// Verbless noun phrases led by these ("A red circle.", "Two dogs and a cat.") assert existence.
const EXISTENTIAL_LEADS = new Set([
  'a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'some', 'several',
  'many', 'multiple', 'various', 'numerous', 'no',
]);

// Make a verbless sentence into a statement, from the instruction or as existence; null if neither fits.
function completeVerbless(sentence: string, question: string | undefined): string | null {
  if (question !== undefined) {
    const completed = completeFromQuestion(sentence, question);
    if (completed !== null) return completed;
  }
  if (isFragment(sentence)) return null;
  const np = stripTrailingPunct(stripDiscourseMarkers(normalizeText(sentence)));
  const words = np.split(/\s+/).map(cleanWord);
  if (!EXISTENTIAL_LEADS.has(words[0] ?? '')) return null;
  return `There ${isPluralPhrase(words) ? 'are' : 'is'} ${np.charAt(0).toLowerCase()}${np.slice(1)}.`;
}

type Pair = { claim: string; question: string };
const CITATIONS = /\s*\[\d+\]/g;
const YEAR_BRACKETS = /\s*\([^()]{0,40}\b(?:1[5-9]|20)\d\d\b[^()]{0,40}\)/g;

// "He has appeared in films such as A, B and C" -> "He has appeared in films", "... in films such as A", ...: each
// example is a fact of its own, as the annotators wrote them. Only after a preposition, where an example can
// take the category noun's place.
const EXAMPLES = /^(.*\b(?:in|on|at|for|with|of|by|from|to|into|beside|alongside|against|among)\s+)((?:[\w'’-]+\s+){0,4}?[\w'’-]+),?\s+(such as|including|like)\s+(.+?)\.?$/i;

// "Varma has directed several successful films, including Rangeela (1995) and Satya (1998)": after a verb, a
// counted category's examples are objects of their own ("Varma has directed Rangeela."; the year is a naming fact).
const COUNTED_EXAMPLES = /^(.*?\s)((?:several|many|numerous|various|multiple|two|three|four|five|a number of|(?:over|more than|nearly|about)\s+\d+)\s+(?:[\w'’-]+\s+){0,3}[\w'’-]+(?:\s+(?:for|in|from|on|at|throughout|around|across|within|over|during)\s+(?:(?!\s(?:has|have|had|is|was|were)\s|\sand\s+(?:has|have|had|is|was|were|also|later|[a-z]+ed)\s)[^,]){1,80}?|\s+(?:on|of|about)\s+(?:[a-z][\w'’-]*,?\s+){1,8}and\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)?)?),?\s+(such as|including)\s+(.+?)\.?$/i;
// Words EXAMPLES and COUNTED_EXAMPLES cannot match without (as cheap tests before them).
const EXAMPLE_WORDS = /such as|including|like/i;
const SENSE_VERB = /\b(?:looks?|looked|seems?|seemed|sounds?|feels?|smells?|tastes?)$/i;
const COUNTED_WORDS = /such as|including/i;
// ", and television shows such as ...": a second category with its own examples.
const SECOND_LIST = /,?\s+and\s+((?:[a-z][\w'’-]*\s+){0,3}[a-z][\w'’-]*)\s+(?:such as|including|like)\s+/;

// The items of a list: "A, B and C"; a number after a comma stays with its name ("Beverly Hills, 90210").
function listItems(list: string, most = 8): string[] | null {
  const items: string[] = [];
  // '"Good Day," "You & I," and "Love Poem."': the comma or period inside a closing quote belongs to the list.
  const quoted = list.replace(/([,.])(["”])(?=\s|$)/g, '$2$1');
  // "and" or a comma inside a quoted title ("Sin and Punishment") does not split it.
  const text = andInLastItem(quoted.replace(/"[^"]*"/g, (q) => q.replace(/,/g, '\u0001').replace(/ and /g, ' \u0002 ')));
  for (const raw of text.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).filter((y) => /[A-Za-z0-9]/.test(y))) {
    const x = raw.replace(/\u0001/g, ',').replace(/\u0002/g, 'and');
    if (/^\d+$/.test(x) && items.length > 0) items[items.length - 1] += `, ${x}`;
    else items.push(x);
  }
  // ", which propelled ...", ", in 1982 for her novel": the clause goes on; these are not items of a list.
  // In a list of quoted titles only, a title is one item however long ("The Dub Album They Didn't Want You to Hear");
  // not beside an apposition (', "Behind the Ranges: ...", a biography of ...').
  const titles = items.every((x) => /^["“][^"“”]+["”]$/.test(x));
  const notItem = (x: string): boolean => (x.split(/\s+/).length > most && !titles) || /^(?:which|who|that|where|when|in|on|at|for|from|with|by|to|as)\b/i.test(x);
  return items.length === 0 || items.some(notItem) ? null : items;
}

function withExamples(text: string): string[] {
  // A counted category after a verb first: "received numerous awards for his work, including the Gold Medal" is
  // "received the Gold Medal", not "... for the Gold Medal".
  const counted = countedExamples(text) ?? plainExamples(text, listItems);
  if (counted !== null) return counted;
  // Without its key words EXAMPLES cannot match: skip its backtracking ".*" (most statements).
  const m = EXAMPLE_WORDS.test(text) ? EXAMPLES.exec(text) : null;
  // "The dishes in the image look like ramen noodles": a comparison after a verb of sense, not examples of a category.
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined || (m[3].toLowerCase() === 'like' && SENSE_VERB.test(m[2]))) return withTitles(text);
  // "surrounded by various plants, including flowers, and is located near a sidewalk": a predicate of the subject's.
  const pred = /,\s+and\s+(?:is|are|was|were|has|have|had)\s/.exec(m[4]);
  const subject = pred ? /^(.+?)\s(?:is|are|was|were|has|have|had)\s/.exec(m[1])?.[1] : undefined;
  const second = subject === undefined ? SECOND_LIST.exec(m[4]) : pred;
  const rest = second ? (subject === undefined ? withExamples(`${m[1]}${m[4].slice(second.index).replace(/^,?\s+and\s+/, '')}`) : [`${subject} ${m[4].slice(second.index).replace(/^,?\s+and\s+/, '')}.`]) : [];
  const items = listItems(second ? m[4].slice(0, second.index) : m[4]);
  if (items === null) return [text];
  // "influenced by the minimalist sculptors of the 1960s, including Carl Andre": the examples are of the sculptors,
  // not of the decade ("influenced by Carl Andre.", "Carl Andre is a minimalist sculptor."; time-np.ts).
  const [pre, category] = timedSplit(`${m[1]}${m[2]}`) ?? [m[1], m[2]];
  // A named example takes the category's place ("has appeared in The Big Easy."), as the annotators wrote it: what
  // it is comes apart from the naming facts ("The Big Easy is a film."). Others keep the category, which says it.
  // "festivals such as the Toronto International Film Festival": a name with its article too (exampleKind checks it),
  // not after two categories ("honors for his many expeditions and explorations including the Gold Humboldt Medal").
  const named = (x: string): boolean => (/^["“'‘]?[A-Z0-9]/.test(x) || (/^the [A-Z0-9]/.test(x) && !/ and /.test(category))) && exampleKind(category, x) !== null;
  // "appeared in a number of feature films, including X": X takes the place of "a number of feature films".
  const lead = pre.replace(/\b(?:an?\s+)?(?:number|variety|range|host|series|couple|lot|few|dozens|hundreds|one|some|several|many|most|all|string|pair|handful|slew|array|multitude|plethora)\s+of\s+$/i, '');
  // A title with "and" inside ("Tom and Huck", kept whole by the list) in quotes, so the conjunction split keeps it.
  const whole = (x: string): string => (/ and /.test(x) && !/^["“]/.test(x) ? `"${x}"` : x);
  return [`${m[1]}${m[2]}.`, ...items.map((x) => (named(x) ? `${lead}${whole(x)}.` : `${m[1]}${m[2]} ${m[3]} ${x}.`)), ...rest];
}

// Long examples ("the Grand Prize at the 2013 Korea Drama Awards for his performance in ..."): apart only where a new
// noun phrase starts, so "for his contributions to literature and journalism" stays one.
function longItems(list: string): string[] | null {
  const items = list.split(/,?\s+and\s+(?=(?:the|an?|his|her|their)\s)|,\s+(?=(?:the|an?|his|her|their)\s)/);
  return items.some((x) => x.split(/\s+/).length > 20 || x.includes(',') || /^(?:which|who|that|where|when|in|on|at|for|from|with|by|to|as)\b/i.test(x)) ? null : items;
}

const POSTS = /\b(?:positions|posts)\b/i;

function countedExamples(text: string): string[] | null {
  const m = COUNTED_WORDS.test(text) ? COUNTED_EXAMPLES.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[4] === undefined) return null;
  // ", and has been a finalist for X": the sentence goes on with a predicate of the subject, not another example.
  const more = /,?\s+and\s+(?:has|have|had|is|was|are|were)\s/.exec(m[4]);
  const subject = more ? /^(.+?)\s(?:has|have|had|is|was|are|were|\w+ed)\s/.exec(m[1])?.[1] : undefined;
  const list = more && subject !== undefined ? m[4].slice(0, more.index) : m[4];
  // "held several cabinet positions including Minister of International Trade and Industry and Minister of Finance":
  // titles apart at the "and" an office's word follows, not inside "Trade and Industry".
  if (/^being\s/.test(list)) return eventsApart(m[1], m[2], list, text);
  const offices = POSTS.test(m[2]) ? officeTitles(list) : null;
  if (offices?.length === 0) return null;
  const items = offices ?? listItems(list, 12) ?? longItems(list);
  // A verb before the category: a perfect or a past, or a modal's ("can also play several instruments such as ...").
  if (items === null || !/\b(?:has|have|had|was|were)\b|\b(?:\w+ed|held)\s*$|\b(?:can|could|will|would)\s+(?:also\s+)?[a-z]+\s*$/i.test(m[1])) return null;
  const rest = more && subject !== undefined ? [`${subject} ${m[4].slice(more.index).replace(/^,?\s+and\s+/, '')}.`] : [];
  // "held numerous positions, including Deputy Director of X": a bare title is held as a position.
  const post = (x: string): string => (POSTS.test(m[2]!) && /\b(?:held|occupied)\s$/.test(m[1]!) && /^[A-Z]/.test(x) ? `the position of ${x}` : x);
  return [`${m[1]}${m[2]}.`, ...items.map((x) => `${m[1]}${post(x)}.`), ...rest];
}

// "Kerser has since released two further albums, King (2013) and Engage The Force (2015)", "Shue also starred in the
// films The Wedding Singer (1998) and Gracie (2007)": titles listed right after their category are each an object
// of the verb ("Kerser has since released King (2013)."); a counted category is a fact of its own too.
const TITLED = /^(.*?(?:\b(?:in|on|of|for|at|from|with)|ed|en|wrote|made|won|sang|did|has|have|had|includes?|include[sd]?)\s)((the|his|her|their|(?:two|three|four|five|six|seven|eight|nine|ten|several|many|numerous|various|multiple|\d+)(?:\s+(?:further|more|other|new))?)\s+(?:[a-z][\w'’-]*\s+){0,3}?([a-z][\w'’-]*s)),?\s+(["“'‘]?[A-Z0-9].+?)\.?$/;

function withTitles(text: string): string[] {
  const m = TITLED.exec(text);
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined || m[5] === undefined || !WORKS.test(m[4])) return [text];
  const items = listItems(m[5]);
  if (items === null || items.length < 2 || !items.every((x) => /^["“'‘]?[A-Z0-9]/.test(x))) return [text];
  const counted = !/^(?:the|his|her|their)$/i.test(m[3]);
  // "best known for her albums A and B" -> "... for her album A.", as the annotators wrote it ("the films A and B"
  // gives "starred in A." and the naming fact "A is a film."); a counted category says it in a claim of its own.
  const one = counted || m[3].toLowerCase() === 'the' ? '' : `${/series$/.test(m[2]) ? m[2] : m[2].replace(/ies$/, 'y').replace(/(ch|sh|ss|x)es$/, '$1').replace(/s$/, '')} `;
  return [...(counted ? [`${m[1]}${m[2]}.`] : []), ...items.map((x) => `${m[1]}${one}${x}.`)];
}

// One statement's claims and questions, or the reason it gives none.
function claimsOf(raw: string, question: string | undefined): { pairs: Pair[]; reasons: string[] } {
  // A year in brackets ("A Bronx Tale (1993)", "Wong (1905–1961)") is a fact of its own (naming.ts), not of the
  // claim, and a number before the verb would hide it ("Laden (1957 - 2011) was"). Citation marks ("The Recruit
  // (2003)[3][4]") point at sources the labeler cannot see.
  let text = raw.includes('(') ? raw.replace(YEAR_BRACKETS, '') : raw;
  if (text.includes('[')) text = text.replace(CITATIONS, '');
  // "Although she is a French citizen, ...": a concession states its clause ("Is although she a French citizen?").
  text = text.replace(/^(?:although|though|even though|whereas) /i, '');
  // 'her album "Lost and Found."': the sentence's period inside a closing quote is no title's; it goes after the quote
  // ('... "Lost and Found".', asked '... "Lost and Found"?'), where a claim's own period would have doubled it.
  if (/[^.]\.["”]\.?$/.test(text)) text = text.replace(/([^.])\.(["”])\.?$/, '$1$2.');
  const apart = text.includes(' of which ') ? ofWhichApart(text) : null;
  if (apart !== null) return apart.map((x) => claimsOf(x, question)).reduce((a, b) => ({ pairs: [...a.pairs, ...b.pairs], reasons: [...a.reasons, ...b.reasons] }));
  if (isPlaceOnly(text)) return { pairs: [], reasons: ['fragment'] };
  let statement = text;
  const listed = listedSubjectApart(text, listItems);
  if (listed !== null) return pairsOf(listed);
  const clause = analyzeClause(text);
  if (clause === null || clause.verb.fromRelative) {
    const completed = completeVerbless(text, question);
    if (completed === null) return { pairs: [], reasons: [isFragment(text) ? 'fragment' : isOrder(text) ? 'instruction or advice' : 'no finite verb'] };
    statement = completed;
  }
  // An example's copy of the clause repeats the other conjuncts of the split; those are dropped. Repeats within one
  // piece stay: "There is a green star and a green star." is two stars.
  const pieces = through(includingAsApart(statement), akaApart, asWellAsApart, knownApart, rolesAsListApart, withExamples, possessivesApart, bothApart, yearsApart, asRolesApart).map(claimsOfPiece);
  const repeats = (claim: string, k: number): boolean => pieces.slice(0, k).some((p) => p.includes(claim));
  return pairsOf(flatMapOf(pieces, (p, k) => p.filter((c) => !repeats(c, k))));
}

const DANGLING_END = /\s(?:a|an|the|(?:seen|saw) (?:her|him|them))\.$/;

// Claims with their questions, and a reason for each claim no question could be formed from.
function pairsOf(claims: readonly string[]): { pairs: Pair[]; reasons: string[] } {
  const pairs: Pair[] = [];
  const reasons: string[] = [];
  for (const claim of claims) {
    // "Shortly afterward he obtained a ...", "Her acting career has seen her nominated ...": a claim cut after an
    // article, or after "seen her" whose participle went to a claim of its own, says nothing alone.
    if (DANGLING_END.test(claim)) {
      reasons.push('fragment');
      continue;
    }
    const q = claimToQuestion(claim);
    if (q === null) reasons.push(`no question could be formed from "${claim}"`);
    else pairs.push({ claim, question: q });
  }
  return { pairs, reasons };
}

// Dropped for what they add (a guess, a judgement, a comment), not for what they are about: their concrete
// noun phrases still name things in the picture. World knowledge and narration are about something else.
const SALVAGEABLE = new Set(['opinion or hedge', 'subjective', 'comment on the scene']);

// "The book is on the desk, possibly indicating that ...": the clause before the comma that precedes the hedge is
// a fact of its own; keep it and drop only the rest. False when there is no such clause.
function keepBeforeHedge(s: Sentence, part: Part, answer: string, question: string | undefined, out: DivideResult,
  dropped: { sentence: string; reason: string }[]): boolean {
  const toks = s.tokens.filter((t) => t.start >= part.start && t.end <= part.end);
  const hedge = toks.findIndex((t) => HEDGE_WORDS.test(t.lower));
  let comma = -1;
  for (let k = 0; k < hedge; k++) if (toks[k]!.text === ',') comma = k;
  if (hedge <= 0 || comma <= 0 || !isPlainPart(part, answer)) return false;
  if (!standsBeforeHedge(toks, comma)) return false;
  const left = toks.slice(0, comma);
  const text = answer.slice(left[0]!.start, left[left.length - 1]!.end);
  if (contentSkipReason(text).reason !== null) return false;
  const { pairs } = claimsOf(text, question);
  if (pairs.length === 0) return false;
  for (const p of pairs) out.claims.push({ sentence: s.text, ...p, start: left[0]!.start, end: left[left.length - 1]!.end });
  dropped.push({ sentence: answer.slice(toks[comma + 1]!.start, part.end), reason: 'opinion or hedge' });
  return true;
}

// What the names of a kept sentence are ("Madrid is in Spain."), unless a claim already says it.
function addNamingFacts(s: Sentence, out: DivideResult, from: number): void {
  const found = namingFacts(s.tokens);
  // A long claim names a work the naming facts describe by its name alone (kind-named.ts).
  const kinds = found.map((f) => f.claim);
  for (let k = from; k < out.claims.length && kinds.length > 0; k++) {
    const c = out.claims[k]!;
    const claim = kindNamed(c.claim, kinds);
    const q = claim === c.claim ? null : claimToQuestion(claim);
    if (q !== null) out.claims[k] = { ...c, claim, question: q };
  }
  const have = new Set(out.claims.slice(from).map((c) => c.claim));
  for (const fact of found) {
    const f = fact.claim.includes('[') ? { ...fact, claim: fact.claim.replace(CITATIONS, '') } : fact;
    const q = have.has(f.claim) ? null : namingQuestionOf(f.claim);
    if (q !== null) out.claims.push({ sentence: s.text, claim: f.claim, question: q, start: f.start, end: f.end });
    have.add(f.claim);
  }
}

function divideSentence(s: Sentence, answer: string, question: string | undefined, out: DivideResult): void {
  // An order is skipped whole, but not the reason it gives ("Additionally, be cautious of wildlife, as the pier is
  // surrounded by trees and mountains": the main clause is dropped, the "as" clause is a statement).
  // "Cheese: Choose a type of cheese that ...": an order after a short heading is an order too.
  let colon = -1;
  for (let k = 1; k < 4 && k < s.tokens.length; k++) if (s.tokens[k]!.text === ':') colon = k;
  const order = opensWithOrder(s.tokens) || (colon > 0 && opensWithOrder(s.tokens.slice(colon + 1)));
  const formReason = sentenceSkipReason(s.text) ?? (order && !/,\s+(?:as|because|since)\s+(?!(?:you|we|i)\b)/i.test(s.text) ? 'instruction or advice' : null);
  if (formReason !== null) {
    if (formReason !== 'empty') out.skipped.push({ sentence: s.text, reason: formReason });
    return;
  }
  const dropped: { sentence: string; reason: string }[] = [];
  const parts: Part[] = flatMapOf(withoutHedgedAppositions(backOnMain(clauseParts(s.tokens), s.tokens), s.tokens, answer, dropped), (p) => subjectParticipleApart(p, s.tokens, answer));
  const whole = parts.length === 1;
  const before = out.claims.length;
  const contents = parts.map((p, k) => (order && k === 0 ? { reason: 'instruction or advice', text: p.text, dropped: [] } : p.skip === undefined ? contentSkipReason(p.text) : { reason: p.skip, text: p.text, dropped: [] }));
  const guessed = inGuess(parts, contents.map((c) => c.reason === 'opinion or hedge'), s.tokens);
  for (const [k, part] of parts.entries()) {
    const source = whole ? s.text : answer.slice(part.start, part.end);
    const content = contents[k]!;
    // Inside another part's guess: nothing of it is seen, not even its nouns.
    if (guessed.has(k)) {
      dropped.push({ sentence: source, reason: 'opinion or hedge' });
      continue;
    }
    if (content.reason === 'opinion or hedge' && keepBeforeHedge(s, part, answer, question, out, dropped)) continue;
    if (content.reason !== null) {
      dropped.push({ sentence: source, reason: content.reason });
      if (SALVAGEABLE.has(content.reason.replace(/ \(.*$/, ''))) salvagePart(s, part, content.reason === 'opinion or hedge', out, false, content.reason.startsWith('subjective'));
      continue;
    }
    for (const w of content.dropped) dropped.push({ sentence: w, reason: `subjective ("${w}")` });
    const { pairs, reasons } = frontedOn(part, claimsOf(content.text, question));
    for (const p of pairs) out.claims.push({ sentence: s.text, ...p, start: part.start, end: part.end });
    for (const reason of reasons) dropped.push({ sentence: source, reason });
    // "The combination of the cat's colorful fur, the red velvet couch, and ... creates a visually appealing ...": an
    // evaluation of the things it lists, which the picture shows as described ("The cat's fur is colorful.").
    if (pairs.length === 0 && k === 0 && /^the combination of /i.test(part.text)) salvagePart(s, part, false, out, true);
  }
  if (out.claims.length > before) addNamingFacts(s, out, before);
  // A sentence that gave nothing is one skipped sentence, under its main clause's reason.
  if (out.claims.length === before) {
    const first = dropped[0];
    out.skipped.push({ sentence: s.text, reason: first?.reason ?? 'no finite verb' });
  } else {
    out.skipped.push(...dropped);
  }
}

/** Split an answer into atomic claims and turn each into a yes/no question. */
export function divideRules(answer: string, opts?: { question?: string }): DivideResult {
  const out: DivideResult = { claims: [], skipped: [] };
  if (typeof answer !== 'string' || answer.trim() === '') return out;
  const question = typeof opts?.question === 'string' ? opts.question : undefined;
  const sentences = segmentSentences(answer);
  const verbs = new Set<string>();
  const andVerbs = new Set<string>();
  for (const s of sentences) {
    // Only a verb with a subject before it: after "and" the tagger's guess ("genres and sounds") is too weak.
    s.tokens.forEach((t, k) => {
      const prev = s.tokens[k - 1]?.pos ?? '';
      if (t.pos === 'VERB' && !/(?:ing|ed)$/.test(t.lower) && ['NOUN', 'PROPN', 'PRON', 'ADV'].includes(prev)) verbs.add(t.lower);
      // For long claims only (and-verb.ts): "... and peaked at", "... and now ranks among".
      if (t.pos === 'VERB' && t.text === t.lower && (s.tokens[k - 1]?.lower === 'and' || (prev === 'ADV' && s.tokens[k - 2]?.lower === 'and'))) andVerbs.add(t.lower);
    });
  }
  setVerbHints(verbs);
  setAndVerbs(andVerbs);
  setNameHints(nameHints(sentences));
  if (verbs.size > 0) clearClauseMemo();
  for (const sentence of sentences) {
    try {
      divideSentence(sentence, answer, question, out);
    } catch {
      // The rules are heuristics over arbitrary text; one odd sentence must not lose the whole answer.
      out.skipped.push({ sentence: sentence.text, reason: 'could not be analysed' });
    }
  }
  setVerbHints(new Set());
  setAndVerbs(new Set());
  if (verbs.size > 0) clearClauseMemo();
  // With the answer's names still known: "She attended ..." -> "Did Sedgwick attend ...?", not "Did sedgwick ...".
  namePronouns(answer, sentences, out.claims);
  setNameHints(new Set());
  dropRepeatedNames(out);
  return out;
}
