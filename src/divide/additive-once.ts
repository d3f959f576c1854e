/**
 * "In addition to his work at Signaturit, Fernandez Fe has invested in several startups, OnTruck and Factorial.": a
 * fronted "in addition to X" (or "besides", "apart from", "aside from", "outside (of)") names another fact of the
 * subject's, which the sentence takes as known. Each claim split from the sentence had carried it ("In addition to his
 * work at Signaturit, Fernandez Fe has invested in OnTruck.", five times), so the labeler judged X again with every
 * item and one wrong X counted five times in REJ-C. The phrase now stays on the sentence's first claim only, which
 * keeps its fact ("Harrison has starred in Star Wars." is what FActScore's annotators wrote for "In addition to Star
 * Wars, Harrison has also starred in Indiana Jones."); the claims after it go on without the phrase.
 */
import { claimToQuestion } from './question.js';

// The phrase, up to its comma, and the clause after it (which opens with its subject).
const ADDITIVE = /^((?:in addition to|besides|apart from|aside from|outside of|outside) [^,]{1,60}), (\S.*)$/i;

/** The claims with a fronted additive phrase kept on the first that has it; the claims as they are otherwise. */
export function additiveOnce<C extends { claim: string; question: string }>(pairs: C[]): C[] {
  const seen = new Set<string>();
  return pairs.map((c) => {
    const m = ADDITIVE.exec(c.claim);
    if (m === null) return c;
    const phrase = m[1]!.toLowerCase();
    if (!seen.has(phrase)) {
      seen.add(phrase);
      return c;
    }
    const rest = m[2]!;
    const claim = rest.charAt(0).toUpperCase() + rest.slice(1);
    const question = claimToQuestion(claim);
    return question === null ? c : { ...c, claim, question };
  });
}
