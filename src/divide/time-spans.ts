/**
 * "Diaz served as Governor of Occidental Mindoro from 1998 to 2001.": what someone did, when it began and when it
 * ended are facts apart ("Diaz served as Governor of Occidental Mindoro.", "... from 1998.", "... until 2001."), as
 * FActScore's annotators wrote them (in the first half of the dev biographies 29 facts end "from YEAR" and 57 "until"
 * or "to YEAR"; 16 keep the span whole). In a long claim the dated facts keep the verb and the head of its object or
 * first phrase ("Smith was Chairman of the Committee of Inquiry into the Scottish Parliament Building Project from 2007
 * to 2008" -> "Smith was Chairman from 2007."), as the annotators wrote them ("He was Chairman from 2007."); the claim
 * without the span keeps the whole object.
 */
import { plainClause } from './clause.js';
import { AUX_ADVERBS, AUXILIARIES, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

// One span of years after the fact: "from 1998 to 2001", "from 1984-2005", "from 1989–90", "between 1990 and 1995".
const SPAN = /^(.+?),?\s+(?:from|between)\s+(\d{4})\s*(?:to|until|and|-|–)\s*(\d{4}|\d{2})\b(.*)\.$/;

// In a long claim also months: "from January 2009 to November 2010" (the nineteenth pass).
const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
const MONTH_SPAN = new RegExp(String.raw`^(.+?),?\s+from\s+(${MONTH} \d{4})\s+(?:to|until)\s+(${MONTH} \d{4})\b(.*)\.$`);

/** The claim without its span, from its first year and until its last; the claim alone when it has no one span. */
export function timeSpanApart(claim: string): string[] {
  if (claim.includes(' from ') && isLong(claim)) {
    const mm = MONTH_SPAN.exec(claim);
    if (mm !== null) return monthSpanApart(mm[1]!, mm[2]!, mm[3]!, mm[4]!, claim);
  }
  const m = SPAN.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  const [what, from, to, rest] = [m[1], m[2], m[3], m[4]];
  // "1989–90": the century of the first year.
  const until = to.length === 2 ? `${from.slice(0, 2)}${to}` : to;
  if (SPAN.test(`${rest}.`) || /\d{4}/.test(what) || Number(until) < Number(from) || !/\s/.test(what)) return [claim];
  // "Zamfir Arbore lived between 1866 and 1923.": with nothing but a verb before it, the span is the fact.
  if (/\s[a-z]+ed$/.test(what)) return [claim];
  const dated = isLong(`${what} from ${from}.`) && rest === '' ? headOf(what) ?? what : what;
  return [`${what}${rest}.`, `${dated} from ${from}.`, `${dated} until ${until}.`];
}

// The subject, the verb and its object (or first phrase) cut before the next preposition: "James B. Donovan served as
// the General Counsel"; null where the object is a coordination ("Chancellor of X and Minister for Y") or empty.
function headOf(what: string): string | null {
  const clause = plainClause(`${what}.`);
  if (clause === null) return null;
  const toks = clause.tokens;
  let k = clause.verbIndex + 1;
  while (k < toks.length && (AUXILIARIES.has(toks[k]!.word) || AUX_ADVERBS.has(toks[k]!.word) || toks[k]!.word === 'been')) k++;
  if (k < toks.length && /(?:ed|en)$/.test(toks[k]!.word) && toks[k]!.raw === toks[k]!.word) k++;
  // "served as the General Counsel", "played in Major League Baseball (MLB)": the phrase's object is the head.
  const start = k < toks.length && (PREPOSITIONS.has(toks[k]!.word) || toks[k]!.word === 'as') ? k + 1 : k;
  let e = start;
  // "Member of Parliament": "of" between two capitals stays inside a name.
  const cap = (j: number): boolean => /^[A-Z]/.test(toks[j]?.raw ?? '');
  const inName = (j: number): boolean => toks[j]!.word === 'of' && cap(j - 1) && cap(j + 1);
  // "Assistant Professor of Electrical and Computer Engineering": "and" between capitals after a name's "of" is the
  // name's too (not "the Deputy Prime Minister and Minister for Trade", two roles).
  let ofName = false;
  const andInName = (j: number): boolean => ofName && toks[j]!.word === 'and' && cap(j - 1) && cap(j + 1);
  while (e < toks.length && (inName(e) || andInName(e) || (!PREPOSITIONS.has(toks[e]!.word) && !/^(?:as|and|or|who|which)$/.test(toks[e]!.word))) && !/,$/.test(toks[e - 1]?.raw ?? '')) {
    if (inName(e)) ofName = true;
    e++;
  }
  if (e <= start || e >= toks.length || toks.slice(start, e).some((t, i) => t.word === 'and' && !(cap(start + i - 1) && cap(start + i + 1))) || toks.slice(e).some((t) => t.word === 'and')) return null;
  return toks.slice(0, e).map((t) => t.raw).join(' ').replace(/,$/, '');
}

// "He served as the 21st United States National Security Advisor from January 2009 to November 2010 under President
// Barack Obama." -> the claim without its span, and the head of what was done from its first month and until its last.
function monthSpanApart(what: string, from: string, until: string, rest: string, claim: string): string[] {
  if (/\d{4}/.test(what) || !/\s/.test(what) || / from /.test(rest) || Number(until.slice(-4)) < Number(from.slice(-4))) return [claim];
  const dated = isLong(`${what} from ${from}.`) ? headOf(what) : what;
  if (dated === null) return [claim];
  const out = [`${what}${rest}.`, `${dated} from ${from}.`, `${dated} until ${until}.`];
  return out.some(isLong) ? [claim] : out;
}
