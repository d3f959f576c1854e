/**
 * "Haagensen is best known for his role in the critically acclaimed Brazilian movie "City of God".": where a naming
 * fact of the same sentence already says what a work is ("City of God is an acclaimed Brazilian movie."), a long
 * claim keeps the kind but not the description ("Haagensen is best known for his role in the movie "City of God"."):
 * the year, the country or network and the praise are one fact, asked once in the naming fact, not again inside every
 * claim about the work. FActScore's annotators wrote the kind in their facts ("He made his acting debut in a drama
 * series."), so it stays.
 */
import { isLong } from './long.js';

const NAMING = /^(.+?) is (?:a|an) (.+)\.$/;
// The kinds of works and bodies a naming fact describes this way.
const KINDS = /^(?:film|movie|series|show|drama|sitcom|play|album|single|song|novel|book|band|group|opera|musical|documentary|comedy|franchise|trilogy|program|programme|magazine|newspaper|club|team|party|company)$/;
// A description's words that the naming fact states: a year, a capitalised word (a country, a network), praise.
const DESCRIBING = /^(?:\d{4}s?|\d{4}'s|hit|iconic|popular|famous|successful|legendary|acclaimed|critically|highly|award-winning|long-running|classic)$/u;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The claim with each described work's description that a naming fact states dropped; the claim itself otherwise. */
export function kindNamed(claim: string, facts: readonly string[]): string {
  if (!isLong(claim)) return claim;
  let out = claim;
  for (const f of facts) {
    const m = NAMING.exec(f);
    if (m === null || m[1] === undefined || m[2] === undefined) continue;
    const [name, kind] = [m[1], m[2]];
    const head = kind.split(' ').pop() ?? '';
    if (!KINDS.test(head)) continue;
    // "the [words] movie "City of God"": the nearest article, up to six words (no other article or preposition) ending
    // in the kind's head noun, then the name (in its quotes if it has them).
    const re = new RegExp(`\\b(the|a|an) ((?:(?!(?:the|a|an|of|in|on|for|with|to|at|by|from|and|or|as)\\s)[^\\s,"“]+ ){1,6})(${escape(head)} ["“]?${escape(name)})(?=["”]?(?:[\\s.,;:]|$))`);
    const hit = re.exec(out);
    if (hit === null || hit[1] === undefined || hit[2] === undefined || hit[3] === undefined) continue;
    const words = hit[2].trim().split(' ');
    const kept = words.filter((w) => !DESCRIBING.test(w));
    if (kept.length === words.length) continue;
    const article = kept.length === 0 || hit[1] !== 'the' ? 'the' : hit[1];
    out = `${out.slice(0, hit.index)}${[article, ...kept, hit[3]].join(' ')}${out.slice(hit.index + hit[0].length)}`;
  }
  return out;
}
