// Everything the HTML report shows about one round, gathered from the store into one plain object.
import { getRound, roundStats, type Db } from '../store/index.js';
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
import { lengthStats, type LengthStats } from '../feedback/length-balance.js';
import { STAGES } from '../round.js';
import { countInts, countShares, countWordBins, type Histogram } from './bins.js';

/** How many rows the report's lists show at most. */
export const REPORT_LIMITS = { topRejected: 25, unscoredQuestions: 50, reasonsPerStage: 10, rawChars: 300 };

/** The kind a prompt's `meta.kind` names, or "other" when its meta has no kind (a non-empty string). */
export function promptKind(metaJson: string | null): string {
  if (!metaJson) return 'other';
  const kind = (JSON.parse(metaJson) as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && kind.trim() !== '' ? kind : 'other';
}

/** One stage's failures, grouped by reason (most frequent first). */
export interface StageFailures {
  stage: string;
  count: number;
  reasons: { reason: string; count: number; example_item: string; example_raw: string | null }[];
}

/** Rejections of the claims of one instruction kind. */
export interface KindRow {
  kind: string;
  prompts: number;
  answers: number;
  claims: number;
  judged: number;
  rejected: number;
  /** rejected / judged, null when nothing was judged. */
  rate: number | null;
}

/** A claim text the labeler rejected, over every answer of the round that made it. */
export interface RejectedClaim {
  claim: string;
  rejected: number;
  judged: number;
  mean_p_yes: number;
  mean_p_no: number;
}

/** The report's content: round header, counts and the series behind every chart and table. */
export interface ReportData {
  generated_at: string;
  round: {
    id: number;
    status: string;
    policy_model: string;
    labeler_model: string;
    divider: string;
    config_hash: string;
    seed: number;
    accept_rule: 'scripts' | 'paper';
    score_method: 'rejc' | 'rejp';
    samples: number | null;
    started_at: string;
    finished_at: string | null;
  };
  counts: {
    prompts: number;
    answers: number;
    divided: number;
    claims: number;
    questions: number;
    judged_claims: number;
    rejected_claims: number;
    unscored_questions: number;
    scored_answers: number;
    pairs: number;
    pairs_after_balance: number;
    balance_r: number | null;
    failures: number;
  };
  failures: StageFailures[];
  /** Answers with claims by rejected-claim count (REJ-C = −count). */
  rejc: Histogram;
  /** Answers with claims by rejected share, ten bins. */
  rejp: Histogram;
  /** Divided answers by number of claims. */
  claims_per_answer: Histogram;
  kinds: KindRow[];
  /** Distinct labeled questions by p(yes), twenty bins, split by the round's verdict. */
  p_yes: { labels: string[]; accepted: number[]; rejected: number[] };
  lengths: {
    before: LengthStats;
    after: LengthStats;
    labels: string[];
    before_chosen: number[];
    before_rejected: number[];
    after_chosen: number[];
    after_rejected: number[];
  };
  pairing: { considered: number; dropped: Record<string, number> };
  top_rejected: RejectedClaim[];
  unscored: {
    questions: { question_id: string; text: string }[];
    /** Claims whose question has no label from this labeler (pending, or the label failed). */
    unlabeled_claims: number;
    /** Claims whose question's label has neither yes nor no among the top tokens. */
    unscored_claims: number;
    answers_not_divided: number;
    answers_not_scored: number;
    answers_without_claims: number;
    truncated_answers: number;
    finish_reasons: Record<string, number>;
    skipped_sentences: Record<string, number>;
  };
  seconds_by_stage: Record<string, number>;
}

/** Gathers one round's report data; throws when the round does not exist. */
export function gatherReport(db: Db, roundId: number): ReportData {
  const round = getRound(db, roundId);
  if (!round) throw new Error(`No round ${roundId} in this database.`);
  const stats = roundStats(db, roundId);
  const rule = round.accept_rule;
  const rejected = (p: { p_yes: number | null; p_no: number | null }) =>
    p.p_yes !== null && p.p_no !== null ? isRejected(p.p_yes, p.p_no, rule) : null;

  const kindOf = new Map<string, string>();
  const kinds = new Map<string, KindRow>();
  const kindRow = (kind: string) => {
    let k = kinds.get(kind);
    if (!k) kinds.set(kind, (k = { kind, prompts: 0, answers: 0, claims: 0, judged: 0, rejected: 0, rate: null }));
    return k;
  };
  for (const p of iterateRoundPromptMeta(db, roundId)) {
    const kind = promptKind(p.meta_json);
    kindOf.set(p.prompt_id, kind);
    kindRow(kind).prompts++;
  }

  const unscored: ReportData['unscored'] = {
    questions: [],
    unlabeled_claims: 0,
    unscored_claims: 0,
    answers_not_divided: 0,
    answers_not_scored: 0,
    answers_without_claims: 0,
    truncated_answers: 0,
    finish_reasons: {},
    skipped_sentences: {},
  };
  const rejCounts: number[] = [];
  const rejShares: number[] = [];
  const claimCounts: number[] = [];
  for (const a of iterateRoundAnswers(db, roundId)) {
    kindRow(kindOf.get(a.prompt_id) ?? 'other').answers++;
    unscored.finish_reasons[a.finish_reason] = (unscored.finish_reasons[a.finish_reason] ?? 0) + 1;
    if (!a.divided) {
      unscored.answers_not_divided++;
      continue;
    }
    claimCounts.push(a.division_claims!);
    if (a.truncated) unscored.truncated_answers++;
    for (const s of JSON.parse(a.skipped_json!) as { reason: string }[]) {
      unscored.skipped_sentences[s.reason] = (unscored.skipped_sentences[s.reason] ?? 0) + 1;
    }
    if (!a.scored) unscored.answers_not_scored++;
    else if (a.rej_c === null) unscored.answers_without_claims++;
    else {
      rejCounts.push(a.n_rejected!);
      rejShares.push(a.rej_p!);
    }
  }

  const byClaim = new Map<string, RejectedClaim>();
  let judged = 0;
  let rejectedClaims = 0;
  for (const c of iterateRoundClaims(db, roundId, round.labeler_model)) {
    const k = kindRow(kindOf.get(c.prompt_id) ?? 'other');
    k.claims++;
    const v = rejected(c);
    if (v === null) {
      if (c.labeled) unscored.unscored_claims++;
      else unscored.unlabeled_claims++;
      continue;
    }
    judged++;
    k.judged++;
    let t = byClaim.get(c.claim);
    if (!t) byClaim.set(c.claim, (t = { claim: c.claim, rejected: 0, judged: 0, mean_p_yes: 0, mean_p_no: 0 }));
    t.judged++;
    t.mean_p_yes += c.p_yes!;
    t.mean_p_no += c.p_no!;
    if (v) {
      rejectedClaims++;
      k.rejected++;
      t.rejected++;
    }
  }
  for (const k of kinds.values()) k.rate = k.judged ? k.rejected / k.judged : null;
  const topRejected = [...byClaim.values()]
    .filter((t) => t.rejected > 0)
    .sort((a, b) => b.rejected - a.rejected || b.rejected / b.judged - a.rejected / a.judged || (a.claim < b.claim ? -1 : 1))
    .slice(0, REPORT_LIMITS.topRejected)
    .map((t) => ({ ...t, mean_p_yes: t.mean_p_yes / t.judged, mean_p_no: t.mean_p_no / t.judged }));

  const PYES_BINS = 20;
  const pYes = { accepted: [] as number[], rejected: [] as number[] };
  let unscoredQuestions = 0;
  for (const q of iterateRoundQuestions(db, roundId, round.labeler_model)) {
    const v = rejected(q);
    if (v !== null) (v ? pYes.rejected : pYes.accepted).push(q.p_yes!);
    else if (q.labeled && unscoredQuestions++ < REPORT_LIMITS.unscoredQuestions) {
      unscored.questions.push({ question_id: q.question_id, text: q.text });
    }
  }
  const acc = countShares(pYes.accepted, PYES_BINS, false);

  const pairs = [...iterateRoundPairLengths(db, roundId, round.score_method)];
  const kept = pairs.filter((p) => p.balance_kept === 1);
  const words = countWordBins([
    pairs.map((p) => p.chosen_words),
    pairs.map((p) => p.rejected_words),
    kept.map((p) => p.chosen_words),
    kept.map((p) => p.rejected_words),
  ]);
  const asLengths = (ps: typeof pairs) => ps.map((p) => ({ chosenWords: p.chosen_words, rejectedWords: p.rejected_words }));

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
      judged_claims: judged,
      rejected_claims: rejectedClaims,
      unscored_questions: stats.unscored_questions,
      scored_answers: stats.scored,
      pairs: stats.pairs,
      pairs_after_balance: stats.pairs_after_balance,
      balance_r: stats.balance_r,
      failures: stats.failures,
    },
    failures: gatherFailures(db, roundId),
    rejc: countInts(rejCounts),
    rejp: countShares(rejShares, 10, true),
    claims_per_answer: countInts(claimCounts),
    kinds: [...kinds.values()].sort((a, b) => (a.kind === 'other' ? 1 : b.kind === 'other' ? -1 : a.kind < b.kind ? -1 : 1)),
    p_yes: { labels: acc.labels, accepted: acc.counts, rejected: countShares(pYes.rejected, PYES_BINS, false).counts },
    lengths: {
      before: lengthStats(asLengths(pairs)),
      after: lengthStats(asLengths(kept)),
      labels: words.labels,
      before_chosen: words.series[0]!,
      before_rejected: words.series[1]!,
      after_chosen: words.series[2]!,
      after_rejected: words.series[3]!,
    },
    pairing: roundDroppedPairs(db, roundId, round.score_method),
    top_rejected: topRejected,
    unscored,
    seconds_by_stage: stats.seconds_by_stage,
  };
}

/** Stages that record failures, in pipeline order: the prompts input, then the five stages. */
export const FAILURE_STAGES: readonly string[] = ['input', ...STAGES];

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
