/** Noun phrases in wink's tokens: heads, plurals, a definite name for a head, the subject of a copula. */
import { retext, type Tok } from './nlp.js';
import { articleFor } from './text.js';

/** Tags of noun heads. */
export const NOUNISH = new Set(['NOUN', 'PROPN']);
const OBJECT_TO_SUBJECT: Record<string, string> = { him: 'he', her: 'she', them: 'they', it: 'it', he: 'he', she: 'she', they: 'they' };
/** Possessive determiners. */
export const POSSESSIVES = new Set(['its', 'his', 'her', 'their', 'my', 'our', 'your']);

/** A comma or semicolon. */
export const isComma = (t: Tok | undefined): boolean => t !== undefined && (t.text === ',' || t.text === ';');

/** "The dogs" -> plural; a head noun in -s (but not -ss/-us/-is) or a plural pronoun. */
export function pluralHead(t: Tok): boolean {
  if (t.pos === 'PROPN') return false;
  if (['people', 'men', 'women', 'children', 'they', 'them', 'both', 'several', 'many', 'police', 'sheep', 'feet', 'teeth', 'mice', 'geese'].includes(t.lower)) return true;
  return /[^su]s$/.test(t.lower) && !/(?:ss|us|is)$/.test(t.lower);
}

/** The noun phrase ending at head index h as a definite subject: "the parking meter", "John Smith". */
export function definite(toks: readonly Tok[], h: number, pair = false): string {
  const subjectForm = OBJECT_TO_SUBJECT[toks[h]?.lower ?? ''];
  if (toks[h]?.pos === 'PRON' && subjectForm) return subjectForm;
  if (toks[h]?.pos === 'PRON' && ['he', 'she', 'they'].includes(toks[h]!.lower)) return toks[h]!.lower;
  let a = h;
  while (a > 0 && NOUNISH.has(toks[a - 1]?.pos ?? '') && toks[a - 1]?.pos === toks[h]?.pos) a--;
  if (toks[h]?.pos === 'PROPN') {
    // "the University of Oxford, which ...", "the Book of Gates, which describes ...": the whole name, not its last
    // part ("Oxford is one of the oldest universities.", "Gates describes the journey of Ra." had been said).
    // A capitalised noun inside the sentence is a name's word too ("Book").
    const cap = (j: number): boolean => /^[A-Z]/.test(toks[j]?.text ?? '') && (toks[j]!.pos === 'PROPN' || (toks[j]!.pos === 'NOUN' && j > 0));
    let b = a;
    while (b > 1 && (toks[b - 1]!.lower === 'of' || toks[b - 1]!.lower === 'for') && cap(b - 2)) {
      b -= 2;
      while (b > 0 && cap(b - 1)) b--;
    }
    if (b === a) return textOf(toks.slice(a, h + 1));
    return `${toks[b - 1]?.lower === 'the' ? 'the ' : ''}${textOf(toks.slice(b, h + 1))}`;
  }
  // The noun's own modifiers come along ("his sharp breaking pitches, which ..." -> "his sharp breaking pitches
  // have ..."): a fact about the thing names it as the answer did. "a"/"an" becomes "the"; a possessive stays.
  let m = a;
  while (m > 0 && m > h - 6 && MODIFIER.has(toks[m - 1]?.pos ?? '') && !isComma(toks[m - 1])) m--;
  // "several suitcases and bags piled up on a cart": the participle is about both nouns.
  if (toks[m - 1]?.lower === 'and' && toks[m - 2]?.pos === 'NOUN' && toks[h]?.pos === 'NOUN') {
    m -= 2;
    while (m > 0 && m > h - 8 && MODIFIER.has(toks[m - 1]?.pos ?? '') && !isComma(toks[m - 1])) m--;
  }
  // With `pair` (a participle's subject): "a woman and a man standing on a pier" is about both ("the woman and the
  // man"); not the last of a longer list. A relative's verb says its own number ("a joke and a button that reveals").
  if (pair && ARTICLES.has(toks[m - 1]?.lower ?? '') && toks[m - 2]?.lower === 'and' && toks[m - 3]?.pos === 'NOUN' && toks[h]?.pos === 'NOUN'
    && ARTICLES.has(toks[m - 4]?.lower ?? '') && !isComma(toks[m - 5]) && toks[m - 5]?.lower !== 'and') {
    return `the ${toks[m - 3]!.lower} and the ${textOf(toks.slice(m, h + 1))}`;
  }
  if (isComma(toks[m - 1])) m = a; // "a large, old-fashioned clock": those adjectives are facts of their own
  while (m < h && QUANTITY.has(toks[m]!.lower)) m++; // "several bags" -> "the bags"
  const det = toks[m - 1];
  const lead = det && POSSESSIVES.has(det.lower) ? det.lower : 'the';
  return `${lead} ${textOf(toks.slice(m, h + 1))}`;
}
const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
const QUANTITY = new Set(['several', 'many', 'various', 'numerous', 'multiple', 'some', 'few']);
const ARTICLES = new Set(['a', 'an', 'the']);

// "Doug Sheehan is an actor who ...": a relative on the complement of "be" is about the subject, and the
// subject's name says more than "the actor". Returns the name (or pronoun) or null.
export function copulaSubject(toks: readonly Tok[], head: number, main: readonly Tok[]): string | null {
  const cop = main.findIndex((t) => t.pos === 'AUX' && ['is', 'was', 'are', 'were'].includes(t.lower));
  const copAt = cop > 0 ? toks.indexOf(main[cop]!) : -1;
  if (copAt < 0 || copAt > head) return null;
  // Only the complement's own head ("an actor", "a sculptor and architect"), not a noun inside a phrase after it.
  // "a British racing driver": an -ing word in front of the head is a modifier too.
  if (toks.slice(copAt + 1, head).some((t) => !['DET', 'ADJ', 'NOUN', 'PROPN', 'CCONJ', 'ADV', 'NUM'].includes(t.pos) && t.text !== ',' && !(t.pos === 'VERB' && /ing$/.test(t.lower)))) return null;
  // The subject up to an apposition or a parenthesis ("Fernando Luiz Rosa, commonly known as ...", "X (1922-1997)").
  const subject: Tok[] = [];
  for (const t of main.slice(0, cop)) {
    if (t.text === ',' || t.text === '(') break;
    subject.push(t);
  }
  if (subject.length === 0 || subject.length > 6 || subject.some((t) => ['VERB', 'AUX', 'ADP', 'SCONJ'].includes(t.pos))) return null;
  if (subject.length === 1 && ['he', 'she', 'they', 'it'].includes(subject[0]!.lower)) return subject[0]!.lower;
  if (subject[0]!.pos === 'PRON') return null;
  const text = textOf(subject);
  return subject[0]!.pos === 'DET' ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

// The nearest noun head before i, not crossing a verb; -1 if none within reach.
export function headBefore(toks: readonly Tok[], i: number): number {
  let low = i - 3;
  for (let j = i - 1; j >= 0 && j >= low; j--) {
    const t = toks[j];
    if (!t) break;
    // "Carlos Santana (baseball), who is ...": the name before a bracket, not the bracket's word.
    if (t.text === ')') {
      const open = toks.slice(Math.max(0, j - 6), j).map((x) => x.text).lastIndexOf('(');
      if (open < 0) break;
      const at = Math.max(0, j - 6) + open;
      low -= j - at + 1;
      j = at;
      continue;
    }
    if (NOUNISH.has(t.pos) || (t.pos === 'PRON' && ['they', 'it', 'he', 'she', 'him', 'her', 'them'].includes(t.lower))) return j;
    if (t.pos === 'VERB' || t.pos === 'AUX') break;
  }
  return -1;
}

// "a" or "an" before the adjective that now follows it ("a large, old clock" -> "an old clock").
export function withArticle(before: Tok[], adj: Tok): Tok[] {
  const det = before[before.length - 1];
  if (!det || (det.lower !== 'a' && det.lower !== 'an')) return before;
  const want = articleFor(adj.text);
  const text = det.text.charAt(0) === 'A' ? want.charAt(0).toUpperCase() + want.slice(1) : want;
  return [...before.slice(0, -1), retext(det, text, text.toLowerCase())];
}

/** Tokens back to text, with their own spacing. */
export function textOf(toks: readonly Tok[]): string {
  let out = '';
  toks.forEach((t, k) => {
    const glue = k === 0 || t.space === '' || /^[,.;:!?')]/.test(t.text) ? (k === 0 ? '' : t.space === '' ? '' : ' ') : ' ';
    out += glue + t.text;
  });
  return out;
}

/**
 * "seen her nominated for ...": "her" and a participle after it, the participle's subject. Not an -ing word: "her"
 * is then the possessive of a gerund ("related to her reporting on drug trafficking", "finished her schooling at
 * Thanamandi", "continuing her acting and singing career"), which had given "Khan finished her." and "Khan is
 * schooling at Thanamandi.".
 */
export function herObject(prev: Tok, t: Tok): boolean {
  return prev.lower === 'her' && !/ing$/.test(t.lower);
}

/**
 * An -ing word the tagger read as a noun after its adjectives ("a tall, skinny building", "an old painting"); not
 * after a noun ("a man standing on ...", which the tagger also reads as a noun).
 */
export function nounAfterModifier(toks: readonly Tok[], i: number): boolean {
  return (toks[i - 1]?.pos === 'ADJ' && toks[i - 2]?.pos === 'DET')
    || (['ADJ', 'NOUN'].includes(toks[i - 1]?.pos ?? '') && isComma(toks[i - 2]) && toks[i - 3]?.pos === 'ADJ');
}

/**
 * "an architecture firm located in Ybor City, Florida called Alfonso Architects Inc.": a naming participle ("called",
 * "named", "titled", "dubbed") after a place's name names the common noun before the place's phrase, not the place
 * ("Florida is called Alfonso Architects Inc." had been the claim). `head` as it was when there is no such noun.
 */
export function namedHead(toks: readonly Tok[], head: number, participle: Tok): number {
  if (head < 1 || toks[head]!.pos !== 'PROPN' || !/^(?:called|named|titled|dubbed)$/.test(participle.lower)) return head;
  let j = head;
  while (j > 0 && (/^\p{Lu}/u.test(toks[j - 1]!.text) || toks[j - 1]!.text === ',')) j--;
  if (!['in', 'at', 'near', 'outside', 'from'].includes(toks[j - 1]?.lower ?? '')) return head;
  for (let k = j - 2; k >= 0 && k >= j - 4; k--) {
    if (toks[k]!.pos === 'NOUN' && toks[k]!.text === toks[k]!.lower) return k;
    if (toks[k]!.pos !== 'VERB' && toks[k]!.pos !== 'ADV') break;
  }
  return head;
}

/**
 * "located in Ybor City, Florida called ...": the comma at `i` joins a place to its state or country, inside the
 * phrase that names them, so a clause part goes on past it (the state had gone to the main clause: "a president of an
 * architecture firm Florida").
 */
export function placeComma(toks: readonly Tok[], i: number): boolean {
  const cap = (t: Tok | undefined): boolean => t !== undefined && /^\p{Lu}/u.test(t.text);
  if (!cap(toks[i - 1]) || toks[i + 1]?.pos !== 'PROPN' || cap(toks[i + 2]) || toks[i + 2]?.text === ',') return false;
  let j = i - 1;
  while (j > 0 && cap(toks[j - 1])) j--;
  return ['in', 'at', 'near', 'from'].includes(toks[j - 1]?.lower ?? '');
}

/**
 * "are a dog sleeping on a couch, a ceiling fan, and a television": after a participle whose phrase is a place ("on a
 * couch"), a comma and a noun phrase that ends at the next comma, "and" or the end is the main clause's next item,
 * not more of the place ("The dog is sleeping on a couch, a ceiling fan, and a television." had been the claim).
 * `part` holds the participle part's words so far.
 */
export function listItemAfter(toks: readonly Tok[], j: number, part: readonly Tok[]): boolean {
  if (part.length < 3 || !/ing$/.test(part[0]!.lower) || part[1]!.pos !== 'ADP' || toks[j]?.pos !== 'DET') return false;
  let k = j + 1;
  while (k < toks.length && (toks[k]!.pos === 'ADJ' || toks[k]!.pos === 'NOUN')) k++;
  const end = toks[k];
  return k > j + 1 && toks[k - 1]!.pos === 'NOUN' && (end === undefined || end.text === ',' || end.lower === 'and' || /^[.!?]$/.test(end.text));
}
