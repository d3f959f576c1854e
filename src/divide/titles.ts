/**
 * Named works in a list after their category: "released three solo albums, "Leaving Town Alive" (2005), "Songs from
 * the Neighborhood" (2008) and "Tennessee Moon" (2012)", "starred in the films The Wedding Singer (1998) and Gracie
 * (2007)". FActScore's annotators wrote one fact per title and kind ("Tennessee Moon is a solo album.") and one per
 * year ("Tennessee Moon was released in 2012."). Titles are capitalised or quoted, so the shapes world has none.
 */
import type { Tok } from './nlp.js';

/** One listed title: its words, the span [start, end) of the title in the answer, and a year given with it. */
export interface Title {
  text: string;
  start: number;
  end: number;
  year?: string;
}

/** A list of titles and the category noun phrase before it ("solo albums"). */
export interface TitleList {
  category: string;
  titles: Title[];
}

const OPEN_QUOTES = new Set(['"', '“', "'", '‘']);
const CLOSE_QUOTES = new Set(['"', '”', "'", '’']);
// Lower-case words inside a title ("Songs from the Neighborhood", "East of Eden"), when a capital follows.
const CONNECTORS = new Set(['of', 'the', 'a', 'an', 'in', 'on', 'at', 'for', 'to', 'from', 'with', 'by', 'de', 'la', 'del', 'du', 'le', '&', ':', '–', "'s", '’s']);
// Heads of categories whose members are works released at a date.
export const WORKS = /^(?:films?|movies?|series|shows?|dramas?|albums?|singles?|songs?|books?|novels?|mixtapes?|tapes?|EPs?|records?|plays?|musicals?|documentar(?:y|ies)|sitcoms?|soap operas?|games?|video games?|programs?|programmes?|telenovelas?|miniseries|collections?|memoirs?|poems?|operas?)$/i;
const YEAR = /^(?:1[89]|20)\d\d$/;
const capital = (t: Tok | undefined): boolean => t !== undefined && /^[A-Z0-9]/.test(t.text) && /[A-Za-z]/.test(t.text);

const words = (toks: readonly Tok[]): string => toks.map((t, k) => (k > 0 && t.space !== '' ? ' ' : '') + t.text).join('');

/**
 * The title starting at token i (quoted or capitalised), and the index after it; null when none starts there. `list`:
 * an item of a list of works after their kind, whose titles end at the list's commas and "and".
 */
export function titleAt(toks: readonly Tok[], i: number, list = false): { toks: Tok[]; next: number } | null {
  const t = toks[i];
  if (t === undefined) return null;
  if (OPEN_QUOTES.has(t.text) && capital(toks[i + 1])) {
    for (let k = i + 1; k < toks.length && k <= i + 20; k++) {
      if (!CLOSE_QUOTES.has(toks[k]!.text)) continue;
      const inner = toks.slice(i + 1, k).filter((x, j, a) => !(j === a.length - 1 && /^[,.]$/.test(x.text)));
      return inner.length > 0 ? { toks: inner, next: k + 1 } : null;
    }
    return null;
  }
  // A capitalised pronoun after a list's comma, its kind, or an "and" after a year in brackets opens a title ("the
  // films Boy (2010), What We Do in the Shadows (2014)"); elsewhere it is a subject ("He ...") or a title's inner word
  // ("The Liar and His Lover").
  const listed = toks[i - 1]?.text === ',' || toks[i - 1]?.pos === 'NOUN' || (/^(?:and|or)$/.test(toks[i - 1]?.lower ?? '') && toks[i - 2]?.text === ')');
  if (!capital(t) || (t.pos === 'PRON' && (t.text === 'I' || !listed))) return null;
  const end = (article: boolean): number => {
    let k = i + 1;
    while (k < toks.length) {
      const w = toks[k]!;
      if (capital(w) || (/^\d+$/.test(w.text) && !YEAR.test(w.text))) k++;
      else if (CONNECTORS.has(w.lower) && capital(toks[k + 1])) k += 2;
      else if (w.lower === 'of' && toks[k + 1]?.lower === 'the' && capital(toks[k + 2])) k += 3; // "Queen of the South"
      // "What We Do in the Shadows", "Hunt for the Wilderpeople": a preposition and an article inside the title.
      else if (article && PREPOSITION_IN_TITLE.has(w.lower) && /^(?:the|a|an)$/.test(toks[k + 1]?.lower ?? '') && capital(toks[k + 2])) k += 3;
      else break;
    }
    return k;
  };
  const plain = end(false);
  // The article reading differs only where the plain one stopped at such a preposition: read it only there.
  const long = PREPOSITION_IN_TITLE.has(toks[plain]?.lower ?? '') ? end(true) : plain;
  // The longer reading only where a year or a note in brackets follows, or a list's item ends ("One Day at a Time and
  // Ben Lummis"); "the film Jojo Rabbit in the United States" and "Joe Joyce for the British, ..." keep their names.
  const k = long > plain && (toks[long]?.text === '(' || (list && LIST_END.has(toks[long]?.lower ?? '.'))) ? long : plain;
  return { toks: toks.slice(i, k), next: k };
}
const LIST_END = new Set([',', 'and', 'or', '.', ';']);
const PREPOSITION_IN_TITLE = new Set(['in', 'on', 'at', 'for', 'from', 'with', 'to', 'into', 'under', 'over', 'by']);

// "(2005)", "(1992–1998)" or "in 2017" after a title: its year, and the index after it.
function yearAt(toks: readonly Tok[], i: number): { year?: string; next: number } {
  if (toks[i]?.text === '(' && YEAR.test(toks[i + 1]?.text ?? '') && toks[i + 2]?.text === ')') return { year: toks[i + 1]!.text, next: i + 3 };
  if (toks[i]?.lower === 'in' && YEAR.test(toks[i + 1]?.text ?? '')) return { year: toks[i + 1]!.text, next: i + 2 };
  return { next: i };
}

// The titles of a list starting at i, separated by commas, "and" and "or", up to where no title follows; `cut` when
// the clause went on after a title's "in YEAR".
function titlesFrom(toks: readonly Tok[], i: number, bare: boolean): Title[] & { cut?: boolean } {
  const out: Title[] & { cut?: boolean } = [];
  for (let k = i, title = titleAt(toks, k, true); title !== null; title = titleAt(toks, k, true)) {
    if (title.toks.length > 12) return [];
    const { year, next } = yearAt(toks, title.next);
    out.push({ text: words(title.toks), start: title.toks[0]!.start, end: title.toks[title.toks.length - 1]!.end, ...(year !== undefined ? { year } : {}) });
    // "the US series The Making of the Mob: Chicago in 2016 and Victor Lownes in American Playboy: ...": after "in
    // 2016" the clause goes on ("and [played] Victor Lownes in ..."), unless the list stands apart after a comma
    // ("two solo albums, The Prince in 2017 and Emotional Rollercoaster in 2018").
    if (bare && toks[title.next]?.lower === 'in' && year !== undefined && ['and', ','].includes(toks[next]?.lower ?? '')) {
      out.cut = true;
      break;
    }
    k = next;
    if (toks[k]?.text === ',') k++;
    if (['and', 'or'].includes(toks[k]?.lower ?? '')) k++;
    if (k === next) break;
  }
  return out;
}

/**
 * Lists of titles right after a plural category ("the films A and B", "two albums, A and B") or one title after a
 * singular work ("the 1912 film The Loyal 47 Ronin" is left to the naming of kinds). Categories are work nouns.
 */
export function titleLists(toks: readonly Tok[]): TitleList[] {
  const out: TitleList[] = [];
  for (let h = 1; h < toks.length - 1; h++) {
    const head = toks[h]!;
    if (head.pos !== 'NOUN' || head.text !== head.lower || !WORKS.test(head.text) || !/s$/.test(head.lower)) continue;
    const at = toks[h + 1]!.text === ',' ? h + 2 : h + 1;
    const titles = titlesFrom(toks, at, at === h + 1);
    if (titles.length < (titles.cut ? 1 : 2)) continue;
    let m = h;
    // "the Broadway musicals A and B": a capitalised word right after "the" is the category's too; so are a
    // nationality and an initialism ("the Australian TV series "The Grudge 2" and "Bedtime Stories."": each title
    // is an Australian TV series, as the kind of a single title says).
    const named = (j: number): boolean => (toks[j]!.pos === 'PROPN' && toks[j - 1]?.lower === 'the') || /^[A-Z]{2,3}$/.test(toks[j]!.text);
    const kindWord = (t: Tok): boolean => (t.pos === 'NOUN' && t.text === t.lower) || (t.pos === 'ADJ' && /^(?:[a-z]|[A-Z][a-z]+n$)/.test(t.text));
    while (m > 0 && h - m < 4 && (kindWord(toks[m - 1]!) || named(m - 1))) m--;
    out.push({ category: words(toks.slice(m, h + 1)), titles });
  }
  return out;
}

/** "solo albums" -> "solo album", "series" -> "series", "movies" -> "movie". */
export function singularOf(category: string): string {
  if (/(?:series|species)$/.test(category)) return category;
  if (/(?:movie|cookie|zombie|rookie|goalie|hippie|selfie)s$/.test(category)) return category.slice(0, -1);
  // A singular kind stays ("actress Lee Bo Young" -> "an actress", not "an actres").
  return category.replace(/ies$/, 'y').replace(/(ch|sh|ss|x)es$/, '$1').replace(/([^su])s$/, '$1');
}

