/**
 * Cut one sentence into clause parts, each stating one fact on its own: relative clauses ("a man who is
 * smiling" -> "the man is smiling"), participle phrases ("a clock mounted on a wall" -> "the clock is mounted on a
 * wall"), "with" phrases, subordinate clauses and coordinate adjectives ("a large, old clock" -> "the clock is
 * large"). Built on wink's POS tags; each part keeps the character span of the text it came from.
 */
import { flatMapOf, through } from './arrays.js';
import { PICTURE_VERBS, splitAdjectives } from './adjective-split.js';
import { frontOnMain } from './fronted-when.js';
import { apposedBeforeVerb, auxAhead, edClauseAfter, spentTime, verbOfClause } from './apposed-participle.js';
import { gerundListItem, gerundSeriesItem, verbSeriesItem } from './gerund-item.js';
import { retext, type Tok } from './nlp.js';
import { draft, part, type Draft, type Part } from './clause-draft.js';
import {
  careerStarter, frontedAs, lonePerson, pastAfterAnd, frontedBesides, frontedParticiple, fullName, isApposition, isFinite, isIngVerb, isParticipleForm, listCategory, PAST_ONLY, pastMain, pastOfMain, perfectAux, RELATIVES,
} from './person-clauses.js';
import { copulaSubject, definite, headBefore, herObject, isComma, listItemAfter, namedHead, NOUNISH, nounAfterModifier, placeComma, pluralHead, POSSESSIVES, textOf } from './noun-phrase.js';
import { PARTICIPLES } from './lexicon.js';
import { listNounAfterAnd } from './list-noun.js';
import { pastOfIng, thirdPerson } from './verbs.js';
import { whomAt, whomBody } from './whom.js';
import { attributeOwner, be, ingBeforePhrase, withClause, withNounsApart } from './with-clause.js';
import { datedPast, fronted, opensWhen, placeBefore, pronounSubject, yearOfMain } from './clause-time.js';

export type { Part } from './clause-draft.js';

// Clauses of reason, concession, contrast and condition stand apart; time clauses ("since he was a child",
// "when ...") qualify the main clause and stay in it, except in front of it or as an event of its own (clause-time.ts).
// Verbs of state whose -ing form reads wrong after "is" ("The box is containing ...").
const STATIVE_ING = new Set(['containing', 'consisting', 'belonging', 'comprising']);
const SUBORDINATORS = new Set(['because', 'although', 'though', 'if', 'unless', 'while', 'whereas', 'as', 'so']);
// Participles that introduce an inference or an evaluation, not something to see.
const HEDGE_PARTICIPLES = new Set(['suggesting', 'indicating', 'implying', 'hinting', 'signifying', 'meaning']);
const COMMENT_PARTICIPLES = new Set([
  'creating', 'adding', 'giving', 'making', 'contributing', 'emphasizing', 'highlighting', 'showcasing',
  'reflecting', 'evoking', 'conveying', 'providing', 'offering', 'enhancing', 'capturing', 'setting',
]);
// Heads that name the picture itself: a phrase after "the image features ..." is about the object, not these.
const PICTURE_NOUNS = new Set(['image', 'picture', 'photo', 'photograph', 'scene', 'view', 'shot', 'focus', 'setting']);
// "top left", "middle left": the tagger reads "left" as the verb.
const SIDES = new Set(['top', 'bottom', 'middle', 'center', 'centre', 'upper', 'lower', 'far', 'the']);
// Participles used as prepositions ("films including X"): they introduce items, not a clause.
const PREPOSITIONAL = new Set(['during', 'including', 'featuring', 'following', 'regarding', 'concerning', 'excluding', 'according', 'depending', 'compared', 'given', 'based']);

// What a sentence-final participle phrase describes: the main clause's subject ("a girl is standing on a
// sidewalk, holding an umbrella"), or its object when the subject is the picture itself or "there".
function mainTopic(toks: readonly Tok[], full: readonly Tok[]): number {
  // A fronted phrase ("In the 1950s and 1960s, Vieira became ...", "Throughout his distinguished career, Santana
  // ...") holds neither the subject nor the verb.
  const cut = ['ADP', 'SCONJ', 'ADV'].includes(full[0]?.pos ?? '') || /^(?:Based|Given|Compared)$/.test(full[0]?.text ?? '') ? full.findIndex((t) => t.text === ',') : -1;
  const main = cut > 0 && cut < full.length - 2 ? full.slice(cut + 1) : full;
  const verb = main.findIndex((t) => isFinite(t) || PICTURE_VERBS.has(t.lower));
  const pick = (from: readonly Tok[]): Tok | undefined => from.find((t) => NOUNISH.has(t.pos) && !PICTURE_NOUNS.has(t.lower));
  const before = verb >= 0 ? main.slice(0, verb) : [];
  const subject = before.some((t) => t.lower === 'there') ? undefined : pick(before.filter((t, k) => k === 0 || !['ADP'].includes(before[k - 1]?.pos ?? '')));
  // "He began his career in management, taking charge of Venezia": a person's pronoun is the subject too.
  const person = subject === undefined ? lonePerson(before) : undefined;
  const found = subject ?? person ?? pick(verb >= 0 ? main.slice(verb + 1) : main) ?? pick(main);
  if (!found) return -1;
  // The head is the last noun of a compound ("parking meter").
  let h = toks.indexOf(found);
  while (NOUNISH.has(toks[h + 1]?.pos ?? '') && toks[h + 1]?.pos === found.pos) h++;
  return h;
}

const PEOPLE = new Set(['he', 'she', 'they']);

/** Cut a sentence's tokens into clause parts; the main clause comes first. */
export function clauseParts(toks: readonly Tok[]): Part[] {
  const fronted = frontedParticiple(toks) ?? frontedBesides(toks) ?? frontedAs(toks);
  if (fronted !== null) return [part(fronted.part.text, fronted.part.start, fronted.part.end), ...frontOnMain(clauseParts(fronted.rest), (fronted as { front?: readonly Tok[] }).front)];
  const drafts: Draft[] = [draft('', [], 'main')];
  let cur = 0;
  // The main clause being read: ", and the man is ..." starts a second one, with parts of its own.
  let home = 0;
  let lastHead = -1;
  // Inside a quotation no clause opens: "Ue o Muite Arukō" ("I Look Up As I Walk") is a title, not "as I walk".
  let quoted = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (t.text === '"' || t.text === '\u201c' || t.text === '\u201d') quoted = t.text === '"' ? !quoted : t.text === '\u201c';
    if (t.text === ')' && drafts[cur]?.paren) {
      cur = home;
      continue;
    }
    if (isComma(t) && next?.pos === 'CCONJ' && clauseStartsAt(toks, i + 2, true) && !drafts[cur]?.paren && !listNounAfterAnd(toks, i)) {
      drafts.push(draft('', [], 'main'));
      home = cur = drafts.length - 1;
      i++;
      continue;
    }
    if (isComma(t) && !drafts[cur]?.paren) {
      if (cur !== home) {
        // A comma ends a clause part only where the main clause resumes or a new part opens; otherwise it is
        // inside the part ("topics related to the Bible, Jewish tradition, and spirituality").
        if (resumes(toks, i + 1, drafts[home]!.toks) && !listNounAfterAnd(toks, i) && !placeComma(toks, i)) cur = home;
        else if (drafts[cur]!.kind === 'participle' && listItemAfter(toks, i + 1, drafts[cur]!.toks)) drafts[(cur = home)]!.toks.push(t);
        else drafts[cur]!.toks.push(t);
        continue;
      }
      if (drafts[home]!.toks.length === 0) continue;
      const opensNext = quoted ? null : opener(toks, i + 1, drafts[home]!.toks, true);
      if (opensNext === null) drafts[home]!.toks.push(t);
      continue;
    }
    const op = next === undefined || quoted ? null : opener(toks, i, drafts[cur]!.toks, isComma(prev) || i === 0);
    if (op !== null) {
      let head = op.head;
      if (head === -2) head = lastHead >= 0 ? lastHead : mainTopic(toks, drafts[home]!.toks);
      if (op.kind === 'relative' || op.kind === 'participle') {
        if (head >= 0) lastHead = head;
      }
      const h = toks[head];
      const named = h ? copulaSubject(toks, head, drafts[home]!.toks) : null;
      const subject = op.subject ?? (h ? named ?? definite(toks, head, op.kind === 'participle') : '');
      const plural = h ? pluralHead(h) || / and /.test(subject) : false;
      let prefix = '';
      if (op.kind === 'relative') prefix = subject;
      // "the D1 Nation Foundation, a non-profit organization that provides ...": the name is what provides.
      if (op.kind === 'relative' && drafts[cur]?.kind === 'apposition') prefix = drafts[cur]!.prefix.replace(/ is$/, '');
      if (op.kind === 'apposition') prefix = `${fullName(toks, head)} is`;
      if (op.alias !== undefined) prefix = `${fullName(toks, head)}${{ known: ' is also known as', real: '\'s real name is', nee: ' was born' }[op.alias]}`;
      const verb = op.consume === 0 ? t : next;
      // "Senecio was a prominent figure in Roman society, known for his military prowess": a person's participle is in
      // the main clause's past ("Senecio was known for ..."), as the annotators wrote it; so is a thing's event with its
      // agent ("continued the building projects started by his father" -> "... were started by his father"), where a
      // state stays present ("a marine sanctuary known for its coral reefs").
      const person = named !== null || h?.pos === 'PROPN' || ['he', 'she'].includes(h?.lower ?? '');
      const past = verb !== undefined && (PAST_ONLY.has(verb.lower) || (op.kind === 'participle' && !/ing$/.test(verb.lower) && (person || toks[toks.indexOf(verb) + 1]?.lower === 'by') && pastMain(drafts[home]!.toks)));
      if (op.kind === 'participle') prefix = `${subject} ${past ? (plural ? 'were' : 'was') : be(plural)}`;
      if (op.kind === 'with') prefix = attributeOwner(toks, i + 1, drafts[home]!.toks) ?? '';
      const perfect = op.kind === 'participle' && op.head === -2 && verb !== undefined ? perfectAux(drafts[home]!.toks, verb) : null;
      if (perfect !== null) prefix = `${subject} ${perfect}`;
      // "..., having written many books" -> "Hedding has written many books", not "is having written".
      // Also an irregular participle the tagger reads as an adjective, and "been": "having taken part", "having been".
      // An adverb may stand between ("having never fully recovered"); after a past main clause it is the past perfect
      // ("He eventually died in 1986, having never fully recovered ..." -> "He had never fully recovered ...").
      let pp = i + 1;
      while (toks[pp]?.pos === 'ADV' && pp < i + 3) pp++;
      const p = toks[pp];
      const having = op.kind === 'participle' && op.consume === 0 && t.lower === 'having' && (p?.pos === 'VERB' || /^[a-z]+ed$/.test(p?.text ?? '') || PARTICIPLES.has(p?.lower ?? '') || p?.lower === 'been');
      if (having) prefix = `${subject} ${pastMain(drafts[home]!.toks) ? 'had' : plural ? 'have' : 'has'}`;
      const d = draft(prefix, [], op.kind, { plural, paren: op.paren ? true : undefined, lead: op.consume > 0 || having ? t : undefined });
      if (op.skip) d.skip = op.skip;
      if (op.setting === 'when') d.time = yearOfMain(drafts[home]!.toks);
      if (op.setting === 'where') d.place = placeBefore(toks, i);
      if (op.whom !== undefined) {
        d.whom = { prep: op.whom, antecedent: op.antecedent ?? prefix };
        d.prefix = '';
      }
      if (op.kind === 'relative' && h) d.attach = h.start;
      if (op.kind === 'subordinate' && t.lower === 'because' && prev) d.attach = prev.start;
      if ((op.kind === 'relative' || op.kind === 'participle') && !h) d.skip ??= 'comment on the scene';
      drafts.push(d);
      cur = drafts.length - 1;
      // An opener word ("which", "with") is dropped; a participle opens its own part and stays in it.
      if (op.consume === 0) {
        // "Vieira became known ..., working on films": a person's -ing after a past main clause is in the past too.
        // "she began her acting career in the late 1940s, appearing in films": the person appeared, not the career.
        const starter = op.kind === 'participle' ? careerStarter(t, h, drafts[home]!.toks) : null;
        if (starter !== null || pastOfMain(op, t, h, drafts[home]!.toks)) {
          drafts[cur]!.prefix = starter ?? subject;
          drafts[cur]!.pastAnd = true;
          drafts[cur]!.toks.push(retext(t, pastOfIng(t.lower), pastOfIng(t.lower)));
        } else if (!having && STATIVE_ING.has(t.lower) && op.kind === 'participle' && op.head !== -2) {
          // "a box containing three donuts" -> "The box contains three donuts.", not "is containing": a state's verb.
          drafts[cur]!.prefix = subject;
          const base = t.lower.replace(/ing$/, '');
          const verb = plural ? base : thirdPerson(base);
          drafts[cur]!.toks.push(retext(t, verb, verb));
        } else if (!having) drafts[cur]!.toks.push(t);
      } else i += op.consume - 1;
      if (op.past && next !== undefined) {
        drafts[cur]!.prefix = pronounSubject(drafts[home]!.toks) ?? subject;
        drafts[cur]!.toks.push(retext(next, pastOfIng(next.lower), pastOfIng(next.lower)));
        i++;
      }
      continue;
    }
    drafts[cur]!.toks.push(t);
  }
  nameIt(drafts, toks);
  return through(flatMapOf(drafts, (d) => splitAdjectives(d)), withNounsApart).map(build).filter((p): p is Part => p !== null);
}

// "a couch with a cat lying on it", "a ramp, with the skateboarder standing on it": "it" after a preposition in a
// participle or "with" part is what the main clause is about, so the fact names it ("The cat is lying on the red
// velvet couch."), as the annotators wrote it.
function nameIt(drafts: Draft[], toks: readonly Tok[]): void {
  const main = drafts[0]!.toks;
  const topic = mainTopic(toks, main);
  const head = toks[topic];
  if (!head || head.pos !== 'NOUN' || pluralHead(head) || !main.includes(head)) return;
  const name = definite(toks, topic);
  for (const d of drafts) {
    if ((d.kind !== 'participle' && d.kind !== 'with') || d.prefix.toLowerCase().startsWith(`${name.toLowerCase()} `)) continue;
    d.toks = d.toks.map((t, k) => (t.lower === 'it' && t.pos === 'PRON' && d.toks[k - 1]?.pos === 'ADP' ? retext(t, name, name) : t));
  }
}

// Does a new clause start at j: a subject pronoun, or a noun phrase followed soon by its verb? `strict` (after
// ", and") wants a determiner or a name in front: "..., and television shows such as ..." is a list whose "shows"
// the tagger reads as a verb.
function clauseStartsAt(toks: readonly Tok[], j: number, strict = false): boolean {
  const t = toks[j];
  if (!t) return false;
  if (t.pos === 'PRON' && ['he', 'she', 'they', 'it', 'we', 'i', 'you', 'there', 'this', 'these'].includes(t.lower)) return true;
  // "..., and her pose suggests ...": a possessive opens a noun phrase as a determiner does.
  const determiner = t.pos === 'DET' || POSSESSIVES.has(t.lower);
  if (!determiner && !(strict ? ['PROPN'] : ['NOUN', 'PROPN', 'NUM', 'ADJ']).includes(t.pos)) return false;
  for (let k = j + 1; k < Math.min(toks.length, j + 6); k++) {
    const w = toks[k]!;
    if (isComma(w) || w.pos === 'ADP' || w.pos === 'CCONJ') return false;
    // A capitalised "verb" is a name's word ("..., and Kingdom Come (2001)").
    if (isFinite(w)) return w.text === w.lower;
  }
  return false;
}

// After a comma inside a clause part: does the main clause go on (its verb), or a new clause or part begin?
function resumes(toks: readonly Tok[], j: number, main: readonly Tok[]): boolean {
  const t = toks[j];
  if (!t) return true;
  if (t.pos === 'AUX' || (t.pos === 'VERB' && !/ing$/.test(t.lower))) return true;
  if (opener(toks, j, main, true) !== null) return true;
  if (t.pos === 'CCONJ' || t.pos === 'SCONJ') return clauseStartsAt(toks, j + 1);
  return clauseStartsAt(toks, j);
}

// "released eight studio albums with The Living End, which have charted in ...": a plural verb after ", which" goes
// with the plural noun before the name, not with the name.
function pluralAntecedent(toks: readonly Tok[], i: number): number | null {
  const near = headBefore(toks, isComma(toks[i - 1]) ? i - 1 : i);
  if (!['have', 'are', 'were'].includes(toks[i + 1]?.lower ?? '') || toks[near]?.pos !== 'PROPN' || /s$/.test(toks[near]!.lower)) return null;
  for (let k = near - 1; k > 0 && k > near - 8; k--) if (toks[k]!.pos === 'NOUN' && pluralHead(toks[k]!)) return k;
  return null;
}

const LATER = new Set(['eventually', 'later', 'subsequently', 'ultimately', 'finally', 'notably']);
const andNounAfter = (toks: readonly Tok[], i: number): boolean =>
  toks.some((x, k) => k > i && isComma(x) && toks[k + 1]?.lower === 'and' && toks[k + 2]?.pos === 'DET');

interface Opener {
  kind: Draft['kind'];
  /** Index of the antecedent's head; -1 none; -2 "the main clause's topic". */
  head: number;
  consume: number;
  skip?: string;
  paren?: boolean;
  /** "before moving to X": the -ing verb after the opener becomes a past tense of the subject's. */
  past?: boolean;
  /** "(also known as X)", "(real name: X)", "(née X)": another name of the name before the bracket. */
  alias?: 'known' | 'real' | 'nee';
  /** A time clause after the main clause ("... when he won X") takes its year; ", where he won X" its place. */
  setting?: 'when' | 'where';
  whom?: string;
  antecedent?: string;
  /** The subject as the sentence words it, for a participle between it and its verb ("Taylor's debut album, released"). */
  subject?: string;
}

// Whether the main clause so far has a finite verb (or a verb of showing); a life span's dash in the 14 tokens from i.
// Asked for by opener only in the branches that need them: opener runs at every token, and the main clause grows with
// the sentence, so scanning it each time made a sentence's parts quadratic in its length. Module functions, not
// closures made at each call of opener: each closure was garbage.
const hasFinite = (main: readonly Tok[]): boolean => main.some((m) => isFinite(m) || PICTURE_VERBS.has(m.lower));
const spanAt = (toks: readonly Tok[], i: number): boolean => toks.slice(i, i + 14).some((x) => /^[–—]$/.test(x.text));

// The words a part can open with (or, "which"/"whom" next, its preposition; a participle is a VERB or ends in -ing):
// the relatives and whomAt's "whom"/"which", "where", "with", "before"/"after", LATER, an apposition's "a"/"an"/"one",
// the time words, SUBORDINATORS and "so". A cheap test before opener's branches.
const OPENING_WORDS = new Set(['whom', 'which', 'who', 'that', 'where', 'with', 'before', 'after', 'a', 'an', 'one', 'when', 'while', 'once',
  'whenever', 'so', ...SUBORDINATORS, ...LATER]);

// Does a clause part open at token i? `afterComma` when a comma (or the sentence start) precedes it.
function opener(toks: readonly Tok[], i: number, main: readonly Tok[], afterComma: boolean): Opener | null {
  const t = toks[i];
  const prev = toks[i - 1];
  const next = toks[i + 1];
  if (!t || !next) return null;
  // Every branch below needs one of these (issue 29, the sixteenth speed pass): most tokens (nouns, names,
  // determiners, punctuation) open nothing, and opener runs at every token of every sentence.
  if (t.pos !== 'VERB' && t.text !== '(' && !OPENING_WORDS.has(t.lower) && !t.text.endsWith('ing') && next.lower !== 'whom' && next.lower !== 'which') return null;
  const whom = whomAt(toks, i);
  if (whom !== null) return { kind: 'relative', head: headBefore(toks, isComma(prev) ? i - 1 : i), consume: whom.consume, whom: whom.prep, antecedent: whom.antecedent };
  if (RELATIVES.has(t.lower) && i > 0 && (t.pos === 'PRON' || t.pos === 'DET')) {
    const directly = prev !== undefined && NOUNISH.has(prev.pos);
    if (t.lower === 'that' && !directly) return null;
    if (!directly && !afterComma) return null;
    if (!['AUX', 'VERB', 'ADV', 'PART'].includes(next.pos)) return null;
    // ", which indicates a paid parking zone": the writer's reading of the clause before, not a fact of its last noun.
    const inference = isComma(prev) && /^(?:indicates|suggests|implies|signifies)$/.test(next.lower) ? { skip: 'opinion or hedge' } : {};
    return { kind: 'relative', head: listCategory(toks, i) ?? pluralAntecedent(toks, i) ?? headBefore(toks, isComma(prev) ? i - 1 : i), consume: 1, ...inference };
  }
  if (t.lower === 'where' && (afterComma || edClauseAfter(toks, i)) && i > 0 && ['DET', 'PRON', 'PROPN', 'NOUN', 'NUM'].includes(next.pos)) {
    return { kind: 'subordinate', head: -1, consume: 1, setting: 'where' };
  }
  // "a quick, mobile, hard-working and tactical player": a hyphenated -ing compound is an adjective of the list.
  if ((isParticipleForm(t) || ingBeforePhrase(toks, i)) && t.text === t.lower && !PREPOSITIONAL.has(t.lower) && i > 0 && !/^[a-z]+-[a-z]+ing$/.test(t.lower)
    && (afterComma || (prev !== undefined && (NOUNISH.has(prev.pos) || ['him', 'them'].includes(prev.lower) || herObject(prev, t))))
    && (hasFinite(main) || (afterComma && apposedBeforeVerb(toks, i, main)))
    && !(afterComma ? false : fronted(main))) {
    if (['ADJ', 'NOUN'].includes(next.pos) && !afterComma) return null; // "parked cars", a modifier
    if (!afterComma && t.pos === 'NOUN' && nounAfterModifier(toks, i)) return null; // "a tall, skinny building with", a noun
    if (!afterComma && (auxAhead(toks, i) || spentTime(toks, i) || verbOfClause(toks, i))) return null; // "the person using the desk is reading", "spent her youth living", "where his mother worked"
    if (afterComma && gerundListItem(toks, i)) return null; // "his physicality, tackling ability, and ..."; gerund-item.ts
    if (afterComma && (gerundSeriesItem(toks, i) || verbSeriesItem(toks, i, main))) return null; // "enjoy swimming, sunbathing, or taking a stroll", "supported X, served in Y, and signed Z"; gerund-item.ts
    // "Krenz resigned his post", "his father founded the China Inland Mission": a past verb with an object.
    if (!afterComma && !/ing$/.test(t.lower) && (/^(?:his|her|their|its|it)$/.test(next.lower) || (next.pos === 'DET' && prev?.pos === 'PROPN'))) return null;
    if (next.pos === 'PUNCT' && !afterComma) return null; // "in the middle left.": a place, not "left" the verb
    if (t.lower === 'left' && prev !== undefined && SIDES.has(prev.lower)) return null;
    const skip = HEDGE_PARTICIPLES.has(t.lower) ? 'opinion or hedge' : COMMENT_PARTICIPLES.has(t.lower) ? 'comment on the scene' : undefined;
    // Between the subject and its verb, the participle is the subject's, as the sentence words it: "Taylor's debut
    // album, released in 1968, was" -> "Taylor's debut album was released in 1968.".
    if (afterComma && !hasFinite(main)) {
      return { kind: 'participle', head: headBefore(toks, i - 1), consume: 0, subject: textOf(main), ...(skip ? { skip } : {}) };
    }
    const head = afterComma ? -2 : namedHead(toks, headBefore(toks, i), t);
    return { kind: 'participle', head, consume: 0, ...(skip ? { skip } : {}) };
  }
  // "Botak Chin (real name: Wong Swee Chin) was ...", "Ramesses IV (also known as Ramses) was ...", "Marie Becker
  // (née Petitjean)": the other name is a fact of the name before the bracket, and the clause goes on without it.
  if (t.text === '(' && i > 0 && toks[i - 1]!.pos === 'PROPN') {
    const w = toks.slice(i + 1, i + 5).map((x) => x.lower);
    if (w[0] === 'also' && w[1] === 'known' && w[2] === 'as') return { kind: 'apposition', head: i - 1, consume: 4, paren: true, alias: 'known' };
    if (w[0] === 'real' && w[1] === 'name') return { kind: 'apposition', head: i - 1, consume: w[2] === ':' ? 4 : 3, paren: true, alias: 'real' };
    if (w[0] === 'née' || w[0] === 'nee') return { kind: 'apposition', head: i - 1, consume: 2, paren: true, alias: 'nee' };
  }
  // Not a life span ("(born September 24, 1893 – April 6, 1966)"): naming.ts reads those.
  if (t.text === '(' && isParticipleForm(next) && i > 0 && !hasFinite(main) && !spanAt(toks, i)) {
    // "Lanny Flaherty (born October 2, 1973) is ...": a parenthetical participle about the name before it.
    return { kind: 'participle', head: headBefore(toks, i), consume: 1, paren: true };
  }
  if (t.lower === 'with' && afterComma && i > 0 && hasFinite(main)) return { kind: 'with', head: -1, consume: 1 };
  // "began his career with Internacional before moving to CSKA Moscow" -> "Carvalho moved to CSKA Moscow".
  if ((t.lower === 'before' || t.lower === 'after') && i > 2 && isIngVerb(next) && hasFinite(main)) return { kind: 'participle', head: -2, consume: 1, past: true };
  // "Zelma worked for X, eventually moving to Y" -> "Zelma moved to Y": after a past main clause, as "before moving".
  // Not when ", and a ..." follows: that may be the main clause's ("was an officer ..., ultimately becoming X, and a
  // negotiator").
  if (afterComma && LATER.has(t.lower) && i > 2 && isIngVerb(next) && hasFinite(main) && pastMain(main) && !andNounAfter(toks, i)) {
    return { kind: 'participle', head: -2, consume: 1, past: true };
  }
  if (afterComma && isApposition(toks, i) && hasFinite(main)) return { kind: 'apposition', head: i - 2, consume: 0 };
  const leading = i === 0 && ['when', 'while', 'once', 'whenever'].includes(t.lower); // tagged ADV at the start
  // "Lummis rose to fame in 2004 when he won ...": a fact of its own, at the main clause's year (clause-time.ts).
  if (opensWhen(toks, i, afterComma) && hasFinite(main) && clauseStartsAt(toks, i + 1)) return { kind: 'subordinate', head: -1, consume: 1, setting: 'when' };
  // ", so I can use it as a cue": a result clause (tagged ADV) stands apart, so its own filters judge it.
  const result = t.lower === 'so' && afterComma && i > 0;
  if ((SUBORDINATORS.has(t.lower) || leading) && (t.pos === 'SCONJ' || leading || result || (t.lower === 'as' && afterComma)) && (afterComma || i === 0 || hasFinite(main))) {
    if (t.lower === 'as' && (next.lower === 'well' || prev?.lower === 'such')) return null; // "as well as", "such as"
    if (t.lower === 'as' && (next.pos === 'VERB' || next.pos === 'ADJ' || next.pos === 'ADV')) {
      return { kind: 'subordinate', head: -1, consume: 1, skip: 'opinion or hedge' }; // "as evidenced by", "as seen"
    }
    if (!clauseStartsAt(toks, i + 1)) return null; // "since 1984", "as an actor": a phrase, not a clause
    return { kind: 'subordinate', head: -1, consume: 1 };
  }
  return null;
}

function build(given: Draft): Part | null {
  const d = given.pastAnd ? draft(given.prefix, pastAfterAnd(given.toks), given.kind, given) : given;
  const first = d.toks[0];
  // The span ends at the last word: closing punctuation belongs to the sentence, not to one of its claims.
  let k = d.toks.length - 1;
  while (k >= 0 && d.toks[k]!.pos === 'PUNCT') k--;
  const last = d.toks[k] ?? d.toks[d.toks.length - 1];
  if (!first || !last) return null;
  let body = d.kind === 'attribute' ? '' : textOf(d.toks).replace(/^[,;\s]+|[,;\s]+$/g, '');
  if (d.kind === 'with' && d.prefix === '') body = withClause(d.toks);
  if (d.whom !== undefined) body = whomBody(d.toks, d.whom.antecedent, d.whom.prep);
  // One clause only, not its relatives'; a place in front, so each of its conjuncts takes it ("At FC Porto, he won").
  if (d.time && !d.toks.some(isComma)) body = `${body.replace(/[.!?]+$/, '')} ${d.time}`;
  if (d.place && !d.toks.some(isComma)) body = `${d.place.charAt(0).toUpperCase()}${d.place.slice(1)}, ${body}`;
  const text = [datedPast(d.kind, d.toks, d.prefix, body), body].filter((s) => s !== '').join(' ').replace(/\s+/g, ' ').trim();
  if (!/[a-z]/i.test(text)) return null;
  return part(text.charAt(0).toUpperCase() + text.slice(1), (d.lead ?? first).start, last.end, d.skip ? d.skip : undefined, d.attach);
}
