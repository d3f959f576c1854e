/**
 * "The woman and the man are standing on a pier.", "A cat and a dog are sleeping on the couch.": two things joined
 * as the subject of "be", each a fact of its own, as FaithScore's annotators wrote them ("A woman is standing on a
 * pier.", "A man is standing on a pier."). Only two short noun phrases with articles, and a predicate that holds of
 * each alone: what they do together or to each other ("are facing each other", "are playing together", "are
 * hugging") stays one claim.
 */
import { isPluralPhrase } from './list.js';

const PAIR = /^(the|a|an) ([a-z]+(?: [a-z]+)?) and (the|a|an) ([a-z]+(?: [a-z]+)?) (are|were) (.+?)\.?$/i;
// Predicates that need both: reciprocal, together, between them, or an act of one on the other.
const JOINT = /\b(?:each other|one another|together|between|both|same|similar|different|apart|side by side|close to|next to|facing|hugging|kissing|embracing|holding hands|shaking hands|talking|chatting|conversation|playing with|fighting|married|related|friends|couple|pair|team|partners)\b/i;

/** The claim with its two subjects apart, or the claim alone. */
export function subjectPairApart(claim: string): string[] {
  if (!claim.includes(' and ')) return [claim];
  const m = PAIR.exec(claim);
  const [, d1 = '', n1 = '', d2 = '', n2 = '', be = '', pred = ''] = m ?? [];
  if (m === null || JOINT.test(pred)) return [claim];
  const one = (d: string, n: string): string => {
    const plural = isPluralPhrase([d.toLowerCase(), ...n.split(' ')]);
    const v = be.toLowerCase() === 'are' ? (plural ? 'are' : 'is') : plural ? 'were' : 'was';
    const text = `${d.toLowerCase()} ${n} ${v} ${pred}.`;
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  return [one(d1, n1), one(d2, n2)];
}
