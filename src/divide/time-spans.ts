/**
 * "Diaz served as Governor of Occidental Mindoro from 1998 to 2001.": what someone did, when it began and when it
 * ended are facts apart ("Diaz served as Governor of Occidental Mindoro.", "... from 1998.", "... until 2001."), as
 * FActScore's annotators wrote them (in the first half of the dev biographies 29 facts end "from YEAR" and 57 "until"
 * or "to YEAR"; 16 keep the span whole).
 */

// One span of years after the fact: "from 1998 to 2001", "from 1984-2005", "from 1989–90", "between 1990 and 1995".
const SPAN = /^(.+?),?\s+(?:from|between)\s+(\d{4})\s*(?:to|until|and|-|–)\s*(\d{4}|\d{2})\b(.*)\.$/;

/** The claim without its span, from its first year and until its last; the claim alone when it has no one span. */
export function timeSpanApart(claim: string): string[] {
  const m = SPAN.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  const [what, from, to, rest] = [m[1], m[2], m[3], m[4]];
  // "1989–90": the century of the first year.
  const until = to.length === 2 ? `${from.slice(0, 2)}${to}` : to;
  if (SPAN.test(`${rest}.`) || /\d{4}/.test(what) || Number(until) < Number(from) || !/\s/.test(what)) return [claim];
  // "Zamfir Arbore lived between 1866 and 1923.": with nothing but a verb before it, the span is the fact.
  if (/\s[a-z]+ed$/.test(what)) return [claim];
  return [`${what}${rest}.`, `${what} from ${from}.`, `${what} until ${until}.`];
}
