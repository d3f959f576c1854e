/**
 * On claims over 15 words only: two objects after "and" each with its own phrase of the same preposition, the verb
 * said once ("Salazar has studied law at the University of Coimbra and economics at the University of Paris."; "Barboza
 * is nominated for Best Supporting Actress at the 2010 Brazilian Film Festival and Best Lead Actress at the 2014 ...")
 * are two facts, each with the verb ("Salazar has studied economics at the University of Paris."), as FActScore's
 * annotators wrote them. The first object starts after the last preposition or at the last determiner before its
 * phrase, or is as many words as the second right after a verb in the past; both objects have a determiner or
 * neither ("an outspoken advocate for X and campaigns for Y" is a second verb, and-verb.ts's).
 */
import { DETERMINERS, IRREGULAR_PAST, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

const PAIR = /^(.+) and ((?:(?:a|an|the|his|her|their) )?(?:[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}|[A-Z][\w'-]*(?: (?:[A-Z][\w'-]*|of))*)) (at|in|from|for|with|on) ([^,]+)\.$/;

/** One claim per object with its own phrase, or the claim alone. */
export function gappedPairApart(claim: string): string[] {
  if (!claim.includes(' and ') || !isLong(claim)) return [claim];
  const m = PAIR.exec(claim);
  if (m === null) return [claim];
  const [, left = '', second = '', prep = '', place = ''] = m;
  if (/ and |\bwhich\b|\bwho\b/.test(place) || / (?:of|and)$/.test(second) || /ing$/.test(second.split(' ')[0]!)) return [claim];
  const at = left.lastIndexOf(` ${prep} `);
  // The first object's phrase alone: no list or clause in it ("with a white collar and cuffs, and a red hat ...").
  if (at < 0 || /,| and /.test(left.slice(at))) return [claim];
  const words = left.slice(0, at).split(' ');
  // The first object: after the last preposition, at the last determiner, or as long as the second after a past verb.
  let start = -1;
  for (let k = 2; k < words.length; k++) {
    const w = words[k]!;
    if (PREPOSITIONS.has(w) && w !== 'of') start = k + 1;
    else if (DETERMINERS.has(w)) start = Math.max(start, k);
  }
  const n = second.split(' ').length;
  const before = words[words.length - n - 1] ?? '';
  if (start < 0 && words.length - n >= 2 && (/ed$/.test(before) || IRREGULAR_PAST.has(before))) start = words.length - n;
  if (start < 2 || start >= words.length) return [claim];
  const first = words.slice(start).join(' ');
  const det = (x: string): boolean => DETERMINERS.has(x.split(' ')[0]!);
  // Both objects alike: a determiner in both or neither, both names or neither.
  if (det(first) !== det(second) || /^[A-Z]/.test(first) !== /^[A-Z]/.test(second) || / and /.test(first)) return [claim];
  const pre = words.slice(0, start).join(' ');
  const out = [`${left}.`, `${pre} ${second} ${prep} ${place}.`];
  return out.some(isLong) ? [claim] : out;
}
