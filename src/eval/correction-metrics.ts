// The policy's correction rate after feedback (InterFeedback's N_e, N_c) and FIRE's refinement figures (AT, ADR, ATR,
// RR), from the outcome of each feedback conversation. Pure arithmetic; rlaifv's definitions are in the README
// ("The policy's correction rate"), since FIRE's appendix names its metrics without defining them.

/** How one first answer that the truth judges wrong fared in its feedback conversation. */
export interface ConversationOutcome {
  promptId: string;
  /** The instruction's kind (meta.kind; 'other' without one). */
  kind: string;
  /** In N_e: the provider's first feedback (without noise) is right (see `inNe` in correction.ts). */
  inNe: boolean;
  /** FIRE's score (by the truth) of the first answer, then of each revision the conversation got. */
  scores: number[];
  /** The feedback turn after which the answer was correct (1 = after one turn); null: never. */
  correctAt: number | null;
  /** The first revision is correct and says something (true) about the subject of each false claim of the first answer. */
  onSubject?: boolean;
  /** The first revision holds a false claim the first answer did not have (null: no first revision). */
  harmed: boolean | null;
  /** The turn the policy could not answer (the conversation no longer fits its context); null: not cut. */
  cutAt: number | null;
}

/** The figures of a set of conversations (null where there is nothing to divide by). */
export interface FeedbackFigures {
  /** First answers wrong by the truth: every one gets a conversation. */
  n_wrong: number;
  n_e: number;
  /** Of N_e, correct after one feedback turn. */
  n_c: number;
  correction_rate: number | null;
  /** Of N_c, those whose revision speaks (truly) of the subject of each false claim it was told about: a correction, not a change of subject. */
  n_c_on_subject: number;
  correction_rate_on_subject: number | null;
  /** Of N_e's first revisions, those with a false claim the first answer did not have. */
  harm_rate: number | null;
  /** Of N_e, correct after turn 1, 2, … max_turns (a conversation ends once correct, so the shares only grow). */
  correct_after_turn: (number | null)[];
  /** Mean feedback turns until correct over N_e; never corrected counts max_turns + 1. */
  at: number | null;
  /** Mean score gain from the first answer to the conversation's last over N_e. */
  adr: number | null;
  /** Total score gain over total feedback turns taken, over N_e. */
  atr: number | null;
  /** Of all first answers wrong by the truth (n_wrong), those that end correct. */
  rr: number | null;
  /** Conversations of N_e cut short by the policy's context. */
  cut: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/**
 * The figures of the conversations (each a first answer wrong by the truth), with up to `maxTurns` feedback turns.
 * @example feedbackFigures([{ promptId: 'p', kind: 'counting', inNe: true, scores: [0, 10], correctAt: 1, harmed: false, cutAt: null }], 3).correction_rate // 1
 */
export function feedbackFigures(outcomes: readonly ConversationOutcome[], maxTurns: number): FeedbackFigures {
  const ne = outcomes.filter((o) => o.inNe);
  const revised = ne.filter((o) => o.harmed !== null);
  let gain = 0;
  let turns = 0;
  let at = 0;
  for (const o of ne) {
    gain += o.scores[o.scores.length - 1]! - o.scores[0]!;
    turns += o.scores.length - 1;
    at += o.correctAt ?? maxTurns + 1;
  }
  return {
    n_wrong: outcomes.length,
    n_e: ne.length,
    n_c: ne.filter((o) => o.correctAt === 1).length,
    correction_rate: ratio(ne.filter((o) => o.correctAt === 1).length, ne.length),
    n_c_on_subject: ne.filter((o) => o.correctAt === 1 && o.onSubject).length,
    correction_rate_on_subject: ratio(ne.filter((o) => o.correctAt === 1 && o.onSubject).length, ne.length),
    harm_rate: ratio(revised.filter((o) => o.harmed).length, revised.length),
    correct_after_turn: Array.from({ length: maxTurns }, (_, k) => ratio(ne.filter((o) => o.correctAt !== null && o.correctAt <= k + 1).length, ne.length)),
    at: ratio(at, ne.length),
    adr: ratio(gain, ne.length),
    atr: ratio(gain, turns),
    rr: ratio(outcomes.filter((o) => o.correctAt !== null).length, outcomes.length),
    cut: ne.filter((o) => o.cutAt !== null).length,
  };
}

/** The figures per instruction kind, kinds in alphabetical order. */
export function feedbackByKind(outcomes: readonly ConversationOutcome[], maxTurns: number): Record<string, FeedbackFigures> {
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort();
  return Object.fromEntries(kinds.map((k) => [k, feedbackFigures(outcomes.filter((o) => o.kind === k), maxTurns)]));
}
