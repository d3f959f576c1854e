/**
 * A claim the list split left with one example still hanging on its counted category ("Cukor worked with some of the
 * most iconic stars in Hollywood including Greta Garbo."): the category is a fact of its own ("Cukor worked with some
 * of the most iconic stars in Hollywood."), and a named example takes the category's place ("Cukor worked with Greta
 * Garbo."), as FActScore's annotators wrote them. What the example is stays with the naming facts.
 */
import { exampleKind } from './naming.js';

// The counted category runs from its quantifier to "including"/"such as"; the first quantifier after the verb opens it.
const HANGING = /^(.+?\s)((?:some of|several|numerous|many|various|multiple|most of|hundreds of|dozens of|a (?:number|variety|range|host) of|(?:over|more than|nearly|about) \d+)\s.*?),?\s+(?:including|such as)\s+(.+?)\.$/;
// A name ("Greta Garbo", "the Weir Group", '"Hocus Pocus"'), one item: no list and no clause goes on in it.
const NAMED = /^(?:the\s+)?["“'‘]?[A-Z0-9]/;
const LIST_OR_CLAUSE = /,|\s(?:and|or|which|who|that|such as|including)\s/;
// "numerous awards and honors from institutions such as X": the examples are the bare plural's, not the category's.
const BARE_PHRASE = /\s(?:from|of|for|by|on|with|at|in|to)\s+[a-z]+s$/;
const PHRASE = /\s(?:for|from|in|at|to|with)\s/;

// "over 100 films, including some of the most successful Japanese silent films of the time such as The Life of an
// Actor": an example of the example's own category, which the list split left hanging on both.
const NESTED = /^((?:some of|several|many|most of|a few of|two|three|four|five|\d+)\s[^,]*?[^su\s]s\b[^,]*?)\s+such as\s+(.+)$/;

// The inner category takes the outer one's place ("Hori went on to star in some of the most successful Japanese silent
// films of the time."), and so does its named example ("Hori went on to star in The Life of an Actor."), as FActScore's
// annotators wrote them ("He starred in The Life of an Actor."). A single name only, as below.
function nestedApart(lead: string, category: string, inner: string, item: string): string[] | null {
  if (!NAMED.test(item) || item.split(/\s+/).length > 8 || LIST_OR_CLAUSE.test(` ${item} `)) return null;
  // What the example is, from the inner category's plural head without its count, its superlative and its phrase
  // ("The Life of an Actor is a Japanese silent film.", as the annotators wrote "... is a silent film.").
  const head = inner.replace(/^(?:\S+ )?of /, '').replace(/^the most [a-z-]+ /, '').replace(/^(?:\d+|two|three|four|five|several|many) /, '').replace(/ (?:of|in|from|for|at|by) .*$/, '');
  const kind = /^[A-Za-z -]+$/.test(head) ? exampleKind(head, item) : null;
  return [`${lead}${category}.`, `${lead}${inner}.`, `${lead}${item}.`, ...(kind === null ? [] : [kind])];
}

/** The claim's category and its named example apart; the claim alone when it hangs no single example. */
export function hangingExampleApart(claim: string): string[] {
  const m = HANGING.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [claim];
  const [lead, category, item] = [m[1], m[2], m[3]];
  const nested = NESTED.exec(item);
  const inner = nested === null ? null : nestedApart(lead, category, nested[1]!, nested[2]!);
  if (inner !== null) return inner;
  // "held a variety of roles including X" (a title only: "Head of News at BBC World Service" has its own phrase)
  // is held as a position; other example phrases must be single names that read in the category's place.
  const post = /\b(?:positions|posts|roles|offices)\b/.test(category) && /\b(?:held|occupied)\s$/.test(lead);
  if (!NAMED.test(item) || item.split(/\s+/).length > 8 || LIST_OR_CLAUSE.test(` ${item} `) || (PHRASE.test(` ${item} `) && !post) || BARE_PHRASE.test(category)) {
    return [claim];
  }
  // What the example is ("various charities including the Jimmy Bartel Foundation" -> "The Jimmy Bartel Foundation is
  // a charity."), from the category's own words only: "the most iconic stars in Hollywood" names no kind.
  const kind = /^[a-z\d -]+$/.test(category) && !/\b(?:the|of|most)\b/.test(category.replace(/^(?:some|most|a \w+|hundreds|dozens) of /, '')) ? exampleKind(category, item.replace(/^the\s+/, '')) : null;
  const named = kind === null ? [] : [`${item.startsWith('the ') ? 'The ' : ''}${kind}`];
  return [`${lead}${category}.`, `${lead}${post ? `the position of ${item}` : item}.`, ...named];
}

// "Some of his notable film credits include A, B and C.": the tagger reads no verb after the plural and the sentence
// became "There is some of ...". Each item is what the (possessed) category includes, and what the item is.
const LISTED_SUBJECT = /^(?:Some of |Among )?((?:his|her|their|its|[A-Z][\w'’.-]*['’]s)\s+(?:[\w'’-]+\s+){0,4}?([\w'’-]+s))\s+(include[sd]?)\s+(.+?)\.?$/;

/** A possessed category's list of titles one claim each, and what each is; null when the text is no such list. */
export function listedSubjectApart(text: string, listItems: (list: string) => string[] | null): string[] | null {
  const m = LISTED_SUBJECT.exec(text);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return null;
  const items = listItems(m[4].replace(/\.(["”])$/, '$1'));
  if (items === null || !items.every((x) => /^["“'‘]?[A-Z0-9]/.test(x))) return null;
  const subject = `${m[1].charAt(0).toUpperCase()}${m[1].slice(1)}`;
  // The category is plural: "include", or its past.
  const verb = m[3] === 'included' ? 'included' : 'include';
  // "film credits", "film appearances" are films; the kind without the possessive ("notable books").
  const kind = m[1].replace(/^\S+\s+/, '').replace(/\s+(?:credits|appearances|roles)$/, 's').replace(/^most\s+/, '');
  return items.flatMap((x) => {
    // The quotes stay: a question must not lower-case a title's first word ("Is home and Exile ...?").
    const what = exampleKind(kind, x);
    return [`${subject} ${verb} ${x}.`, ...(what === null ? [] : [`${what.charAt(0).toUpperCase()}${what.slice(1)}`])];
  });
}

// "received numerous accolades for her work in football, including being named the FA's Women's Referee of the Year
// in 2009 and 2010, and being awarded a MBE ...": the examples are events that happened to the subject, one claim each
// ("Sian was named the FA's Women's Referee of the Year in 2009 and 2010."), as FActScore's annotators wrote them
// ("Sian was named ... in 2009."); "Tukaki has received being named as one of ..." had been said. The subject is the
// lead's words before its perfect, with no comma (no fronted phrase); otherwise the claim stays whole.
const EVENT = /^being\s+[a-z]+(?:ed|en|wn)\s/;

/** The category's claim and one claim per "being ..." event; the text alone when the subject cannot be told. */
export function eventsApart(lead: string, category: string, list: string, text: string): string[] {
  const subject = /^([A-Z][^,]*?)\s(?:has|have|had)\s/.exec(lead)?.[1];
  const events = list.split(/,?\s+(?:and\s+)?(?=being\s)/);
  if (subject === undefined || subject.split(' ').length > 4 || !events.every((x) => EVENT.test(`${x} `))) return [text];
  const be = /^(?:they|we)$/i.test(subject) ? 'were' : 'was';
  return [`${lead}${category}.`, ...events.map((x) => `${subject} ${be} ${x.replace(/^being\s+/, '').replace(/[,.]+$/, '')}.`)];
}
