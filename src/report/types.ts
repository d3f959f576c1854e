// The shape of the report's content: a plain object, also embedded in the page as JSON.
import type { LengthStats } from '../feedback/length-balance.js';
import type { Histogram } from './bins.js';

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

/** The held-out figures of a loop's policies: its start, then the checkpoint of each round. */
export interface LoopSeries {
  loop: number;
  /** This round's place in the loop (1, 2, …). */
  this_round: number;
  labels: string[];
  false_claim_rate: (number | null)[];
  greedy_false_claim_rate: (number | null)[];
  response_hallucination_rate: (number | null)[];
  true_claims_per_answer: (number | null)[];
  object_coverage: (number | null)[];
  distinct_answers_per_prompt: (number | null)[];
  pairs: (number | null)[];
  /** Truth-free: the labeler's rejected share of the checkpoint's claims, and accepted claims per answer. */
  rejected_claim_rate: (number | null)[];
  accepted_claims_per_answer: (number | null)[];
  /** The held-out win rate against the previous policy and against the start, with their 95% intervals (null: start, or none). */
  win_rate_vs_previous: (number | null)[];
  win_rate_vs_previous_ci: ([number, number] | null)[];
  win_rate_vs_start: (number | null)[];
  win_rate_vs_start_ci: ([number, number] | null)[];
  /** The judge of the win rates (loop.judge), or null when none were computed. */
  judge: string | null;
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
    /** The feedback method (divide, holistic, dpo-reward, oracle) and the method its pairs carry. */
    feedback_method: string;
    pair_method: string;
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
    /** pair.corrections: per editor, corrected answers and correction pairs (rlaifv stats' `corrections`). */
    corrections: Record<string, { answers: number; free_of_rejected: number; pairs: number; pairs_kept: number }>;
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
    /** Scored answers with a claim the labeler did not judge: pairing leaves them out. */
    answers_partly_judged: number;
    answers_without_claims: number;
    truncated_answers: number;
    finish_reasons: Record<string, number>;
    skipped_sentences: Record<string, number>;
  };
  seconds_by_stage: Record<string, number>;
  /** When the round is a round of `rlaifv loop`: the loop's policies evaluated on held-out prompts. */
  loop: LoopSeries | null;
  /** The on-policy check of the kept pairs (pair.reference_logprobs); null: the round has no reference log-probs. */
  on_policy: OnPolicyReport | null;
}

/** The on-policy check in the report: the summary, the chosen answers' percentiles in ten bins, the flagged pairs. */
export interface OnPolicyReport {
  rule: string;
  pairs: number;
  median_percentile: number | null;
  off_policy: number;
  /** Bin labels ("0–10", …, "90–100") and the kept pairs whose chosen answer falls in each. */
  labels: string[];
  counts: number[];
  /** The off-policy pairs, worst first (at most 50). */
  flagged: { pair_id: string; prompt_id: string; chosen_mean: number; percentile: number; siblings: number }[];
}

/** An earlier turn of a multi-turn prompt. */
export interface Turn {
  role: string;
  content: string;
}

/** One claim of a browsed answer with the round's verdict (null when unlabeled or unscored). */
export interface BrowserClaim {
  claim: string;
  /** The claim's sentence when it is not in the answer (null: found, and marked there). */
  missing_sentence: string | null;
  question: string;
  p_yes: number | null;
  p_no: number | null;
  rejected: boolean | null;
}

/** One answer of a browsed pair: its text as segments (sentences marked by claim index), claims and score. */
export interface BrowserAnswer {
  id: string;
  words: number;
  finish_reason: string;
  segments: { text: string; claims: number[] }[];
  claims: BrowserClaim[];
  n_claims: number | null;
  n_rejected: number | null;
  rej_c: number | null;
  rej_p: number | null;
}

/** One browsed pair. */
export interface BrowserPair {
  id: string;
  prompt_id: string;
  kind: string;
  image_id: string;
  image_path: string;
  instruction: string;
  history: Turn[];
  /** The prompt's meta.truth (the shapes world's objects), null when it has none. */
  truth: unknown;
  chosen: BrowserAnswer;
  rejected: BrowserAnswer;
  chosen_score: number;
  rejected_score: number;
  margin: number;
  /** Whether length balance kept the pair; null when balance has not run (or the quality gate dropped the pair first). */
  balance_kept: boolean | null;
  /** The quality gate's judgement: its confidence, whether it kept the pair, and the judge model's verdict if one rated it; null: no gate. */
  gate: { confidence: number | null; kept: boolean; judge: { model: string; score: number; reply: string } | null } | null;
  /** 'rank' or 'correction' (pair.corrections); a correction's editor and its edits (old sentence → new, null: dropped). */
  pair_kind: 'rank' | 'correction';
  editor: string | null;
  edits: { sentence: number; old: string; new: string | null }[];
  /** Where the chosen answer's mean token log-prob falls among its prompt's samples; null: no reference log-probs. */
  on_policy: { percentile: number; chosen_mean: number; siblings: number; off_policy: boolean } | null;
  /** The difficulty lens: claim-set difference, word edit distance, the deciding claim's form ('none': no rejected claim). */
  difficulty: { claim_diff: number; edit_distance: number; deciding_form: string } | null;
}

/** The pair browser's content: a seeded sample of the round's pairs and their images (data: URIs by image id). */
export interface PairBrowser {
  /** The round's pairs of its score method. */
  total: number;
  shown: number;
  seed: number;
  method: string;
  accept_rule: 'scripts' | 'paper';
  pairs: BrowserPair[];
  /** Each image once; null when its file is missing or not an image a browser shows. */
  images: Record<string, string | null>;
}
