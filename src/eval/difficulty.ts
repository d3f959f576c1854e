// The difficulty lens of a round's pairs (issue "Tools that check what a labeler can't", item 3): how far apart a
// pair's two sides are (their claim sets, their words) and what kind of claim decided it, for the kept pairs and for
// those the quality gate dropped. It tests the reading that the gate drops the pairs that teach counting.
import type { AcceptRule } from '../feedback/verdict.js';
import { labelerVerdict } from './pairs.js';
import { questionForm, type QuestionForm } from './truth.js';
import { normClaim } from './claims.js';
import type { EvalAnswer, EvalRound } from './types.js';

/** The lens's figures for a set of pairs. */
export interface PairDifficulty {
  pairs: number;
  /** Mean size of the symmetric difference of the two sides' claim sets (claims compared as normalised text). */
  claim_diff: number | null;
  /** Mean word-level edit distance (Levenshtein over whitespace words, case-folded) between the two texts. */
  edit_distance: number | null;
  /**
   * Pairs by the form of their deciding claim: the first claim of the rejected side that the labeler rejected and the
   * chosen side does not make (else its first rejected claim); `none` when the rejected side has no rejected claim
   * (a pair another method ranked).
   */
  deciding_form: Partial<Record<QuestionForm | 'none', number>>;
}

/**
 * Word-level Levenshtein distance.
 * @example wordEditDistance('There is a red square.', 'There is a blue square.') // 1
 */
export function wordEditDistance(a: string, b: string): number {
  const x = a.toLowerCase().split(/\s+/).filter(Boolean);
  const y = b.toLowerCase().split(/\s+/).filter(Boolean);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

/** An answer as the lens reads it: its text and its claims with the labeler's verdict (true = rejected, null = none). */
export interface LensAnswer {
  text: string;
  claims: readonly { claim: string; rejected: boolean | null }[];
}

/** One pair through the lens: its claim-set difference, word edit distance and deciding claim's form. */
export interface PairLens {
  claim_diff: number;
  edit_distance: number;
  deciding_claim: string | null;
  deciding_form: QuestionForm | 'none';
}

/** The claim that decided a pair (see PairDifficulty.deciding_form), or null. */
export function decidingClaim(chosen: LensAnswer, rejected: LensAnswer): string | null {
  const said = new Set(chosen.claims.map((c) => normClaim(c.claim)));
  const rej = rejected.claims.filter((c) => c.rejected === true);
  return (rej.find((c) => !said.has(normClaim(c.claim))) ?? rej[0])?.claim ?? null;
}

/** One pair through the lens. */
export function pairLens(chosen: LensAnswer, rejected: LensAnswer): PairLens {
  const cs = new Set(chosen.claims.map((x) => normClaim(x.claim)));
  const rs = new Set(rejected.claims.map((x) => normClaim(x.claim)));
  const d = decidingClaim(chosen, rejected);
  return {
    claim_diff: [...cs].filter((x) => !rs.has(x)).length + [...rs].filter((x) => !cs.has(x)).length,
    edit_distance: wordEditDistance(chosen.text, rejected.text),
    deciding_claim: d,
    deciding_form: d === null ? 'none' : questionForm(d),
  };
}

/** An evaluated answer as the lens reads it, with the labeler's verdicts under the round's accept rule. */
export function lensAnswer(a: EvalAnswer, rule: AcceptRule): LensAnswer {
  return { text: a.text, claims: a.claims.map((c) => ({ claim: c.claim, rejected: labelerVerdict(c, rule) })) };
}

/** The lens over pairs given as (chosen id, rejected id) of one round. */
export function pairDifficulty(round: EvalRound, pairs: readonly { chosenId: string; rejectedId: string }[]): PairDifficulty {
  const answers = new Map(round.prompts.flatMap((p) => [...p.answers, ...(p.corrections ?? [])].map((a) => [a.id, a] as const)));
  let claimDiff = 0;
  let edit = 0;
  let n = 0;
  const forms: PairDifficulty['deciding_form'] = {};
  for (const p of pairs) {
    const c = answers.get(p.chosenId);
    const r = answers.get(p.rejectedId);
    if (!c || !r) continue;
    n++;
    const l = pairLens(lensAnswer(c, round.acceptRule), lensAnswer(r, round.acceptRule));
    claimDiff += l.claim_diff;
    edit += l.edit_distance;
    forms[l.deciding_form] = (forms[l.deciding_form] ?? 0) + 1;
  }
  return { pairs: n, claim_diff: n ? claimDiff / n : null, edit_distance: n ? edit / n : null, deciding_form: forms };
}
