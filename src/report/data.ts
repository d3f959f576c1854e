// Everything the HTML report shows about one round, gathered from the store into one plain object. Verdicts are
// the round's own: isRejected under the round's accept rule, the function the score stage uses.
import { getPolicyEval, getRound, loopOfRound, roundStats, type Db, type RoundRow } from '../store/index.js';
import type { TruthFreeFigures } from '../eval/truth-free.js';
import type { PolicyFigures } from '../eval/policy.js';
import {
  iterateRoundAnswers,
  iterateRoundClaims,
  iterateRoundFailures,
  iterateRoundPairLengths,
  iterateRoundPromptMeta,
  iterateRoundQuestions,
  roundDroppedPairs,
} from '../store/report-rows.js';
import { isRejected } from '../feedback/verdict.js';
import { lengthStats } from '../feedback/length-balance.js';
import { STAGES } from '../domain.js';
import { countInts, countShares, countWordBins } from './bins.js';
import { gatherOnPolicy } from './on-policy.js';
import type { KindRow, LoopSeries, RejectedClaim, ReportData, StageFailures } from './types.js';

export type { KindRow, RejectedClaim, ReportData, StageFailures } from './types.js';

/** How many rows the report's lists show at most. */
export const REPORT_LIMITS = { topRejected: 25, unscoredQuestions: 50, reasonsPerStage: 10, rawChars: 300 };

/** Stages that record failures, in pipeline order: the prompts input, then the five stages. */
export const FAILURE_STAGES: readonly string[] = ['input', ...STAGES];

/**
 * The kind a prompt's `meta.kind` names, or "other" when its meta has no kind (a non-empty string).
 * @example promptKind('{"kind":"counting"}') // 'counting'
 */
export function promptKind(metaJson: string | null): string {
  if (!metaJson) return 'other';
  const kind = (JSON.parse(metaJson) as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && kind.trim() !== '' ? kind : 'other';
}

type Verdict = (p: { p_yes: number | null; p_no: number | null }) => boolean | null;

/** Rows per instruction kind, and each prompt's kind. */
class Kinds {
  readonly of = new Map<string, string>();
  private readonly rows = new Map<string, KindRow>();
  row(kind: string): KindRow {
    let k = this.rows.get(kind);
    if (!k) this.rows.set(kind, (k = { kind, prompts: 0, answers: 0, claims: 0, judged: 0, rejected: 0, rate: null }));
    return k;
  }
  ofPrompt(promptId: string): KindRow {
    return this.row(this.of.get(promptId) ?? 'other');
  }
  /** The rows by kind name, "other" last, with their rates. */
  list(): KindRow[] {
    const rows = [...this.rows.values()].map((k) => ({ ...k, rate: k.judged ? k.rejected / k.judged : null }));
    return rows.sort((a, b) => Number(a.kind === 'other') - Number(b.kind === 'other') || (a.kind < b.kind ? -1 : 1));
  }
}

/** Gathers one round's report data; throws when the round does not exist. */
export function gatherReport(db: Db, roundId: number): ReportData {
  const round = getRound(db, roundId);
  if (!round) throw new Error(`No round ${roundId} in this database.`);
  const stats = roundStats(db, roundId);
  const verdict: Verdict = (p) => (p.p_yes !== null && p.p_no !== null ? isRejected(p.p_yes, p.p_no, round.accept_rule) : null);
  const kinds = new Kinds();
  for (const p of iterateRoundPromptMeta(db, roundId)) {
    const kind = promptKind(p.meta_json);
    kinds.of.set(p.prompt_id, kind);
    kinds.row(kind).prompts++;
  }
  const answers = gatherAnswers(db, roundId, kinds);
  const claims = gatherClaims(db, round, kinds, verdict);
  const questions = gatherQuestions(db, round, verdict);
  return {
    generated_at: new Date().toISOString(),
    round: {
      id: round.id,
      status: round.status,
      policy_model: round.policy_model,
      labeler_model: round.labeler_model,
      divider: round.divider,
      config_hash: round.config_hash,
      seed: round.seed,
      accept_rule: round.accept_rule,
      score_method: round.score_method,
      feedback_method: round.feedback_method,
      pair_method: round.pair_method,
      samples: (JSON.parse(round.config_json) as { generate?: { samples?: number } }).generate?.samples ?? null,
      started_at: round.started_at,
      finished_at: round.finished_at,
    },
    counts: {
      prompts: stats.prompts,
      answers: stats.candidates,
      divided: stats.divided,
      claims: stats.claims,
      questions: stats.questions,
      judged_claims: claims.judged,
      rejected_claims: claims.rejected,
      unscored_questions: stats.unscored_questions,
      scored_answers: stats.scored,
      pairs: stats.pairs,
      pairs_after_balance: stats.pairs_after_balance,
      balance_r: stats.balance_r,
      failures: stats.failures,
      corrections: stats.corrections,
    },
    failures: gatherFailures(db, roundId),
    rejc: countInts(answers.rejCounts),
    rejp: countShares(answers.rejShares, 10, true),
    claims_per_answer: countInts(answers.claimCounts),
    kinds: kinds.list(),
    p_yes: questions.pYes,
    lengths: gatherLengths(db, round),
    pairing: roundDroppedPairs(db, roundId, round.pair_method),
    top_rejected: claims.top,
    unscored: {
      ...answers.unscored,
      unlabeled_claims: claims.unlabeled,
      unscored_claims: claims.unscored,
      questions: questions.unscored,
    },
    seconds_by_stage: stats.seconds_by_stage,
    loop: gatherLoop(db, roundId),
    on_policy: gatherOnPolicy(db, roundId),
  };
}

function gatherAnswers(db: Db, roundId: number, kinds: Kinds) {
  const unscored = {
    answers_not_divided: 0,
    answers_not_scored: 0,
    answers_partly_judged: 0,
    answers_without_claims: 0,
    truncated_answers: 0,
    finish_reasons: {} as Record<string, number>,
    skipped_sentences: {} as Record<string, number>,
  };
  const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
  const rejCounts: number[] = [];
  const rejShares: number[] = [];
  const claimCounts: number[] = [];
  for (const a of iterateRoundAnswers(db, roundId)) {
    kinds.ofPrompt(a.prompt_id).answers++;
    bump(unscored.finish_reasons, a.finish_reason);
    if (!a.divided) {
      unscored.answers_not_divided++;
      continue;
    }
    claimCounts.push(a.division_claims!);
    if (a.truncated) unscored.truncated_answers++;
    for (const s of JSON.parse(a.skipped_json!) as { reason: string }[]) bump(unscored.skipped_sentences, s.reason);
    if (!a.scored) unscored.answers_not_scored++;
    else if (a.rej_c === null) unscored.answers_without_claims++;
    else {
      if (a.n_judged! < a.n_claims!) unscored.answers_partly_judged++;
      rejCounts.push(a.n_rejected!);
      rejShares.push(a.rej_p!);
    }
  }
  return { unscored, rejCounts, rejShares, claimCounts };
}

function gatherClaims(db: Db, round: RoundRow, kinds: Kinds, verdict: Verdict) {
  const byClaim = new Map<string, RejectedClaim>();
  const out = { judged: 0, rejected: 0, unlabeled: 0, unscored: 0, top: [] as RejectedClaim[] };
  for (const c of iterateRoundClaims(db, round.id, round.labeler_model)) {
    const k = kinds.ofPrompt(c.prompt_id);
    k.claims++;
    const v = verdict(c);
    if (v === null) {
      if (c.labeled) out.unscored++;
      else out.unlabeled++;
      continue;
    }
    out.judged++;
    k.judged++;
    let t = byClaim.get(c.claim);
    if (!t) byClaim.set(c.claim, (t = { claim: c.claim, rejected: 0, judged: 0, mean_p_yes: 0, mean_p_no: 0 }));
    t.judged++;
    t.mean_p_yes += c.p_yes!;
    t.mean_p_no += c.p_no!;
    if (v) {
      out.rejected++;
      k.rejected++;
      t.rejected++;
    }
  }
  out.top = [...byClaim.values()]
    .filter((t) => t.rejected > 0)
    .sort((a, b) => b.rejected - a.rejected || b.rejected / b.judged - a.rejected / a.judged || (a.claim < b.claim ? -1 : 1))
    .slice(0, REPORT_LIMITS.topRejected)
    .map((t) => ({ ...t, mean_p_yes: t.mean_p_yes / t.judged, mean_p_no: t.mean_p_no / t.judged }));
  return out;
}

const PYES_BINS = 20;

function gatherQuestions(db: Db, round: RoundRow, verdict: Verdict) {
  const accepted: number[] = [];
  const rejected: number[] = [];
  const unscored: { question_id: string; text: string }[] = [];
  for (const q of iterateRoundQuestions(db, round.id, round.labeler_model)) {
    const v = verdict(q);
    if (v !== null) (v ? rejected : accepted).push(q.p_yes!);
    else if (q.labeled && unscored.length < REPORT_LIMITS.unscoredQuestions) unscored.push({ question_id: q.question_id, text: q.text });
  }
  const acc = countShares(accepted, PYES_BINS, false);
  return { pYes: { labels: acc.labels, accepted: acc.counts, rejected: countShares(rejected, PYES_BINS, false).counts }, unscored };
}

function gatherLengths(db: Db, round: RoundRow): ReportData['lengths'] {
  const pairs = [...iterateRoundPairLengths(db, round.id, round.pair_method)];
  const kept = pairs.filter((p) => p.balance_kept === 1);
  const words = countWordBins([
    pairs.map((p) => p.chosen_words),
    pairs.map((p) => p.rejected_words),
    kept.map((p) => p.chosen_words),
    kept.map((p) => p.rejected_words),
  ]);
  const asLengths = (ps: typeof pairs) => ps.map((p) => ({ chosenWords: p.chosen_words, rejectedWords: p.rejected_words }));
  return {
    before: lengthStats(asLengths(pairs)),
    after: lengthStats(asLengths(kept)),
    labels: words.labels,
    before_chosen: words.series[0]!,
    before_rejected: words.series[1]!,
    after_chosen: words.series[2]!,
    after_rejected: words.series[3]!,
  };
}

function gatherFailures(db: Db, roundId: number): StageFailures[] {
  const stages = new Map<string, { count: number; reasons: Map<string, StageFailures['reasons'][number]> }>();
  for (const f of iterateRoundFailures(db, roundId)) {
    let s = stages.get(f.stage);
    if (!s) stages.set(f.stage, (s = { count: 0, reasons: new Map() }));
    s.count++;
    const r = s.reasons.get(f.reason);
    if (r) r.count++;
    else {
      const raw = f.raw === null ? null : f.raw.slice(0, REPORT_LIMITS.rawChars);
      s.reasons.set(f.reason, { reason: f.reason, count: 1, example_item: f.item, example_raw: raw });
    }
  }
  const rank = (stage: string) => (FAILURE_STAGES.includes(stage) ? FAILURE_STAGES.indexOf(stage) : FAILURE_STAGES.length);
  return [...stages.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .map(([stage, s]) => ({
      stage,
      count: s.count,
      reasons: [...s.reasons.values()].sort((a, b) => b.count - a.count).slice(0, REPORT_LIMITS.reasonsPerStage),
    }));
}

/** The loop series when the round is a loop's training round: its start policy and each checkpoint, evaluated held-out. */
function gatherLoop(db: Db, roundId: number): LoopSeries | null {
  const l = loopOfRound(db, roundId);
  if (!l) return null;
  type Stored = { sampled: PolicyFigures; greedy: PolicyFigures | null; truth_free?: TruthFreeFigures };
  type Win = { win_rate_a: number | null; ci95: [number, number] | null };
  const figures = (id: number | null) => {
    const row = id === null ? undefined : getPolicyEval(db, id);
    return row?.figures_json ? (JSON.parse(row.figures_json) as Stored) : null;
  };
  const points: { label: string; f: Stored | null; pairs: number | null; wins: { judge: string; vs_previous: Win; vs_start: Win } | null }[] = [
    { label: 'start', f: figures(l.loop.baseline_eval), pairs: null, wins: null },
  ];
  for (const r of l.rounds) points.push({ label: `round ${r.idx}`, f: figures(r.eval_id), pairs: r.pairs, wins: r.win_rates_json ? JSON.parse(r.win_rates_json) : null });
  const pick = (k: keyof PolicyFigures) => points.map((p) => (p.f ? (p.f.sampled[k] as number | null) : null));
  const free = (k: keyof TruthFreeFigures) => points.map((p) => (p.f?.truth_free ? (p.f.truth_free[k] as number | null) : null));
  return {
    loop: l.loop.id,
    this_round: l.rounds.find((r) => r.train_round === roundId)!.idx,
    labels: points.map((p) => p.label),
    false_claim_rate: pick('false_claim_rate'),
    greedy_false_claim_rate: points.map((p) => p.f?.greedy?.false_claim_rate ?? null),
    response_hallucination_rate: pick('response_hallucination_rate'),
    true_claims_per_answer: pick('true_claims_per_answer'),
    object_coverage: pick('object_coverage'),
    distinct_answers_per_prompt: pick('distinct_answers_per_prompt'),
    pairs: points.map((p) => p.pairs),
    rejected_claim_rate: free('rejected_claim_rate'),
    accepted_claims_per_answer: free('accepted_claims_per_answer'),
    win_rate_vs_previous: points.map((p) => p.wins?.vs_previous.win_rate_a ?? null),
    win_rate_vs_previous_ci: points.map((p) => p.wins?.vs_previous.ci95 ?? null),
    win_rate_vs_start: points.map((p) => p.wins?.vs_start.win_rate_a ?? null),
    win_rate_vs_start_ci: points.map((p) => p.wins?.vs_start.ci95 ?? null),
    judge: points.find((p) => p.wins)?.wins?.judge ?? null,
  };
}
