/**
 * "Flaherty has also appeared in numerous other movies and television shows including Without a Trace, The West
 * Wing, CSI: NY and Grey's Anatomy.": a long claim that still holds a category with its examples, after the list
 * rules left it whole (a list of names with colons or "and" inside them, a long example), says two things: the
 * category ("Flaherty has also appeared in numerous other movies and television shows.") and the examples in its
 * place ("Flaherty has also appeared in Without a Trace, The West Wing, CSI: NY and Grey's Anatomy."), as the
 * annotators wrote them ("He has appeared in Without a Trace.").
 */
import { isLong } from './long.js';

// Over this many words a claim is long (the study's measure); shorter ones were left whole on purpose.
// The category's first word: a quantifier, an article or a possessive.
const CATEGORY_START = /^(?:numerous|several|many|various|multiple|other|some|all|a|an|the|his|her|their|its|over|more|dozens|hundreds|\d+|[A-Z][\w'’.-]*['’]s)$/;
// Inside a category only "of" and "and" may join words ("a number of positions in X" has its own phrase).
const JOINS = new Set(['of', 'and']);
const PREPOSITION = /^(?:in|on|at|for|from|with|by|to|as|about|around|across|into|under|over|through|during|between|among|after|before|since|until)$/;

/** The claim's category and its examples apart; the claim alone when it has no such shape. */
export function examplesApart(claim: string): string[] {
  if (!isLong(claim)) return [claim];
  const m = /^(.+?),?\s+(?:including|such as)\s+(.+?)\.?$/.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined) return [claim];
  const [head, examples] = [m[1], m[2]];
  const places = placesApart(head, examples);
  if (places !== null) return places;
  // "including as chair of ..." (a post), "including being named ..." (an event): other rules' shapes.
  if (/^(?:as|being|for|in|at|with|when|to)\b/.test(examples) || /\b(?:including|such as)\b/.test(examples)) return [claim];
  // A clause about the examples ("..., for which he received ...", ", which propelled ...") or a second phrase
  // (", and for his essays") would be lost or misread: the claim stays whole.
  if (/[.!?]["”]?\s|\b(?:which|who|whom|where)\b|,\s+and\s+(?:for|in|on|with|as|at)\s/.test(examples)) return [claim];
  const words = head.split(' ');
  // The category: the nearest start word before the end with only "of"/"and" between it and the end, and a
  // plural head ("books", "films", "operations").
  let start = -1;
  for (let k = words.length - 1; k > 0; k--) {
    if (PREPOSITION.test(words[k]!)) break;
    if (CATEGORY_START.test(words[k]!) && !JOINS.has(words[k]!)) {
      start = k;
      // "the band's albums": the possessive's own article belongs to the category too.
      if (/['’]s$/.test(words[k]!) && /^(?:the|his|her|their|its)$/.test(words[k - 1] ?? '')) start = k - 1;
      break;
    }
  }
  // "numerous other films", "all of the band's albums", "some of the most successful films": the whole quantifier.
  for (;;) {
    if (start > 1 && CATEGORY_START.test(words[start - 1]!)) start--;
    else if (start > 2 && words[start - 1] === 'of' && /^(?:all|some|many|most|several|one|each|any|dozens|hundreds|number|variety|range|host)$/.test(words[start - 2]!)) start -= 2;
    else if (start > 1 && /^(?:number|variety|range|host)$/.test(words[start]!) && words[start - 1] === 'a') start--;
    else break;
  }
  // "his memoirs, including X": the annotators wrote "X is one of his memoirs", a fact of both parts.
  if (start <= 1 || /^(?:his|her|their|its)$/.test(words[start]!)) return [claim];
  const lead = words.slice(0, start).join(' ');
  // "won several awards for his performances, including ...": the category began before the lead's phrase.
  if (/\b(?:several|numerous|many|various|multiple|number of|variety of)\b/.test(lead)) return [claim];
  const last = words[words.length - 1]!.replace(/[^\w]+$/, '');
  // The category's head is plural and the lead ends in a verb or a preposition it follows.
  if (!/[^su]s$/.test(last) && !/(?:series|media)$/.test(last)) return [claim];
  if (!/\s(?:in|on|of|for|with|to|from|at|by|about)$|(?:ed|en|s|ote|ade|ung|on)$/.test(lead)) return [claim];
  const category = `${head}.`;
  const named = `${lead} ${examples.replace(/[,.]+$/, '').replace(/[,.]+(["”])$/, '$1')}.`;
  return [category, named];
}

// "Kourosh Zolani has performed in various concerts and festivals around the world, including in Iran, Europe, and
// North America.": places named after "including in" are where the head's own "in" phrase happened, one claim each
// ("Kourosh Zolani has performed in Iran."), as FActScore's annotators wrote them; the lead runs to the head's last
// "in" (so "played for clubs in Europe, including in Spain" gives "played for clubs in Spain"). Names only, up to
// four words each.
function placesApart(head: string, examples: string): string[] | null {
  const m = /^(in|at|across|throughout)\s+(.+)$/.exec(examples);
  if (m === null || m[1] === undefined || m[2] === undefined) return null;
  const at = head.lastIndexOf(` ${m[1]} `);
  const items = m[2].replace(/[.,]+$/, '').split(/,\s+(?:and\s+)?|\s+and\s+/);
  if (at < 0 || items.length < 2 || !items.every((x) => /^(?:the\s+)?[A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*){0,3}$/.test(x))) return null;
  const lead = head.slice(0, at + m[1].length + 2);
  return [`${head}.`, ...items.map((x) => `${lead}${x}.`)];
}
