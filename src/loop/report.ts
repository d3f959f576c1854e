// A loop's rounds as `rlaifv loop --json` prints them: each step's record and the checkpoint's held-out figures.
import { getPolicyEval, loopRounds, type Db } from '../store/index.js';
import { policyEvaluation, type PolicyEvaluation } from '../eval/runs/policy-eval.js';
import type { AblationFigures } from '../eval/runs/ablation.js';
import type { FeedbackReport } from '../eval/runs/correction.js';
import type { SelectCandidate } from './select.js';
import { truthFree, type LoopTruthFree } from './win-rates.js';

/** One round of a loop as `rlaifv loop --json` prints it. */
export interface LoopRoundReport {
  loop: number;
  loop_round: number;
  /** The store's round that made this round's pairs. */
  round: number | null;
  policy: string;
  checkpoint: string | null;
  checkpoint_sha256: string | null;
  pairs: number | null;
  pairs_file: string | null;
  delivery: number | null;
  trainer_exit: number | null;
  served_model: string | null;
  /** Checkpoint selection's candidates with their validation figures (loop.select: best); null otherwise. */
  select: SelectCandidate[] | null;
  /**
   * The held-out evaluation of this round's checkpoint: the truth's sampled figures (null where the prompts carry no
   * truth), plus `greedy`, and `truth_free` with the win rates against the previous round and the start.
   */
  eval:
    | (PolicyEvaluation['sampled'] & {
        greedy: PolicyEvaluation['greedy'];
        eval_id: number;
        truth_free: LoopTruthFree;
        /** ConvBench's multi-turn ablation of the checkpoint (loop.ablation_prompts); null when not configured. */
        multiturn_ablation: AblationFigures | null;
        /** The checkpoint's correction rate after feedback (loop.eval_feedback); null when not configured. */
        feedback: FeedbackReport | null;
      })
    | null;
  /** The SFT step on the round's refinement dialogues (loop.sft_trainer): its dialogues and checkpoint; null: none. */
  sft: { dialogues_file: string; dialogues: number; checkpoint: string | null } | null;
}

/** Every round of a loop as reported. */
export function loopReport(db: Db, loopId: number): LoopRoundReport[] {
  const rows = loopRounds(db, loopId);
  return rows.map((r) => {
    const ev = r.eval_id === null ? null : policyEvaluation(getPolicyEval(db, r.eval_id)!);
    return {
      loop: loopId,
      loop_round: r.idx,
      round: r.train_round,
      policy: r.policy,
      checkpoint: r.checkpoint,
      checkpoint_sha256: r.checkpoint_sha256,
      pairs: r.pairs,
      pairs_file: r.pairs_file,
      delivery: r.delivery_id,
      trainer_exit: r.trainer_exit,
      served_model: r.served_model,
      select: r.select_json ? (JSON.parse(r.select_json) as SelectCandidate[]) : null,
      eval: ev
        ? {
            ...ev.sampled,
            greedy: ev.greedy,
            eval_id: ev.id,
            truth_free: truthFree(ev, r.win_rates_json),
            multiturn_ablation: r.ablation_json ? (JSON.parse(r.ablation_json) as AblationFigures) : null,
            feedback: r.feedback_json ? (JSON.parse(r.feedback_json) as FeedbackReport) : null,
          }
        : null,
      sft: r.dialogues_file ? { dialogues_file: r.dialogues_file, dialogues: r.dialogues ?? 0, checkpoint: r.sft_checkpoint } : null,
    };
  });
}
