/**
 * Facts a sentence states about the names in it, beyond its clauses: "born in Lockhart, New South Wales" says
 * Lockhart is in New South Wales; "plays for Premier League club Manchester City" says Manchester City is a Premier
 * League club; "films such as Yuma" says Yuma is a film. FActScore's annotators wrote each of these as a fact of its
 * own ("Madrid is in Spain.", "Bologna is an Italian Serie A club.", "Yuma is a film."). Names only: capitalised
 * words the tagger reads as proper nouns, so the shapes world's English ("a red circle in the middle") gives none.
 */
import { flatMapOf } from './arrays.js';
import { titledItem } from './item-title.js';
import { retext, type Tok } from './nlp.js';
import { NAME_PARTICLES, PREPOSITIONS } from './lexicon.js';
import { articleFor } from './text.js';
import { timedNounPhrase } from './time-np.js';
import { singularOf, titleAt, titleLists, WORKS } from './titles.js';
import { placeAfterKind } from './kind-place.js';

/** A naming fact and the span [start, end) of the words it came from. */
export interface NamingFact {
  claim: string;
  start: number;
  end: number;
}

const isName = (t: Tok | undefined): boolean => t !== undefined && ['PROPN', 'NOUN'].includes(t.pos) && /^[A-Z]/.test(t.text);
const words = (toks: readonly Tok[]): string => toks.map((t, k) => (k > 0 && t.space !== '' ? ' ' : '') + t.text).join('');

// The proper-noun run starting at i (may be empty); with `linked`, names joined by "of" or a particle count as one
// ("University of California", "Autlan de Navarro").
function nameRun(toks: readonly Tok[], i: number, linked = false): Tok[] {
  const run: Tok[] = [];
  for (let k = i; isName(toks[k]) || (linked && run.length > 0 && toks[k] !== undefined && LINKS.has(toks[k]!.lower) && isName(toks[k + 1])); k++) run.push(toks[k]!);
  return run;
}

// "in Moradabad, Uttar Pradesh, India" -> Moradabad is in Uttar Pradesh; Uttar Pradesh is in India. Also after
// "at" and with "the" ("at the University of California, Berkeley", "in the Bronx, New York"), and the second of two
// names after "and" ("at Eton College and Balliol College, Oxford"). Not a list ("in London, Paris and Rome"), not
// a fronted phrase ("In London, Smith ..." at the sentence start).
function placeFacts(toks: readonly Tok[]): NamingFact[] {
  const out: NamingFact[] = [];
  let andLead = -1;
  for (let i = 1; i < toks.length; i++) {
    if (!PLACE_LEADS.has(toks[i]!.lower) && i !== andLead) continue;
    const the = toks[i + 1]?.lower === 'the' && isName(toks[i + 2]) ? 1 : 0;
    const runs: Tok[][] = [];
    let k = i + 1 + the;
    for (let run = nameRun(toks, k, true); run.length > 0; run = nameRun(toks, k, true)) {
      runs.push(run);
      k += run.length;
      if (toks[k]?.text !== ',' || !isName(toks[k + 1])) break;
      k++;
    }
    const after = toks[k];
    // "in the United States, Europe, and Asia": a list, the last item after ", and".
    const c = after?.text === ',' ? k + 1 : k;
    const list = toks[c]?.pos === 'CCONJ' && ['PROPN', 'DET', 'NOUN'].includes(toks[c + 1]?.pos ?? '');
    // "at Eton College and Balliol College, Oxford": the name after "and" may be placed in its turn.
    if (runs.length === 1 && after?.lower === 'and' && isName(toks[k + 1])) {
      andLead = k;
      i = k - 1;
      continue;
    }
    // "as Friar Carl in Van Helsing, Dilios in 300": roles each in a work, no place in a place.
    const roles = isName(toks[i - 1]) && after?.lower === 'in' && toks.some((t) => t.lower === 'roles');
    if (runs.length < 2 || list || roles || after?.lower === "'s" || after?.text === ':' || after?.pos === 'VERB' || after?.pos === 'AUX') continue;
    for (let r = 0; r + 1 < runs.length; r++) {
      const a = runs[r]!;
      const b = runs[r + 1]!;
      // "featured in Forbes, Inc., and other publications": a company's suffix or a list's next name, no place.
      if (/^(?:Inc|Ltd|Co|Corp|LLC|plc|GmbH|AG|SA)\.?$/.test(words(b))) continue;
      const thing = `${r === 0 && the ? 'The ' : ''}${words(a)}`;
      out.push({ claim: `${thing} is in ${words(b).replace(/\.$/, '')}.`, start: a[0]!.start, end: b[b.length - 1]!.end });
    }
    i = k;
  }
  return out;
}
const PLACE_LEADS = new Set(['in', 'from', 'at']);
// "attended the School of Visual Arts in New York City", "plays for the Canterbury-Bankstown Bulldogs in the
// National Rugby League": a named object placed in a named place, "The School of Visual Arts is in New York City."
function locatedFacts(toks: readonly Tok[]): NamingFact[] {
  const out: NamingFact[] = [];
  for (let i = 2; i < toks.length - 1; i++) {
    if (toks[i]!.lower !== 'in') continue;
    let a = i - 1;
    if (!named(toks[a])) continue;
    while (a > 0 && (named(toks[a - 1]) || (LINKS.has(toks[a - 1]!.lower) && named(toks[a - 2])))) a -= LINKS.has(toks[a - 1]!.lower) ? 2 : 1;
    const before = toks[a - 1];
    // "his role as Faramir in The Lord of the Rings": a role is in a work, not a place.
    if (before === undefined || !['DET', 'ADP', 'VERB'].includes(before.pos) || before.lower === 'in' || (before.lower === 'as' && toks[a - 2]?.lower !== 'such')) continue;
    const y = toks[i + 1]?.lower === 'the' ? i + 2 : i + 1;
    let e = y;
    while (e < toks.length && (named(toks[e]) || (LINKS.has(toks[e]!.lower) && named(toks[e + 1])))) e += LINKS.has(toks[e]!.lower) ? 2 : 1;
    // "played Sam Giancana in the US series ...": a name before a common noun modifies it, it is no place.
    // So does one before an adjective ("in the Netflix animated series ...": "Tuca is in the Netflix." had been said).
    const modifier = (['NOUN', 'ADJ'].includes(toks[e]?.pos ?? '') || (toks[e]?.pos === 'VERB' && /ed$/.test(toks[e]!.text))) && toks[e]!.text === toks[e]!.lower;
    if (e === y || MONTHS.has(toks[y]!.lower) || toks[e]?.pos === 'NUM' || toks[e]?.lower === "'s" || modifier) continue;
    const thing = `${before.lower === 'the' ? 'The ' : ''}${words(toks.slice(a, i))}`;
    out.push({ claim: `${thing} is in ${words(toks.slice(i + 1, e))}.`, start: toks[a]!.start, end: toks[e - 1]!.end });
  }
  return out;
}
const LINKS = new Set(['of', 'for', 'de', 'del', 'della', 'delle', 'degli', 'da', 'di', '&']);
// A capitalised word of a name, whatever the tagger read ("Canterbury-Bankstown" as an adjective).
const named = (t: Tok | undefined): boolean => t !== undefined && /^[A-Z]/.test(t.text) && !['DET', 'PRON', 'ADP', 'CCONJ', 'SCONJ', 'AUX'].includes(t.pos);
const MONTHS = new Set('january february march april may june july august september october november december'.split(' '));

const POSSESSIVE = /^(?:his|her|their|its)$/i;
const WRITTEN = /^(?:vs|text|texts|words?|caption|message|sign|inscription|writing|letters)$/;

// "Premier League club Manchester City", "the popular bachata group Aventura": a common noun right before a name,
// with its modifiers, says what the name is.
function kindFacts(toks: readonly Tok[]): NamingFact[] {
  const out: NamingFact[] = [];
  for (let k = 1; k < toks.length; k++) {
    const noun = toks[k - 1]!;
    // "Eagle vs Shark": "vs" inside a title is no kind; nor is what a text says ('the text "Liging Cable"').
    if (noun.pos !== 'NOUN' || noun.text !== noun.lower || NAME_PARTICLES.has(noun.lower) || WRITTEN.test(noun.lower)) continue;
    // "the consulting firm McKinsey & Company", "the film The Virgin Suicides", "the ABC drama series, The
    // Forgotten." (after a comma only when the title ends the clause).
    const comma = toks[k]!.text === ',' ? 1 : 0;
    const title = titleAt(toks, k + comma);
    // A quoted title may open with a pronoun ('the romantic comedy, "My Fair Lady."').
    const quoted = /^["“]$/.test(toks[k + comma]!.text) && (WORKS.test(noun.lower) || noun.lower === 'comedy');
    // "a .50 caliber McMillan TAC-50 rifle": a name before a lower-case noun modifies it and is no kind's.
    const modifies = title !== null && toks[title.next]?.pos === 'NOUN' && toks[title.next]!.text === toks[title.next]!.lower;
    if (title === null || title.toks.length > 10 || (title.toks[0]!.pos === 'PRON' && !quoted) || toks[title.next]?.lower === "'s" || modifies) continue;
    // "his crime drama, Shiva (1989), which ...": a year in brackets may follow the title.
    const year = toks[title.next]?.text === '(' && /^\d{4}$/.test(toks[title.next + 1]?.text ?? '') && toks[title.next + 2]?.text === ')';
    if (comma === 1 && !/^[.,;]?$/.test(toks[title.next]?.text ?? '') && !year) continue;
    // A title's first word may be any word ("That Night", "One Direction") when a name's word follows it, or after
    // a kind of work when the title ends the phrase ("the American film Fast Five.", "the film series Tora-san.").
    const named = title.toks[0]!.pos === 'PROPN' || title.toks[1]?.pos === 'PROPN' || /^["“']$/.test(toks[k]!.text) ||
      (WORKS.test(noun.lower) && title.toks.length <= 4 && /^[.,;(]?$/.test(toks[title.next]?.text ?? ''));
    if (comma === 0 && !named) continue;
    let m = k - 1;
    // "Italian Serie A club Bologna", "Ligue 1 club Troyes": a league's letter or number is in the kind.
    const league = (j: number): boolean => /^(?:[A-Z]|\d)$/.test(toks[j]!.text) && toks[j - 1]?.pos === 'PROPN';
    while (m > 0 && m > k - 6 && (['ADJ', 'NOUN', 'PROPN'].includes(toks[m - 1]!.pos) || league(m - 1))) m--;
    // "The Lord of the Rings film trilogy, Friar Carl in ...": a kind that starts inside a title names no kind.
    if (toks[m]!.pos === 'PROPN' && toks[m - 1]?.lower === 'the' && toks[m - 2]?.lower === 'of' && /^[A-Z]/.test(toks[m - 3]?.text ?? '')) continue;
    const last = title.toks[title.toks.length - 1]!;
    // "his hometown club, Coritiba", "her second husband, Charles Farrell": a possessive's kind names the owner's one
    // thing ("His hometown club is Coritiba.", as FActScore's annotators wrote it), where "Coritiba is a hometown
    // club." says nothing of whose.
    const owner = POSSESSIVE.exec(toks[m - 1]?.text ?? '')?.[0];
    if (owner !== undefined && k - m <= 4 && !/[^s]s$/.test(noun.lower)) {
      out.push({ claim: `${owner.charAt(0).toUpperCase()}${owner.slice(1)} ${words(toks.slice(m, k))} is ${words(title.toks).replace(/\.$/, '')}.`, start: toks[m - 1]!.start, end: last.end });
      k = title.next;
      continue;
    }
    let kind = singularOf(words(toks.slice(m, k)));
    // "his first film, Grumpy (1930)", "two further albums, King (2013)": an order is the sentence's, not the kind's.
    if (year) kind = kind.replace(/^(?:first|second|third|further|other|next|last|latest|later|earlier|previous) /, '');
    // "his own television program, "The Kyu-chan Show"": "own" is the possessive's, not the kind's.
    kind = kind.replace(/^own /, '');
    out.push({ claim: `${words(title.toks)} is ${articleFor(kind)} ${kind}.`, start: toks[m]!.start, end: last.end });
    k = title.next;
  }
  return out;
}

// "several successful shows such as A, B and C" -> A is a successful show; ... Whatever stands before the list.
function exampleFacts(toks: readonly Tok[]): NamingFact[] {
  const out: NamingFact[] = [];
  for (let i = 1; i < toks.length; i++) {
    const such = toks[i]!.lower === 'such' && toks[i + 1]?.lower === 'as';
    // "films like A and B" as well, after a plural noun only ("looks like" compares).
    const like = toks[i]!.lower === 'like' && toks[i - 1]?.pos === 'NOUN' && /[^s]s$/.test(toks[i - 1]!.lower);
    if (!such && !like && toks[i]!.lower !== 'including') continue;
    // "clubs in Italy, including Parma": the kind ends before its place, which each example's fact keeps (kind-place.ts).
    const placed = placeAfterKind(toks, i - (toks[i - 1]?.text === ',' ? 1 : 0));
    let c = placed?.at ?? i - (toks[i - 1]?.text === ',' ? 1 : 0);
    const end = c;
    // The tagger may read a plural head before "such as" as a verb ("television shows such as").
    if (toks[c - 1]?.pos === 'VERB' && /[^s]s$/.test(toks[c - 1]!.lower) && ['NOUN', 'ADP', 'DET', 'ADJ'].includes(toks[c - 2]?.pos ?? '')) c--;
    while (c > 0 && c > end - 6 && ['ADJ', 'NOUN', 'PROPN', 'NUM'].includes(toks[c - 1]!.pos)) c--;
    // "many critically acclaimed games": an adverb in -ly before the kind's adjective is the kind's ("Ikaruga is a
    // critically acclaimed game.", as the annotators wrote it; "an acclaimed game" says less than the sentence).
    if (c < end && toks[c]!.pos === 'ADJ' && toks[c - 1]?.pos === 'ADV' && /^[a-z]{4,}ly$/.test(toks[c - 1]!.text)) c--;
    if (c === end) continue;
    // "the minimalist sculptors of the 1960s, including Carl Andre": the examples are of the sculptors (time-np.ts).
    const timed = timedNounPhrase(toks.slice(0, end).map((t) => t.lower));
    const category = words(timed === null ? topicsOf(toks, c) ?? toks.slice(c, end) : toks.slice(timed[0], timed[1]));
    let k = i + (such ? 2 : 1);
    let item: Tok[] = [];
    const flush = (): void => {
      item = titledItem(item, category).filter((t) => !/^["“”]$/.test(t.text)); // a title's quotes, split by the list's commas
      while (item.length > 0 && /^[,.]$/.test(item[item.length - 1]!.text)) item.pop();
      const fits = item.length <= 10 || (item.length <= MAX_TITLE && item.every((t) => /^[A-Z]/.test(t.text) || TITLE_INNER.has(t.lower)));
      const kind = item.length > 0 && fits ? exampleKind(category, words(item)) : null;
      if (kind !== null) out.push({ claim: placed === null ? kind : `${kind.slice(0, -1)} ${placed.text}.`, start: item[0]!.start, end: item[item.length - 1]!.end });
      item = [];
    };
    let quoted = false;
    let commas = 0;
    // A colon before a capital is a title's ("Law & Order: Special Victims Unit"), not the end of the list.
    const subtitle = (j: number): boolean => toks[j]!.text === ':' && /^[A-Z0-9]/.test(toks[j + 1]?.text ?? '') && item.length > 0;
    for (; k < toks.length && (!['.', ';', ':', '!', '?'].includes(toks[k]!.text) || subtitle(k)); k++) {
      const t = toks[k]!;
      if (t.text === ',') commas++;
      if (/^["“”]$/.test(t.text)) {
        const closes = quoted;
        quoted = t.text === '“' || (t.text === '"' && !quoted);
        if (closes) flush(); // a quoted title is one item, its commas inside ("Good Day,") or not
      }
      // ", and television shows such as ...": a second list with a category of its own.
      if ((t.lower === 'such' && toks[k + 1]?.lower === 'as') || t.lower === 'including') {
        item = [];
        k -= 1;
        break;
      }
      if ((t.text === ',' && !quoted) || (!quoted && (t.lower === 'and' || t.lower === 'or') && !andInItem(toks, k, commas))) flush();
      else if (t.text === '(') {
        // "All In (2003)": a year or a note in brackets is not part of the name (and its length).
        const close = toks.findIndex((x, j) => j > k && x.text === ')');
        if (close > k && close - k < 8) k = close;
        else item.push(t);
      } else item.push(t);
      if (item.length > MAX_TITLE) break;
    }
    flush();
    i = k;
  }
  return out;
}

// "..., Blood In Blood Out, Tom and Huck and Home Fries": after a comma of the list, an "and" with another "and" after it
// and no comma between is inside a title; only the last one ends the list. After ", and" (the list's), any "and"
// before the next comma is a title's ("..., and Forecasting Love and Weather").
function andInItem(toks: readonly Tok[], k: number, commas: number): boolean {
  // "Minister of International Trade and Industry and Minister of Finance": with no comma, an "and" between an "of"
  // name and one capitalised word that another "and" follows is inside the name ("Industry is a cabinet position."
  // had been said).
  if (commas === 0 && toks[k]!.lower === 'and' && /^[A-Z][a-z]+$/.test(toks[k + 1]?.text ?? '') && toks[k + 2]?.lower === 'and'
    && toks.slice(Math.max(0, k - 4), k).some((t) => t.lower === 'of')) return true;
  if (commas === 0 || toks[k]!.lower !== 'and' || toks[k - 1]?.text === ',') return false;
  for (let j = k - 1; j > 0 && toks[j]!.text !== ','; j--) if (toks[j]!.lower === 'and' && toks[j - 1]?.text === ',') return true;
  for (let j = k + 1; j < toks.length; j++) {
    const x = toks[j]!.text;
    if ([',', '.', ';', ':', '!', '?', '"', '“', '”'].includes(x)) return false;
    if (toks[j]!.lower === 'and') return true;
  }
  return false;
}

// The words of one example at most: "Scientist Rids the World of the Evil Curse of the Vampires" has 11; over 10,
// only capitalised words and a title's small words ("... where she played Mari Collingwood" is no title).
const MAX_TITLE = 14;
const TITLE_INNER = new Set(['of', 'the', 'a', 'an', 'in', 'on', 'at', 'for', 'to', 'from', 'with', 'by', 'and', '&', ':', "'s", '’s', '-', '–']);

// "several books on politics, philosophy and public policy, including X": the examples are books, not topics. A
// counted plural noun before a preposition whose objects, up to the list at c, are plain words ("Canadian politics and
// society") joined by commas or "and".
function topicsOf(toks: readonly Tok[], c: number): Tok[] | null {
  let p = c - 1;
  while (p > 0 && p > c - 12 && (['NOUN', 'PUNCT', 'CCONJ'].includes(toks[p]!.pos) ? toks[p]!.text === toks[p]!.lower : toks[p]!.pos === 'ADJ')) p--;
  if (!['on', 'of', 'about'].includes(toks[p]?.lower ?? '') || !toks.slice(p, c).some((t) => t.text === ',' || t.lower === 'and')) return null;
  const head = toks[p - 1];
  if (head?.pos !== 'NOUN' || !/[^su]s$/.test(head.lower) || !['several', 'many', 'numerous', 'various'].includes(toks[p - 2]?.lower ?? '')) return null;
  return [head];
}

// "three solo albums, "Leaving Town Alive" (2005) and ..." -> Leaving Town Alive is a solo album.
function titleFacts(toks: readonly Tok[]): NamingFact[] {
  return flatMapOf(titleLists(toks), (list) => {
    // "two more albums, Choices and Leisure": each is an album, not "a more album".
    const kind = singularOf(list.category).replace(/^(?:more|further|other|additional)\s+/, '');
    // A title led by a preposition ("Without a Trace") would read as a fronted place in its question.
    return list.titles.filter((t) => !PREPOSITIONS.has(t.text.split(' ')[0]!.toLowerCase())).map((t) => ({ claim: `${t.text} is ${articleFor(kind)} ${kind}.`, start: t.start, end: t.end }));
  });
}

// "A Bronx Tale (1993)", "The Prince in 2017" in a sentence about works: the year a work came out, as the
// annotators wrote it ("A Bronx Tale was released in 1993.").
function releaseFacts(toks: readonly Tok[]): NamingFact[] {
  if (!toks.some((t) => t.text === t.lower && WORKS.test(t.text))) return [];
  const out: NamingFact[] = [];
  for (let k = 1; k + 2 < toks.length; k++) {
    if (toks[k]!.text !== '(' || !YEAR.test(toks[k + 1]!.text) || toks[k + 2]!.text !== ')') continue;
    const title = titleBefore(toks, k);
    if (title !== null) out.push({ claim: `${title.text} was released in ${toks[k + 1]!.text}.`, start: title.start, end: toks[k + 2]!.end });
  }
  return out;
}
const YEAR = /^(?:1[89]|20)\d\d$/;

// The title that ends right before token k: quoted, or capitalised words with "of", "the" and the like inside.
function titleBefore(toks: readonly Tok[], k: number): { text: string; start: number } | null {
  let a = k - 1;
  if (/^["”']$/.test(toks[a]?.text ?? '')) {
    const open = toks.slice(Math.max(0, a - 20), a).map((t) => t.text).lastIndexOf(toks[a]!.text === '”' ? '“' : toks[a]!.text);
    if (open < 0) return null;
    const from = Math.max(0, a - 20) + open + 1;
    const inner = toks.slice(from, a).filter((t, j, all) => !(j === all.length - 1 && /^[,.]$/.test(t.text)));
    return inner.length > 0 && /^[A-Z0-9]/.test(inner[0]!.text) ? { text: words(inner), start: inner[0]!.start } : null;
  }
  const cap = (t: Tok | undefined): boolean => t !== undefined && /^[A-Z0-9]/.test(t.text) && t.text !== 'I';
  if (!cap(toks[a])) return null;
  // "There's No Business Like Show Business (1954)", "You're All Surrounded": a contraction is inside the title
  // ("Cameron Crowe's Singles" is not: an "'s" only after "There", "What", "Nobody" and the like).
  const clitic = (j: number): boolean => toks[j]!.space === '' && (/^['’](?:re|ll|ve|m)$/.test(toks[j]!.lower) ||
    (/^['’]s$/.test(toks[j]!.lower) && CONTRACTED.test(toks[j - 1]?.lower ?? '')));
  // In title case an article after the first word is lower-case: "Johnny Ola in The Godfather Part II (1974)" is a
  // role in a title that starts at "The", not one title.
  const opens = (j: number): boolean => /^(?:The|A|An)$/.test(toks[j]!.text) && TITLE_WORDS.has(toks[j - 1]?.lower ?? '') && toks[j - 1]!.text === toks[j - 1]!.lower;
  while (a > 0 && !opens(a)) {
    if (cap(toks[a - 1]) || ((TITLE_WORDS.has(toks[a - 1]!.lower) || clitic(a - 1) || toks[a - 1]!.text === ':') && cap(toks[a - 2]))) a--;
    // "What We Do in the Shadows (2014)", "Hunt for the Wilderpeople (2016)", "The Life of an Actor (1917)": a
    // preposition and its article.
    else if (/^(?:the|a|an)$/.test(toks[a - 1]!.text) && TITLE_WORDS.has(toks[a - 2]?.lower ?? '') && toks[a - 2]!.text === toks[a - 2]!.lower && cap(toks[a - 3])) a -= 2;
    else break;
  }
  if (toks[a]!.text === toks[a]!.lower) a++;
  return a < k ? { text: words(toks.slice(a, k)), start: toks[a]!.start } : null;
}
const CONTRACTED = /^(?:there|here|what|that|it|who|where|nobody|somebody|everybody|let|he|she)$/;
const TITLE_WORDS = new Set(['of', 'the', 'a', 'an', 'in', 'on', 'at', 'for', 'to', 'from', 'with', '&', 'de', 'la']);

// "Robert Louis Stevenson (13 November 1850 – 3 December 1894)", "Anna May Wong (1905–1961)": when the person
// was born and died, two facts as the annotators wrote them ("Anna May Wong was born in 1905."). Only for the
// sentence's subject, the name it opens with: years after a name inside the sentence date a title or a post ("the
// series Melrose Place (1992–1999)", "Ambassador to the United Kingdom (1998–2002)"), not a life.
function lifeFacts(toks: readonly Tok[]): NamingFact[] {
  const out: NamingFact[] = [];
  for (let k = 1; k < toks.length; k++) {
    if (toks[k]!.text !== '(' || toks[k - 1]!.pos !== 'PROPN') continue;
    const close = toks.findIndex((t, j) => j > k && t.text === ')');
    const inner = close > k ? toks.slice(toks[k + 1]?.lower === 'born' ? k + 2 : k + 1, close) : [];
    const dash = inner.findIndex((t) => /^[–—-]$/.test(t.text) || t.lower === 'to');
    let sides = dash > 0 ? [inner.slice(0, dash), inner.slice(dash + 1)] : [];
    // "(1937-2010)" arrives as one token.
    const span = inner.length === 1 ? /^(\d{4})[–—-](\d{4})$/.exec(inner[0]!.text) : null;
    if (span) sides = [[retext(inner[0]!, span[1]!, inner[0]!.lower)], [retext(inner[0]!, span[2]!, inner[0]!.lower)]];
    if (sides.length === 0 || !sides.every((x) => x.length <= 5 && x.some((t) => YEAR.test(t.text)) && x.every((t) => t.pos !== 'PUNCT' || t.text === ','))) continue;
    sides = sides.map((x) => (x[x.length - 1]?.text === ',' ? x.slice(0, -1) : x));
    let a = k - 1;
    while (a > 0 && (/^[A-Z]/.test(toks[a - 1]!.text) && !['DET', 'PRON', 'ADP'].includes(toks[a - 1]!.pos) || NAME_PARTICLES.has(toks[a - 1]!.lower))) a--;
    if (a > 0) continue;
    const name = words(toks.slice(a, k));
    const when = (x: Tok[]): string => `${x.length === 1 ? 'in' : 'on'} ${words(x)}`;
    out.push({ claim: `${name} was born ${when(sides[0]!)}.`, start: toks[a]!.start, end: toks[close]!.end });
    out.push({ claim: `${name} died ${when(sides[1]!)}.`, start: toks[a]!.start, end: toks[close]!.end });
  }
  return out;
}

/** The naming facts of one sentence's tokens, in order. */
export function namingFacts(toks: readonly Tok[]): NamingFact[] {
  return [...placeFacts(toks), ...kindFacts(toks), ...exampleFacts(toks), ...titleFacts(toks), ...releaseFacts(toks), ...lifeFacts(toks), ...locatedFacts(toks)]
    .sort((a, b) => a.start - b.start);
}

const QUANTIFIERS = /^(?:(?:a\s+)?(?:number|string|series|variety|host|range|couple|few)\s+of\s+|(?:over\s+|more\s+than\s+)?\d+\s+|several\s+|numerous\s+|various\s+|many\s+|some\s+|other\s+|more\s+|the\s+|its\s+|his\s+|her\s+|their\s+)+/i;

// "the Royal Bank of Scotland": two or more words after "the", each capitalised or a name's function word; not "the
// 9/11 attacks", "the Premier League Golden Boot twice", "the British".
const NAMED_WITH_THE = /^the (?:[A-Z0-9][\w'’.&-]*|of|the|for|and|de|la|del|degli|delle|di|du|des|in|at|on)(?: (?:[A-Z0-9][\w'’.&-]*|of|the|for|and|de|la|del|degli|delle|di|du|des|in|at|on))+$/;

/**
 * "films such as The Big Easy" -> "The Big Easy is a film.": what a named example is, from its category. Null when
 * the example is not a name (a capital or a quote) or the category has no plural head to make singular.
 */
export function exampleKind(category: string, item: string): string | null {
  // "publications such as the Wall Street Journal": a name with its article is a name ("The Wall Street Journal is
  // a publication."); "the time he ..." is not.
  const bare = item.replace(/\s*\([^)]*\)/g, '').trim();
  const name = bare.startsWith('the ') && NAMED_WITH_THE.test(bare) ? `The ${bare.slice(4)}` : bare;
  if (!/^["“'‘]?[A-Z0-9]/.test(name)) return null;
  const kind = category.replace(QUANTIFIERS, '').trim();
  const head = /^(.*?)(\w+)$/.exec(kind);
  // The kind is a plural noun, never a number ("the 1960s, including Carl Andre" names no "1960").
  // Nor a span of time ("albums and singles over the years, including "King"" had given "King is a year.").
  if (!head || head[2] === undefined || !/[^su]s$/.test(head[2]) || /\d/.test(head[2]) || /^(?:years|decades|centuries|months|weeks|days|times)$/.test(head[2])) return null;
  const one = singularOf(head[2]);
  const phrase = `${head[1] ?? ''}${one}`;
  return `${name} is ${articleFor(phrase)} ${phrase}.`;
}
