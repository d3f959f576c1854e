// The `policy` part of `rlaifv eval`: how much the policy of a round hallucinates, on held-out prompts when the store
// has an evaluation of it (made by `rlaifv loop` or `rlaifv eval --policy`), else on the round's own answers.
import { getRound, latestPolicyEval, policyEvalOfRound, type Db, type PolicyEvalRow } from '../store/index.js';
import { policyFigures, type PolicyFigures } from './policy.js';
import type { EvalRound } from './types.js';
import { table } from './render.js';
import type { TruthFreeFigures } from './truth-free.js';

/** The policy figures of sampled answers, the greedy ones beside them, and where they come from. */
export interface PolicyReport extends PolicyFigures {
  /** The policy as the round's config names it (a folder, or a served model name). */
  model: string;
  /** True: measured on held-out prompts by a policy evaluation; false: on the round's own (training) prompts. */
  held_out: boolean;
  /** The held-out prompts file (null for a round's own answers). */
  prompts_file: string | null;
  eval_id: number | null;
  sampled_round: number;
  greedy_round: number | null;
  greedy: PolicyFigures | null;
}

/** A stored evaluation as a report (null while unfinished). */
export function policyReportOf(row: PolicyEvalRow): PolicyReport | null {
  if (!row.figures_json || row.sampled_round === null) return null;
  const f = JSON.parse(row.figures_json) as { sampled: PolicyFigures; greedy: PolicyFigures | null };
  return {
    ...f.sampled,
    model: row.policy,
    held_out: true,
    prompts_file: row.prompts,
    eval_id: row.id,
    sampled_round: row.sampled_round,
    greedy_round: row.greedy_round,
    greedy: f.greedy,
  };
}

/**
 * The policy report of a round: for an evaluation round, its evaluation; for a training round, the newest held-out
 * evaluation of its policy, or else the figures of the round's own sampled answers (`held_out: false`).
 */
export function roundPolicyReport(db: Db, round: EvalRound): PolicyReport {
  const row = getRound(db, round.id)!;
  const own = policyEvalOfRound(db, round.id);
  if (own) {
    const r = policyReportOf(own);
    if (r) return r;
  }
  const model = (JSON.parse(row.config_json) as { generate?: { backend?: { model?: string } } }).generate?.backend?.model ?? row.policy_model;
  const stored = row.purpose === 'train' ? latestPolicyEval(db, model) : undefined;
  const held = stored ? policyReportOf(stored) : null;
  if (held) return held;
  return { ...policyFigures(round.prompts), model, held_out: false, prompts_file: null, eval_id: null, sampled_round: round.id, greedy_round: null, greedy: null };
}

const share = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const dec = (x: number | null, d = 2) => (x === null ? '–' : x.toFixed(d));

/** The policy report as text: one row for the sampled answers, one for the greedy ones. */
export function renderPolicyReport(p: PolicyReport): string {
  const where = p.held_out ? `held-out prompts ${p.prompts_file} (evaluation ${p.eval_id})` : `round ${p.sampled_round}'s own prompts (no held-out evaluation of this policy stored)`;
  const row = (name: string, f: PolicyFigures) => [
    name,
    share(f.false_claim_rate),
    share(f.response_hallucination_rate),
    dec(f.true_claims_per_answer),
    share(f.object_coverage),
    share(f.judgeable_share),
    dec(f.distinct_answers_per_prompt, 1),
    dec(f.mean_words, 1),
  ];
  const rows = [['answers', 'false claims', 'answers w/ false', 'true/answer', 'objects mentioned', 'judgeable', 'distinct/prompt', 'words'], row(`sampled (round ${p.sampled_round})`, p)];
  if (p.greedy) rows.push(row(`greedy (round ${p.greedy_round})`, p.greedy));
  return `policy ${p.model} on ${where}\n${table(rows)}\n`;
}

/** The truth-free figures (the labeler's verdicts on the divider's claims) as text: sampled, then greedy. */
export function renderTruthFree(f: { truth_free: TruthFreeFigures; greedy_truth_free: TruthFreeFigures | null; sampled_round: number; greedy_round: number | null; has_truth: boolean }): string {
  const row = (name: string, t: TruthFreeFigures) => [
    name,
    share(t.rejected_claim_rate),
    share(t.answers_with_rejected_claim),
    dec(t.accepted_claims_per_answer),
    dec(t.distinct_answers_per_prompt, 1),
    dec(t.mean_words, 1),
    String(t.unscored),
  ];
  const rows = [['truth-free (labeler)', 'rejected claims', 'answers w/ rejected', 'accepted/answer', 'distinct/prompt', 'words', 'unscored'], row(`sampled (round ${f.sampled_round})`, f.truth_free)];
  if (f.greedy_truth_free) rows.push(row(`greedy (round ${f.greedy_round})`, f.greedy_truth_free));
  const note = f.has_truth ? '' : 'these prompts carry no truth (meta.truth): the truth\'s figures are –\n';
  return `${table(rows)}\n${note}`;
}
