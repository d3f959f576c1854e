/**
 * A possessive (or "the") said again after "and": "Gasalla is known for his exaggerated, over-the-top comedic style and his
 * ability to adapt to any comic situation", "Fonseca's work is often characterized by his use of stone and his
 * interest in pre-Columbian and other ancient forms of art". The two noun phrases are two facts with the same verb,
 * as FActScore's annotators wrote them ("Gasalla is known for his ability to adapt to any comic situation."): the
 * second takes the first one's place. The first is that possessive's only one between the verb and "and", and the
 * first phrase has no comma list in it ("his involvement in X, the creation of Y, and his defense of Z" stays whole).
 * Where both claims would still be over 15 words, the claim stays whole.
 */
import { PREPOSITIONS } from './lexicon.js';
import { repeatClause } from './prep-repeat.js';
import { isLong } from './long.js';

const AND_POSSESSIVE = / and (?:also )?(?:his|her|their|its|the) /;
const POSSESSIVES = new Set(['his', 'her', 'their', 'its', 'the']);

/** The claim with one claim per possessive's noun phrase, or the claim alone. */
export function possessiveRepeatApart(claim: string): string[] {
  const found = repeatClause(claim, AND_POSSESSIVE);
  if (found === null) return [claim];
  const { words, clause } = found;
  for (let j = clause.verbIndex + 2; j < words.length - 2; j++) {
    if (words[j] !== 'and') continue;
    const k = words[j + 1] === 'also' ? j + 2 : j + 1;
    const p = words[k]!;
    if (!POSSESSIVES.has(p)) continue;
    const at = [];
    for (let x = clause.verbIndex + 1; x < j; x++) if (words[x] === p) at.push(x);
    const i = at[0] ?? -1;
    if (at.length !== 1 || i >= j - 1) continue;
    // "his involvement in X, the creation of Y, and his ...": a list of three, not a pair.
    // A comma before the last word of the first phrase, other than between two adjectives after the possessive.
    let listed = false;
    for (let x = i; x < j - 1; x++) if (/,$/.test(words[x]!) && !(x === i + 1 && /^[a-z][a-z-]*,$/.test(words[x]!))) listed = true;
    // "the viewer's perspective, their appreciation for art, and their feelings": the possessive opens a list's item.
    if (listed || /,$/.test(words[i - 1]!)) continue;
    // "the": a plain noun phrase or name first ("the television series Otoko wa Tsurai yo and the film series
    // Tora-san"); with a phrase in it the second may be its object's ("the British Army in Germany and the Middle East").
    // Nor "and the other ...", nor ", and the hike to the top is ...": another clause.
    if (p === 'the' && (/,$/.test(words[j - 1]!) || /^(?:other|others|rest|latter|former|same|first|second|last)$/.test(words[k + 1]!) || words.slice(k).some((w) => /^(?:is|are|was|were|has|have|had)$/.test(w)))) continue;
    if (p === 'the' && words.slice(i + 1, j).some((w, n) => PREPOSITIONS.has(w) && !(w === 'of' && /^[A-Z]/.test(words[i + n]!) && /^[A-Z]/.test(words[i + n + 2] ?? '')))) continue;
    const first = `${words.slice(0, j).join(' ').replace(/,$/, '')}.`;
    const second = `${[...words.slice(0, i), ...words.slice(k)].join(' ')}.`;
    // Two long claims where there was one only moves the length ("The rabbit, with its speed and adaptability, spoke
    // of its daring escapes ... and its exploration of ..."): the pair stays for a rule that cuts elsewhere.
    if (isLong(first) && isLong(second)) return [claim];
    return [first, ...possessiveRepeatApart(second)];
  }
  return [claim];
}
