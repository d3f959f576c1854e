/**
 * An apposition between commas inside a long claim, after a name: "He was hired by Union Products, a small plastics
 * company in Leominster, to create a three-dimensional lawn ornament." says what the name is, a fact of its own
 * ("Union Products was a small plastics company in Leominster."), and the claim goes on without it ("He was hired by
 * Union Products to create a three-dimensional lawn ornament."), as end-apposition.ts does for one that ends a claim.
 * The name is a run of two or more capitalised words (with "de", "von", "van", "dos", "da" inside), not the claim's
 * subject; the apposition a noun phrase led by "a", "an" or "the" with no comma, verb or relative word in it; what
 * follows it opens with a preposition or "and" ("to Henry de Czanyi von Gerber, a violinist ..., and his wife
 * Pauline"). Not inside a list of examples, where the commas may be the list's.
 */
import { isLong } from './long.js';

const INNER = /^(.+? )((?:[A-Z][\w'’.-]*)(?: (?:[A-Z][\w'’.-]*|de|von|van|dos|da|del))+), ((?:a|an|the) [^,]+), ((?:to|in|and|for|at|from|on|with|as|by|of) .+)\.$/;
const NOT_NP = /\b(?:who|which|that|where|when|whose|is|are|was|were|has|have|had|will|would|been)\b/;

/** The claim without its inner apposition and what the name is; the claim alone otherwise. */
export function innerAppositionApart(claim: string): string[] {
  if (!/, (?:a|an|the) /.test(claim) || !isLong(claim)) return [claim];
  const m = INNER.exec(claim);
  if (m === null) return [claim];
  const [, head = '', name = '', np = '', rest = ''] = m;
  if (NOT_NP.test(np) || /\b(?:including|such as)\b/.test(head) || /\b(?:de|von|van|dos|da|del)$/.test(name)) return [claim];
  // "a Golden Globe Award, a Critics' Choice ...": after "a" the capitals name a kind, not one thing.
  if (/\b(?:a|an)\s$/i.test(head)) return [claim];
  // "his involvement in the Nuremberg Trials, the creation of X, and his Y": before "and" the commas may be a list's;
  // a person's role ("to Julius Burrell Jr., a pastor, and Helen Ruth Graham") is led by "a" or "an".
  if (rest.startsWith('and ') && (!/^an? /.test(np) || /\bthe $/i.test(head))) return [claim];
  // "Pau Grande, a district of Magé, in the state of Rio de Janeiro": a place phrase after an apposition that ends in a
  // name may be that name's (the annotators wrote "Magé is in the state of Rio de Janeiro.").
  if (/^(?:in|at|near) /.test(rest) && /(?:^| )[A-Z]\S*$/.test(np)) return [claim];
  const be = /\b(?:was|were)\b/.test(head) ? 'was' : 'is';
  return [`${head}${name} ${rest}.`, `${name} ${be} ${np}.`];
}
