// `rlaifv eval`'s correction figures: per correction editor, its corrected answers and pairs judged by the truth.
import type { AnswerTruth } from './truth.js';
import type { EvalRound } from './types.js';

/** One correction editor's figures against the truth (`rlaifv eval`'s `corrections.<editor>`). */
export interface CorrectionFigures {
  /** Corrected answers the editor wrote, and the share of them with no false claim by the truth. */
  answers: number;
  answers_false_free: number | null;
  /** Kept correction pairs (after the gate and length balance) of this editor. */
  pairs: number;
  /** Share of those pairs' chosen (corrected) answers with no false claim by the truth. */
  chosen_false_free: number | null;
  /** Mean, over those pairs, of the original's true claims (by the truth) that the corrected answer no longer makes. */
  true_claims_lost: number | null;
  /** Mean false claims the original had, and the corrected answer has, over those pairs. */
  original_false: number | null;
  chosen_false: number | null;
}

/**
 * Per editor, how right the corrected answers are by the truth and what they lost: a claim the original made and
 * the checker judges true is lost when no claim of the corrected answer says the same (same claim text).
 */
export function correctionFigures(round: EvalRound, truths: Map<string, AnswerTruth>): Record<string, CorrectionFigures> {
  const byId = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((a) => [a.id, a] as const)));
  const editorOf = new Map(round.prompts.flatMap((p) => (p.corrections ?? []).map((c) => [c.id, c] as const)));
  const out: Record<string, CorrectionFigures> = {};
  const fig = (editor: string) =>
    (out[editor] ??= { answers: 0, answers_false_free: null, pairs: 0, chosen_false_free: null, true_claims_lost: null, original_false: null, chosen_false: null });
  const acc = new Map<string, { free: number; divided: number; pFree: number; lost: number; of: number; cf: number }>();
  const a0 = (e: string) => acc.get(e) ?? (acc.set(e, { free: 0, divided: 0, pFree: 0, lost: 0, of: 0, cf: 0 }), acc.get(e)!);
  for (const c of editorOf.values()) {
    const f = fig(c.editor);
    f.answers++;
    const t = truths.get(c.id);
    if (c.division !== null && c.claims.length > 0 && t) {
      a0(c.editor).divided++;
      if (t.nFalse === 0) a0(c.editor).free++;
    }
  }
  for (const p of round.storedPairs) {
    if (p.kind !== 'correction' || p.balanceKept !== true) continue;
    const c = editorOf.get(p.chosenId);
    const o = byId.get(p.rejectedId);
    const tc = truths.get(p.chosenId);
    const to = truths.get(p.rejectedId);
    if (!c || !o || !tc || !to) continue;
    const f = fig(c.editor);
    const a = a0(c.editor);
    f.pairs++;
    if (tc.nFalse === 0) a.pFree++;
    const said = new Set(c.claims.map((x) => x.claim.toLowerCase()));
    a.lost += o.claims.filter((x, i) => to.claims[i]?.claim === 'true' && !said.has(x.claim.toLowerCase())).length;
    a.of += to.nFalse;
    a.cf += tc.nFalse;
  }
  for (const [editor, f] of Object.entries(out)) {
    const a = a0(editor);
    f.answers_false_free = a.divided ? a.free / a.divided : null;
    f.chosen_false_free = f.pairs ? a.pFree / f.pairs : null;
    f.true_claims_lost = f.pairs ? a.lost / f.pairs : null;
    f.original_false = f.pairs ? a.of / f.pairs : null;
    f.chosen_false = f.pairs ? a.cf / f.pairs : null;
  }
  return out;
}
