/**
 * The scope of a guess: which words of a hedged part open it, what it takes as given, and which clause parts
 * hang inside it ("the image suggests that the giraffe is in a habitat that provides ...": the habitat is the guess's).
 */
import type { Part } from './clauses.js';
import type { Tok } from './nlp.js';

/** Words that open a guess: what follows them ("could be a chef") is speculation, what precedes them is not. */
export const HEDGE_WORDS = /^(?:may|might|could|would|must|potentially|seems?|seemingly|appears?|looks?|likely|possibly|probably|perhaps|maybe|presumably|suggests?|suggesting|indicates?|indicating|implies|implying|think|believe|guess|suppose|assume)$/;

const EXPLANATION = new Set(['reason', 'reasons', 'possibility', 'explanation', 'cause']);
/**
 * "Another reason could be that the tree provides ...", "This may be because the tree ...": an explanation guesses
 * why, and takes the things it names as given, so the definite subject of its clause is a thing in the picture
 * (its tokens, or none). "It appears that the star is red", "suggests that the driver ...": there the whole clause
 * is the guess.
 */
export function definiteSubject(toks: readonly Tok[]): Tok[] {
  const that = toks.findIndex((t, k) => (t.lower === 'that' || t.lower === 'because') && toks[k - 1]?.lower === 'be' && toks[k + 1]?.lower === 'the');
  if (that < 0 || (toks[that]!.lower === 'that' && !toks.slice(0, that).some((t) => EXPLANATION.has(t.lower)))) return [];
  let e = that + 2;
  while (toks[e]?.pos === 'ADJ') e++;
  while (toks[e]?.pos === 'NOUN') e++;
  // Its subject only, with a finite verb next ("the tree provides"): "the person using this space might be ..."
  // imagines someone.
  const verb = toks[e];
  const finite = verb !== undefined && (verb.pos === 'AUX' || (verb.pos === 'VERB' && !/(?:ing|ed)$/.test(verb.lower)));
  return toks[e - 1]?.pos === 'NOUN' && finite ? toks.slice(that + 1, e) : [];
}

// "The car might be parked on the side of the road because the driver has stopped to pay ...", "the image suggests
// that the giraffe is in a habitat that provides it with ...": a relative clause whose antecedent, or a "because"
// clause whose verb, comes after the hedge word of a guessed part is part of that guess.
/** Parts (by index) that hang inside another part's guess; `hedged` says which parts are guesses. */
export function inGuess(parts: readonly Part[], hedged: readonly boolean[], tokens: readonly Tok[]): Set<number> {
  const guesses: [number, number][] = [];
  parts.forEach((p, k) => {
    if (!hedged[k]) return;
    const word = tokens.find((t) => t.start >= p.start && t.end <= p.end && HEDGE_WORDS.test(t.lower));
    if (word) guesses.push([word.start, p.end]);
  });
  const out = new Set<number>();
  parts.forEach((p, k) => {
    const at = p.attach;
    if (at !== undefined && !hedged[k] && guesses.some(([a, b]) => a < at && at <= b)) out.add(k);
  });
  return out;
}
