/** Split one sentence into atomic claims: clauses, conjoined predicates and listed objects. */
import { flatMapOf } from './arrays.js';
import { analyzeClause, plainClause, stripDiscourseMarkers, type Clause } from './clause.js';
import {
  AUXILIARIES, AUX_ADVERBS, BE_FORMS, DETERMINERS, isVerbWord, NOT_PAST_ED, PARTICIPLES, PREPOSITIONS, PRONOUNS,
} from './lexicon.js';
import { agreeBe, isSplittableList, prepositionObjects, segmentList } from './list.js';
import { listItemsBefore, shortItemsBefore } from './list-noun.js';
import { namedObjects, objectsOfPreposition, twoNames } from './list-objects.js';
import { perfectCarry } from './perfect-carry.js';
import {
  capitalize, expandContractions, fixArticles, joinTokens, normalizeText, splitAtSemicolons, stripTrailingPunct, tokenize,
  type Token,
} from './text.js';
import { PICTURE_VERBS } from './adjective-split.js';
import { rewriteFirstPerson } from './first-person.js';
import { verbAt } from './verbs.js';
import { insideWhereSubject } from './where-subject.js';

const CLAUSE_JOINERS = new Set(['and', 'but', 'while', 'whereas']);
// A list under one of these words is a single relation ("between the cat and the dog"), not separate facts.
const RELATIONAL = new Set(['between', 'among', 'amongst', 'both', 'either', 'neither', 'together']);
const MAX_DEPTH = 3;
const DANGLING = /(?:[\s,]+(?:and|or|but|with|while))+$/i;
// Verbs that, like "be", take adjective lists ("looks gray and cloudy").
const LINKING_VERBS = new Set(['look', 'become', 'remain', 'stay', 'turn', 'feel', 'smell', 'taste', 'sound']);

/** Split one sentence into atomic claims, each a declarative sentence ending in a period. */
export function splitClaims(sentence: string): string[] {
  // A dangling conjunction (a truncated generation: "... in the top left and.") carries no claim.
  const trimmed = stripTrailingPunct(stripDiscourseMarkers(normalizeText(sentence))).replace(DANGLING, '');
  const base = rewriteFirstPerson(trimmed);
  if (base === '') return [];
  const out: string[] = [];
  // Most sentences have no semicolon: no regex split then (the same single piece).
  for (const piece of base.includes(';') ? semicolonItems(splitAtSemicolons(base)) : [base]) {
    if (piece.trim() !== '') out.push(...splitPiece(piece.trim()));
  }
  return out.map(finish).filter((c) => c.length > 1);
}

function finish(claim: string): string {
  return `${capitalize(fixArticles(stripTrailingPunct(claim.trim())))}.`;
}

function splitPiece(text: string): string[] {
  const colon = text.indexOf(': ');
  // "Star Wars: Episode III": a title's subtitle, not a lead-in.
  const subtitle = colon > 0 && /[A-Z][\w'’-]*$/.test(text.slice(0, colon)) && /^["“]?[A-Z]/.test(text.slice(colon + 2));
  if (colon > 0 && !subtitle) return splitColon(text.slice(0, colon), text.slice(colon + 2)) ?? [text];
  return flatMapOf(splitClauses(text, 0), (c) => splitPredicate(c, 0));
}

// "There are three shapes: a red circle, a blue star and a green square."
function splitColon(left: string, right: string): string[] | null {
  const lead = /\b(?:following|below|these|include|includes|are|is)$/i.test(left.trim()) || !analyzeClause(left);
  const leftClaims = lead ? [] : splitPiece(left);
  if (isIndependentClause(tokenize(expandContractions(right)))) return [...leftClaims, ...splitPiece(right)];
  const rightTokens = tokenize(right);
  const segs = segmentList(rightTokens, false);
  const items = isSplittableList(segs, { be: true, there: true }) ? segs : segmentList(rightTokens, true);
  if (!items.every((s) => DETERMINERS.has(s[0]?.word ?? ''))) return null;
  const there = items.map((s) => `There ${agreeBe('is', s.map((t) => t.word))} ${joinTokens(s)}`);
  return [...leftClaims, ...there];
}

// A second clause has its own subject and finite verb ("... and the star is blue").
function isIndependentClause(tokens: readonly Token[]): boolean {
  const first = tokens[0];
  if (!first || tokens.length < 2) return false;
  if (!DETERMINERS.has(first.word) && !PRONOUNS.has(first.word) && !/^[A-Z]/.test(first.raw)) return false;
  const c = plainClause(joinTokens(tokens));
  if (c === null || c.verbIndex > 8) return false;
  // A capitalised "verb" is a title's word (", and True Lies"), not a new clause's.
  if (/^[A-Z]/.test(c.tokens[c.verbIndex]?.raw ?? '')) return false;
  // A subject spanning "and" or a comma means the cut fell inside a list ("a star, and the man holds ...").
  return !c.subject.some((t) => t.word === 'and' || /,$/.test(t.raw));
}

/** Split coordinated independent clauses; returns the sentence unchanged when there are none. */
function splitClauses(text: string, depth: number): string[] {
  const clause = analyzeClause(text);
  if (!clause || depth > MAX_DEPTH) return [text];
  const { tokens } = clause;
  for (let k = clause.verbIndex + 1; k < tokens.length - 1; k++) {
    const joiner = CLAUSE_JOINERS.has(tokens[k]?.word ?? '');
    const afterComma = /,$/.test(tokens[k - 1]?.raw ?? '');
    if (!joiner && !afterComma) continue;
    if (joiner && insideWhereSubject(tokens, clause.verbIndex, k, verbAt)) continue;
    const right = tokens.slice(joiner ? k + 1 : k);
    if (!isIndependentClause(right)) continue;
    if (joiner && afterComma) {
      // The right side is analysed only after a short comma list (list-noun.ts), not at every ", and".
      const raws = tokens.map((t) => t.raw);
      const rc = shortItemsBefore(raws, k) ? analyzeClause(joinTokens(right)) : null;
      if (rc && listItemsBefore(raws, k, rc.verbIndex, rc.tokens[rc.verbIndex]?.word ?? '')) continue;
    }
    const left = joinTokens(tokens.slice(0, k));
    return [left, ...splitClauses(joinTokens(right), depth + 1)];
  }
  return [text];
}

// The verb group: the finite verb plus "not", "been" and a following bare verb or participle
// ("can not see", "has painted"); with `withIng` also a progressive -ing ("is holding").
function verbGroupEnd(clause: Clause, withIng: boolean): number {
  const { tokens, verbIndex, verb } = clause;
  let g = verbIndex + 1;
  if (verb.kind !== 'aux') return g;
  let prev = verb.word;
  while (g < tokens.length) {
    const w = tokens[g]?.word ?? '';
    if (AUX_ADVERBS.has(w) || ['be', 'been', 'being'].includes(w)) {
      // An adverb ("has also written") leaves the auxiliary in charge; "been", "be" take over.
      if (!AUX_ADVERBS.has(w)) prev = w;
      g++;
      continue;
    }
    const afterBe = BE_FORMS.has(prev) || prev === 'be' || prev === 'being' || prev === 'been';
    const afterHave = ['has', 'have', 'had', 'been'].includes(prev);
    const participle = PARTICIPLES.has(w) || (/ed$/.test(w) && w.length > 4 && !NOT_PAST_ED.has(w));
    const verbal = (withIng && afterBe && /ing$/.test(w) && w.length > 4)
      || (afterHave && participle)
      || (!afterBe && !afterHave && isVerbWord(w));
    return verbal ? g + 1 : g;
  }
  return g;
}

// Does this conjunct start a new verb phrase for the same subject ("... and wears a hat")? `beNominal` when the
// main verb is "be" with a noun phrase, a place or a passive after it ("is a member of the party", "was born in").
function startsVerbPhrase(subject: readonly Token[], seg: readonly Token[], mainIsBe: boolean, beNominal: boolean, born = false, afterVerb = false): boolean {
  const first = seg[0]?.word ?? '';
  if (AUXILIARIES.has(first)) return true;
  // "academics and music-related activities": a compound adjective, not a verb ("co-founded" is one).
  if (/^[a-z]+-[a-z]+ed$/.test(first) && !/^(?:co|re|pre|un)-/.test(first)) return false;
  // "... and later earned a degree": an adverb of time may stand before the verb.
  // "..., and regularly talks about ...": any adverb in -ly too.
  const at = subject.length + (SEQUENCE_ADVERBS.has(first) || (/^[a-z]{3,}ly$/.test(first) && !['only', 'early', 'family'].includes(first)) ? 1 : 0);
  // "..., and by 1965 had formed ...", "..., and since then has starred in ...": the verb after a time phrase.
  const time = leadingTime(seg);
  if (time > 0) return verbAt([...subject, ...seg.slice(time)], subject.length)?.kind === 'aux';
  const v = verbAt([...subject, ...seg], at);
  // "are placed next to the shirt and tie": after "be", a clause-final bare present is no verb ("The shoes tie.").
  const k = at - subject.length;
  if (v !== null && mainIsBe && v.doWord === 'Do' && v.word === v.base && (k === seg.length - 1 || /[,;:]$/.test(seg[k]?.raw ?? ''))) return false;
  // After "is", "-ed" words are adjectives ("tired and relaxed"), not new past-tense verbs; but after a noun
  // phrase or a passive, an "-ed" word with a preposition is a verb of its own ("was born in Ohio and graduated
  // from Yale", "is a member of the party and served as minister").
  if (v !== null && mainIsBe && v.doWord === 'Did') {
    const next = seg[at - subject.length + 1]?.word ?? '';
    // "was born in Metz and studied painting": after "born" a past verb with its object is a verb of its own; so is
    // one with a determined object after a noun phrase ("was a member of X and exhibited her works"): an adjective
    // takes no object. Not a capital ("influential and talented Russian poets").
    // Not after a bare verb: "has written and arranged hundreds of songs" share the object.
    const object = !afterVerb && (DETERMINERS.has(next) || OBJECT_POSSESSIVES.has(next));
    return beNominal && (!/ed$/.test(v.word) || PREPOSITIONS.has(next) || next === 'as' || object || (born && next !== '' && next !== 'and'));
  }
  return v !== null;
}

const OBJECT_POSSESSIVES = new Set(['his', 'her', 'their', 'its']);
const DEGREE = new Set(['most', 'more', 'very', 'highly', 'extremely', 'so', 'too', 'less', 'least']);
const LATER_WORDS = new Set(['later', 'subsequently', 'eventually', 'afterwards', 'afterward', 'thereafter']);

/**
 * The length of a time phrase opening a conjunct ("since then", "by 1965", "by the age of 15", "by the 1950s"), or 0:
 * a preposition of time and up to four words that hold "then", "age" or a number.
 */
export function leadingTime(seg: readonly Token[]): number {
  if (seg[0]?.word === 'since' && seg[1]?.word === 'then') return 2;
  if (!['by', 'since'].includes(seg[0]?.word ?? '')) return 0;
  for (let k = 1; k <= 5 && k < seg.length; k++) {
    const t = seg[k]!;
    if (/,$/.test(t.raw) || t.word === 'and') return 0;
    if (AUXILIARIES.has(t.word)) return seg.slice(1, k).some((x) => /\d/.test(x.word) || x.word === 'age') ? k : 0;
  }
  return 0;
}
const INNER_CLAUSE = new Set(['as', 'because', 'since', 'while', 'when', 'although', 'though', 'if', 'that', 'who', 'which', 'where']);
const SEQUENCE_ADVERBS = new Set(['later', 'then', 'subsequently', 'eventually', 'also', 'soon', 'briefly', 'currently', 'even', 'still']);

// "was born in" (a passive) or "is a member" / "is in": a "be" whose predicate is not an adjective.
function isNominalBe(tokens: readonly Token[], g: number): boolean {
  const next = tokens[g]?.word ?? '';
  // "was Deputy Prime Minister ... and served as": a title is a noun phrase too.
  return isParticiple(next) || DETERMINERS.has(next) || PREPOSITIONS.has(next) || /^[A-Z][a-z]/.test(tokens[g]?.raw ?? '');
}
const isParticiple = (w: string): boolean => PARTICIPLES.has(w) || (/ed$/.test(w) && w.length > 4 && !NOT_PAST_ED.has(w));

// A past participle after a passive continues it ("was born in Ohio and educated at Yale" -> "was educated at
// Yale"); a verb in the past tense after any other "be" stands alone ("served as minister").
function passiveGroup(tokens: readonly Token[], g: number, verbIndex: number): string | null {
  return isParticiple(tokens[g]?.word ?? '') ? joinTokens(tokens.slice(verbIndex, g)) : null;
}

/** Split conjoined verb phrases and listed items that share one subject and verb. */
function splitPredicate(text: string, depth: number): string[] {
  const clause = analyzeClause(text);
  if (!clause || clause.locative || clause.verb.fromRelative || depth > MAX_DEPTH) return [text];
  if (clause.tokens.slice(clause.verbIndex).some((t) => RELATIONAL.has(t.word))) return relationalApart(clause, depth) ?? [text];
  const plain = verbGroupEnd(clause, false);
  const progressive = verbGroupEnd(clause, true);
  return trySplit(clause, plain, depth)
    ?? (progressive !== plain ? trySplit(clause, progressive, depth) : null)
    ?? [text];
}

// "has had a career in both film and television, and has been nominated for many awards": a relational word keeps
// its own conjunct whole, but a verb phrase after ", and" with an auxiliary, past it, is a fact of its own.
function relationalApart(clause: Clause, depth: number): string[] | null {
  const { tokens, verbIndex } = clause;
  for (let j = tokens.length - 2; j > verbIndex + 1; j--) {
    if (RELATIONAL.has(tokens[j]!.word)) return null;
    if (tokens[j]!.word !== 'and' || !/,$/.test(tokens[j - 1]!.raw) || !AUXILIARIES.has(tokens[j + 1]!.word)) continue;
    const left = joinTokens(tokens.slice(0, j)).replace(/,$/, '');
    return [left, ...splitPredicate(`${joinTokens(tokens.slice(0, verbIndex))} ${joinTokens(tokens.slice(j + 1))}`, depth + 1)];
  }
  return null;
}

function trySplit(clause: Clause, g: number, depth: number): string[] | null {
  const { tokens, verbIndex, verb } = clause;
  const pred = tokens.slice(g);
  const subject = tokens.slice(0, verbIndex);
  const there = clause.subject.length === 1 && clause.subject[0]?.word === 'there';
  const mainIsBe = BE_FORMS.has(verb.word);
  const beNominal = mainIsBe && isNominalBe(tokens, g);
  const born = mainIsBe && (tokens[g]?.word === 'born' || tokens[g - 1]?.word === 'born');

  // Pass 1: "The man is tall and wears a hat" -> separate verb phrases.
  const cuts: number[] = [];
  if (!there) {
    const hasAnd = pred.some((t) => t.word === 'and');
    // Where a relative clause opens after a comma (", which ..."), once for the loop below.
    const relativeAt = pred.findIndex((t, k) => k > 0 && (t.word === 'which' || t.word === 'who') && /,$/.test(pred[k - 1]!.raw));
    for (let j = 1; j < pred.length; j++) {
      const prevTok = pred[j - 1];
      // ", but was limited by injuries": "but" joins two facts about the subject as "and" does.
      // Not after a clause of its own opened on the way ("as his elder brother was named ... but was later deposed").
      const but = prevTok?.word === 'but' && !pred.slice(0, j).some((t) => INNER_CLAUSE.has(t.word));
      // "appeared in films, plays, and commercials": after a plural noun's comma, an -s word with its own comma (or an
      // "and" after it) is the list's next noun, no verb's ("He writes songs, plays guitar, and sings." is two verbs).
      const listNoun = /s,$/.test(prevTok?.raw ?? '') && /^[a-z]+s$/.test(pred[j]!.word) && (/,$/.test(pred[j]!.raw) || pred[j + 1]?.word === 'and');
      // "holding the umbrella over her head, which shields her from the rain and helps her stay dry": after a relative
      // the clause kept whole, "and" joins the relative's verbs ("She helps her stay dry." had been said).
      const relative = prevTok?.word === 'and' && relativeAt >= 0 && relativeAt < j;
      // "food, music, and dance performances", "a quick, mobile, hard-working and tactical player", "starred in,
      // co-wrote, and co-produced X": after a one-word item between two commas the list goes on with its next item,
      // no second predicate ("They dance performances.", "She also starred in, co-wrote." had been said).
      const c = /,$/.test(prevTok?.raw ?? '') ? j - 1 : prevTok?.word === 'and' && /,$/.test(pred[j - 2]?.raw ?? '') ? j - 2 : -1;
      const oneWordItem = c >= 1 && /^[a-z][a-z-]*,$/.test(pred[c]!.raw) && /^[a-z][a-z-]*,$/.test(pred[c - 1]!.raw);
      // "one of the most popular and acclaimed stars": after "most X and", an -ed word is the next adjective.
      const graded = prevTok?.word === 'and' && DEGREE.has(pred[j - 3]?.word ?? '') && /ed$/.test(pred[j]!.word);
      const boundary = !oneWordItem && !graded && ((prevTok?.word === 'and' && !relative) || but || (hasAnd && /,$/.test(prevTok?.raw ?? '') && !listNoun));
      const afterVerb = prevTok?.word === 'and' && isParticiple(pred[j - 2]?.word ?? '');
      if (boundary && startsVerbPhrase(subject, pred.slice(j), mainIsBe, beNominal, born, afterVerb)) cuts.push(j);
    }
  }
  let mainPred = trimJoiners(pred.slice(0, cuts[0] ?? pred.length));
  const passive = mainIsBe ? passiveGroup(tokens, g, verbIndex) : null;
  // "has written and directed several films": the verbs share the object, and the second the perfect.
  const sharing = mainPred.length === 0 && cuts.length === 1;
  const perfect = sharing && ['has', 'have', 'had'].includes(verb.word) && g > verbIndex + 1 ? `${joinTokens(tokens.slice(verbIndex, g - 1))} ` : '';
  if (sharing) mainPred = trimJoiners(pred.slice(cuts[0]! + 1));
  const vpClaims = flatMapOf(cuts, (start, i) => {
    const seg = trimJoiners(pred.slice(start, cuts[i + 1] ?? pred.length));
    // After "born", a participle with an object is in the past tense ("and attended Fort Hare"), not passive.
    // A past verb with a determined object is active ("was robbed at a car wash but survived the incident"); not
    // with "a" ("was made a Dame Commander").
    const active = (DETERMINERS.has(seg[1]?.word ?? '') && !['a', 'an'].includes(seg[1]?.word ?? '')) || OBJECT_POSSESSIVES.has(seg[1]?.word ?? '');
    const be = passive !== null && PARTICIPLE_FIRST(seg) && !active && !(born && !PREPOSITIONS.has(seg[1]?.word ?? '') && seg[1]?.word !== 'up') ? `${passive} ` : perfect !== '' && isParticiple(seg[0]?.word ?? '') ? perfect
      : perfectCarry(tokens.slice(verbIndex, g), seg, isParticiple);
    // "Santana ... and by 1965 had formed the band" -> "Santana had formed the band by 1965.", as a claim says it.
    const time = leadingTime(seg);
    const body = time > 0 ? `${joinTokens(seg.slice(time))} ${joinTokens(seg.slice(0, time))}` : joinTokens(seg);
    // "In 2009, she won the title, and later went on to ...": a later conjunct is not at the fronted time.
    const later = LATER_WORDS.has(seg[0]?.word ?? '') || (AUXILIARIES.has(seg[0]?.word ?? '') && seg[1]?.word === 'since');
    const who = later && clause.intro.length > 0 ? subject.slice(clause.intro.length) : subject;
    return splitPredicate(`${joinTokens(who)} ${be}${body}`, depth + 1);
  });

  // Pass 2: "There is a red circle, a blue star and a green square" -> one claim per item.
  const ctx = { be: mainIsBe || LINKING_VERBS.has(verb.base), there };
  // Without "and" or a comma there is no list: every reading below comes back to the predicate whole (most clauses);
  // nor is an "and" in a "where" clause's subject one (where-subject.ts; also for the clauses above).
  // "the 2014 and 2018 FIFA World Cups": two numbers joined before the head they share, the predicate's only "and"
  // and no comma, are no list of the clause's ("won the 1958." and "won 1962 World Cup." had been said).
  const numbers = mainPred.filter((t) => t.word === 'and' || t.raw.endsWith(',')).length === 1
    && mainPred.some((t, k) => t.word === 'and' && /^\d+$/.test(mainPred[k - 1]?.raw ?? '') && /^\d+$/.test(mainPred[k + 1]?.raw ?? ''));
  const listed = !numbers && mainPred.some((t) => t.word === 'and' || t.raw.endsWith(',')) && !insideWhereSubject(mainPred, -1, mainPred.findIndex((t) => t.word === 'and'), verbAt);
  const segs = listed ? segmentList(mainPred, false) : [];
  let items = !listed ? [mainPred] : twoNames(segs, tokens[g - 1]?.word ?? '') ?? objectsOfPreposition(segs, mainPred.filter((t) => /,$/.test(t.raw)).length) ?? namedObjects(segs)
    ?? prepositionObjects(segs);
  let owned = false;
  if (items === null) {
    items = segs;
    if (!isSplittableList(items, ctx)) items = segmentList(mainPred, true);
    if (!isSplittableList(items, ctx)) items = [mainPred];
    items = ownedItems(items, mainPred);
    // Only in a picture's list ("There is a man and his dog", "The image shows ..."), where the possessive cannot be
    // the subject's: "He was a fan of the band in his youth and their songs" names no owner here.
    owned = items.length > 1 && (there || PICTURE_VERBS.has(verb.word));
  }
  if (items.length === 1 && vpClaims.length === 0) return null;
  const head = tokens.slice(0, g).map((t) => t.raw);
  const mainClaims = items.map((item, k) => {
    const words = [...head];
    if (there && items.length > 1 && g === verbIndex + 1) {
      words[verbIndex] = agreeBe(words[verbIndex] ?? 'is', item.map((t) => t.word));
    }
    return `${words.join(' ')} ${owned ? ownerText(item, items[k - 1]) : joinTokens(item)}`.trim();
  });
  return [...mainClaims, ...vpClaims];
}

// "educated at Yale": a conjunct led by a past participle; verbs without a passive ("graduated from", "moved to")
// are in the past tense there ("was born in Ohio and graduated from Yale" -> "graduated from Yale").
const PARTICIPLE_FIRST = (seg: readonly Token[]): boolean => isParticiple(seg[0]?.word ?? '') && !INTRANSITIVE.has(seg[0]?.word ?? '');
const INTRANSITIVE = new Set(`graduated moved served worked studied lived died retired returned emigrated immigrated
  competed played performed appeared debuted went grew began started remained stayed resided lectured taught`.split(/\s+/));

// Drop dangling "and" and commas left at the edges of a conjunct.
function trimJoiners(seg: readonly Token[]): Token[] {
  const out = [...seg];
  while (out.length > 0 && ['and', 'but'].includes(out[out.length - 1]?.word ?? '')) out.pop();
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { raw: last.raw.replace(/,+$/, ''), word: last.word };
  return out;
}

// "a man and his dog", "a cell phone and its accessories": an item led by a possessive is the item before it's
// ("There is the man's dog.", not "There is his dog."). After an item with a phrase or participle of its own ("a collage
// of pictures featuring a cell phone and its accessories") the "and" joins inside that phrase: the list stays whole
// ("The image is its accessories." had been said).
function ownedItems(items: Token[][], whole: Token[]): Token[][] {
  const inner = items.some((item, k) => {
    if (k === 0 || !OBJECT_POSSESSIVES.has(item[0]?.word ?? '')) return false;
    // The item before ends in an "of" phrase ("the son of Ramesses III and his queen") or holds a participle.
    const before = items[k - 1]!;
    const last = before.map((t) => t.word).filter((w) => PREPOSITIONS.has(w)).pop();
    return last === 'of' || before.slice(1).some((t) => /ing$/.test(t.word));
  });
  return inner ? [whole] : items;
}
// "its" and "their" are a thing's or things'; "his" and "her" a person noun's only ("released several singles, and
// his debut album" is the subject's).
const PERSON = /^(?:man|woman|boy|girl|person|child|kid|guy|lady|gentleman|player|rider|skier|surfer|skateboarder)$/;
function ownerText(item: readonly Token[], before: readonly Token[] | undefined): string {
  const owner = before?.[before.length - 1]?.raw.replace(/[,.]+$/, '') ?? '';
  const whose = item[0]?.word ?? '';
  const fits = whose === 'its' || (whose === 'their' && owner.endsWith('s')) || ((whose === 'his' || whose === 'her') && PERSON.test(owner));
  // "the tower's unique design and its stunning setting": the tower's, which a possessive before names.
  const named = before?.some((t) => /['’]s$/.test(t.raw)) ?? false;
  if (!OBJECT_POSSESSIVES.has(whose) || !fits || named || item.length < 2 || !/^[a-z][a-z-]*$/.test(owner)) return joinTokens(item);
  return `the ${owner}${owner.endsWith('s') ? "'" : "'s"} ${joinTokens(item.slice(1))}`;
}

// "Fisher grew up in New Haven Connecticut; San Francisco; San Juan Puerto Rico; and Hartford Connecticut.": pieces
// after the first that are names without a verb of their own go on the first piece's list, each after its lead up to
// the preposition before the first name ("Fisher grew up in San Francisco."); alone they had no verb and were dropped.
function semicolonItems(pieces: string[]): string[] {
  const first = pieces[0] ?? '';
  const lead = /^(.*?\b(?:in|of|at|for|with|from|on|to|by|include|includes|included|including)\s)(?=["“]?[A-Z])/.exec(first)?.[1];
  if (lead === undefined || pieces.length < 2 || analyzeClause(first) === null) return pieces;
  const items = pieces.slice(1).map((x) => x.replace(/^and\s+/, ''));
  if (!items.every((x) => /^["“]?[A-Z]/.test(x) && x.split(' ').length <= 8 && analyzeClause(x) === null)) return pieces;
  return [first, ...items.map((x) => `${lead}${x}`)];
}
