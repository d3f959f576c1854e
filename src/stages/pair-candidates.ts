// What pairing reads: stored scored answers, and a prompt's scored corrections with their originals.
import type { ScoredCandidate, ScoredCorrection } from '../store/index.js';
import type { ScoredAnswer } from '../feedback/pairs.js';
import { rejectProbability } from '../feedback/gate.js';
import type { CorrectionCandidate } from '../feedback/corrections.js';
import type { CorrectionEditor } from '../feedback/corrections.js';

/** A stored scored answer as pairing sees it ("higher is better"); null: no score (no claims, or the method gave none). */
export function scoredAnswer(method: string, probs?: Map<string, { p_yes: number | null; p_no: number | null }[]>): (c: ScoredCandidate) => ScoredAnswer | null {
  return (c) => {
    const value = method === 'rejc' ? c.rej_c : method === 'rejp' ? (c.rej_p == null ? null : -c.rej_p) : c.value;
    if (value === null || value === undefined) return null;
    const p = probs?.get(c.id);
    return {
      id: c.id,
      text: c.text,
      words: c.words,
      nClaims: c.n_claims,
      nJudged: c.n_judged,
      ...(c.n_questions !== undefined ? { nQuestions: c.n_questions } : {}),
      ...(p ? { rejectProbs: p.map((x) => rejectProbability(x.p_yes, x.p_no)) } : {}),
      value,
    };
  };
}

/** A prompt's scored corrections as correction pairing reads them (values as the method ranks, higher is better). */
export function correctionCandidates(
  method: string,
  fixes: readonly ScoredCorrection[],
  probs?: Map<string, { p_yes: number | null; p_no: number | null }[]>,
): CorrectionCandidate[] {
  // Both sides as rank pairing sees an answer (scoredAnswer: the method's value and the gate's reject probabilities).
  const asAnswer = scoredAnswer(method, probs);
  const out: CorrectionCandidate[] = [];
  for (const f of fixes) {
    const corrected = asAnswer(f);
    const original = asAnswer({
      id: f.corrects_id,
      prompt_id: f.prompt_id,
      text: f.original_text,
      words: f.original_words,
      n_claims: f.original_n_claims,
      n_judged: f.original_n_judged,
      n_questions: f.original_n_questions,
      rej_c: f.original_rej_c,
      rej_p: f.original_rej_p,
    });
    if (corrected === null || original === null) continue; // an answer without claims (an edit that left none) is never paired
    out.push({
      editor: f.editor as CorrectionEditor,
      corrected: { ...corrected, nRejected: f.n_rejected },
      original: { ...original, nRejected: f.original_n_rejected },
    });
  }
  return out;
}
