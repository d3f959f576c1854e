/**
 * A list of three or more names or titles after a verb's preposition, "has also appeared in Without a Trace, The West
 * Wing, CSI: NY and Grey's Anatomy", "has played for several teams in Bosnia and Herzegovina, Serbia and Montenegro,
 * and the United States": one claim per item ("Flaherty has also appeared in The West Wing."), as FActScore's
 * annotators wrote them. The clause rules (claims.ts) leave such lists whole where a title has lower-case words or a
 * preposition in it ("Without a Trace", "What We Do in the Shadows"). Items are title-cased (capitalised words, and
 * "a", "of", "in", "the", ... inside) and may end with one lower-case plural ("and many other publications",
 * "and international matches"). With ", and" the items are cut at commas only, so "Bosnia and Herzegovina" stays one.
 */
// Also after a kind of work or a colon: "directing the films Boy, What We Do in the Shadows, ... and Jojo Rabbit",
// "has acted in four of his films: Eagle vs Shark, Boy, Hunt for the Wilderpeople and Thor: Ragnarok".
const LIST = /^(.*?(?:\b(?:in|on|at|for|with|from|to|by|of|throughout|across|are|include|includes|included|films|movies|series|shows|albums|songs|singles|novels|books|plays|operas|musicals)|:)\s)((?:the\s)?["“]?[A-Z].*)\.$/;
const SMALL = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'and', 'or', 'with', 'from', 'by', 'de', 'del', 'la', 'le', 'da', 'do', 'von', 'van', 'y', 'vs']);
const NOT_PREFIX = /\b(?:between|among|amongst|both|either|neither|together|respectively|such as|including|like|born|died)\b|,/;
const DATE = /^(?:\d|(?:January|February|March|April|May|June|July|August|September|October|November|December)\b)/;

// "Without a Trace", "The Times of Israel", "CSI: NY", "Grey's Anatomy", "the United States": a name or title.
function titled(item: string): boolean {
  const words = item.split(' ');
  if (words.length > 8) return false;
  const start = words[0] === 'the' ? 1 : 0;
  const cap = (w: string): boolean => /^["“'‘(]?[\p{Lu}0-9]/u.test(w);
  return words.length > start && cap(words[start]!) && cap(words[words.length - 1]!)
    && words.every((w) => cap(w) || SMALL.has(w));
}

// "many other publications", "international matches": a last item of lower-case words ending in a plural.
function lowerPlural(item: string): boolean {
  const words = item.split(' ');
  return words.length <= 3 && words.every((w) => /^[a-z][a-z-]*$/.test(w) && !SMALL.has(w)) && /[^s]s$/.test(words[words.length - 1]!);
}

/** One claim per listed name, or the claim alone. */
export function nameListApart(claim: string): string[] {
  if (!claim.includes(', ') || !claim.includes(' and ')) return [claim];
  const m = LIST.exec(claim);
  if (m === null) return [claim];
  const [, prefix = '', list = ''] = m;
  // The preposition nearest the list's first comma leads it: "for several teams in Bosnia ..." is led by "in".
  if (NOT_PREFIX.test(prefix)) return [claim];
  const oxford = list.includes(', and ');
  // "A, B and C": the last "and" after the last comma; "Eton College and Balliol College, Oxford" is no list of three.
  if (!oxford && list.lastIndexOf(' and ') < list.lastIndexOf(', ')) return [claim];
  const items = oxford ? list.split(/, (?:and )?/) : list.replace(/ and (?!.* and )/, ', ').split(', ');
  if (items.length < 3) return [claim];
  const last = items[items.length - 1]!;
  if (!items.slice(0, -1).every(titled) || !(titled(last) || lowerPlural(last))) return [claim];
  // Dates ("April 4, 1990"), a title with a comma ("I, Robot"), "the Atchison, Topeka and Santa Fe Railway".
  // A year after the last item ("WWE, WCW and UPW from 1995") is the whole list's.
  if (items.some((x) => DATE.test(x) || x.length < 3 || /^the \S+$/.test(x) || /\s[a-z]+ \d+$/.test(x))) return [claim];
  // One name's own list: "the Joint Standing Committee on Foreign Affairs, Defence and Trade", "the Global Initiative
  // for Economic, Social and Cultural Rights": single words after a first item with a preposition inside it.
  const inner = /\s(?:of|for|on|and)\s/.test(items[0]!) && items.slice(1).filter((x) => !x.includes(' ')).length >= 1;
  // "Minister of Agriculture, Fisheries and Food": single words after "of" or "for" are one name's parts.
  if (inner || (/\b(?:of|for) $/.test(prefix) && !items[0]!.includes(' '))) return [claim];
  const lead = leadOf(prefix);
  if (lead === null) return [claim];
  return [...lead.category, ...items.map((x) => `${lead.lead}${x}${x.endsWith('.') ? '' : '.'}`)];
}

const KIND_END = /(?:films|movies|series|shows|albums|songs|singles|novels|books|plays|operas|musicals) $/;
const KIND_PHRASE = /(?:the|his|her|their|its) (?:[a-z][\w-]* ){0,2}(?:films|movies|series|shows|albums|songs|singles|novels|books|plays|operas|musicals) $/;

// What each item follows. After a kind of work, the item takes the kind's place ("best known for directing the films
// Boy, ..." -> "... for directing Boy."; naming.ts says "Boy is a film."). After a colon, the counted category is a
// claim of its own and each item takes its place ("has acted in four of his films: Eagle vs Shark, ..." -> "Rachel
// House has acted in four of his films.", "Rachel House has acted in Eagle vs Shark."). Null where neither reads.
function leadOf(prefix: string): { lead: string; category: string[] } | null {
  if (prefix.endsWith(': ')) {
    const words = prefix.slice(0, -2).split(' ');
    const k = words.findLastIndex((w, j) => j > 0 && /^(?:in|on|at|for|with|from|to|by|of)$/.test(w) && !(w === 'of' && /^(?:one|two|three|four|five|six|some|all|many|several|most)$/.test(words[j - 1]!)));
    if (k < 1 || k >= words.length - 1) return null;
    return { lead: `${words.slice(0, k + 1).join(' ')} `, category: [`${words.join(' ')}.`] };
  }
  if (KIND_END.test(prefix)) {
    const m = KIND_PHRASE.exec(prefix);
    return m === null ? null : { lead: prefix.slice(0, m.index), category: [] };
  }
  return { lead: prefix, category: [] };
}
