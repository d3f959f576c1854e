// Counts per round, as `rlaifv stats --json` prints them.
import type { Db } from './open.js';
import { dialogueCounts } from './dialogues.js';
import { stmt } from './statements.js';
import { roundUsage } from './usage.js';

function usageOf(db: Db, roundId: number): RoundStats['usage'] {
  // A database from before schema 3 (opened read-only, so not migrated) has no usage table.
  const has = stmt(db, "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'usage'").get() as { n: number };
  const rows = has.n ? roundUsage(db, roundId) : [];
  const by_stage: Record<string, UsageTotals> = {};
  for (const r of rows) {
    const t = (by_stage[r.stage] ??= { requests: 0, retries: 0, failures: 0, prompt_tokens: 0, completion_tokens: 0 });
    t.requests += r.requests;
    t.retries += r.retries;
    t.failures += r.failures;
    t.prompt_tokens += r.prompt_tokens;
    t.completion_tokens += r.completion_tokens;
  }
  return { by_stage, by_endpoint: rows };
}

/** One round's counts. */
export interface RoundStats {
  round: number;
  status: string;
  prompts: number;
  candidates: number;
  divided: number;
  claims: number;
  questions: number;
  labeled: number;
  unscored_questions: number;
  rejected_claims: number;
  scored: number;
  /** Pairs the quality gate dropped (stored, never delivered); 0 without a gate. */
  pairs_gated: number;
  /** The round's feedback method (divide, holistic, dpo-reward, oracle). */
  feedback_method: string;
  pairs: number;
  pairs_after_balance: number;
  balance_r: number | null;
  /** Open failures (not taken up again by --retry-failed). */
  failures: number;
  failures_by_stage: Record<string, number>;
  /** Failures taken up again by --retry-failed (kept as history; the item then succeeded, or is being retried). */
  retried_failures: number;
  seconds_by_stage: Record<string, number>;
  /** Scored answers with an unscored question: left out of pairing. */
  answers_with_unscored: number;
  /** Labels whose yes or no side came from the top-K bound. */
  bounded_labels: number;
  /**
   * The policy's answers that stopped for "length" with fewer tokens than generate.max_new_tokens asked (finish_reason
   * and completion_tokens of candidates): a server's cap on max_tokens, or the model's context.
   */
  answers_cut_short: number;
  /** What remote backends used, per stage (summed over endpoints) and per (stage, endpoint). */
  usage: { by_stage: Record<string, UsageTotals>; by_endpoint: (UsageTotals & { stage: string; endpoint: string })[] };
  /**
   * pair.corrections: per editor, the corrected answers written, those with no rejected claim, and their pairs (kept:
   * after length balance and the gate). The counts above are of the policy's own samples only.
   */
  corrections: CorrectionStats;
  /**
   * The refine editor's dialogues (pair.corrections "refine", db/014): how many ended, their revisions, by end reason
   * (clean, max_turns, context, unjudged, failed); null when the round has none.
   */
  dialogues: { dialogues: number; revisions: number; by_end: Record<string, number> } | null;
}

/** Requests, retries, give-ups and tokens. */
export interface UsageTotals {
  requests: number;
  retries: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Counts of every stage's rows for a round (verdicts under the round's own acceptance rule). */
export function roundStats(db: Db, roundId: number): RoundStats {
  // One read transaction: every count is of the same moment, even while a run writes (WAL snapshot).
  return db.inTransaction ? readStats(db, roundId) : db.transaction(() => readStats(db, roundId))();
}

function readStats(db: Db, roundId: number): RoundStats {
  const one = (sql: string, ...args: unknown[]) => (stmt(db, sql).get(...args) as { n: number | null }).n ?? 0;
  const round = stmt(db, 'SELECT status, labeler_model, accept_rule, pair_method, feedback_method FROM rounds WHERE id = ?').get(
    roundId,
  ) as { status: string; labeler_model: string; accept_rule: string; pair_method: string; feedback_method: string } | undefined;
  if (!round) throw new Error(`No round ${roundId} in this database.`);
  const rejectedSql =
    round.accept_rule === 'paper' ? 'l.p_no > l.p_yes' : 'NOT (l.p_yes > l.p_no)';
  const byStage = (sql: string) =>
    Object.fromEntries((stmt(db, sql).all(roundId) as { stage: string; n: number }[]).map((r) => [r.stage, r.n]));
  const balance = stmt(db, 'SELECT r FROM balances WHERE round_id = ? AND method = ?').get(roundId, round.pair_method) as
    | { r: number | null }
    | undefined;
  // Open failures: a failure retried within the round (retried_at set) is history, counted apart.
  const failuresByStage = byStage('SELECT stage, COUNT(*) AS n FROM failures WHERE round_id = ? AND retried_at IS NULL GROUP BY stage');
  const retried = byStage('SELECT stage, COUNT(*) AS n FROM failures WHERE round_id = ? AND retried_at IS NOT NULL GROUP BY stage');
  return {
    round: roundId,
    status: round.status,
    feedback_method: round.feedback_method,
    prompts: one('SELECT COUNT(*) AS n FROM round_prompts WHERE round_id = ?', roundId),
    candidates: one('SELECT COUNT(*) AS n FROM candidates WHERE round_id = ? AND corrects_id IS NULL', roundId),
    divided: one(
      'SELECT COUNT(*) AS n FROM divisions d JOIN candidates c ON c.id = d.candidate_id WHERE c.round_id = ? AND c.corrects_id IS NULL',
      roundId,
    ),
    claims: one('SELECT COUNT(*) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ? AND c.corrects_id IS NULL', roundId),
    questions: one(
      `SELECT COUNT(DISTINCT cl.question_id) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       WHERE c.round_id = ? AND c.corrects_id IS NULL`,
      roundId,
    ),
    labeled: one(
      `SELECT COUNT(*) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE c.round_id = ? AND c.corrects_id IS NULL AND l.p_yes IS NOT NULL`,
      round.labeler_model,
      roundId,
    ),
    unscored_questions: one(
      `SELECT COUNT(DISTINCT cl.question_id) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE c.round_id = ? AND c.corrects_id IS NULL AND l.p_yes IS NULL`,
      round.labeler_model,
      roundId,
    ),
    rejected_claims: one(
      `SELECT COUNT(*) AS n FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
       WHERE c.round_id = ? AND c.corrects_id IS NULL AND l.p_yes IS NOT NULL AND ${rejectedSql}`,
      round.labeler_model,
      roundId,
    ),
    scored:
      round.feedback_method === 'divide'
        ? one('SELECT COUNT(*) AS n FROM scores s JOIN candidates c ON c.id = s.candidate_id WHERE s.round_id = ? AND s.rej_c IS NOT NULL AND c.corrects_id IS NULL', roundId)
        : one('SELECT COUNT(*) AS n FROM answer_scores WHERE round_id = ? AND method = ? AND value IS NOT NULL', roundId, round.feedback_method),
    pairs: one('SELECT COUNT(*) AS n FROM pairs WHERE round_id = ? AND method = ?', roundId, round.pair_method),
    pairs_gated: one('SELECT COUNT(*) AS n FROM pairs WHERE round_id = ? AND method = ? AND gate_kept = 0', roundId, round.pair_method),
    pairs_after_balance: one(
      'SELECT COUNT(*) AS n FROM pairs WHERE round_id = ? AND method = ? AND balance_kept = 1 AND gate_kept IS NOT 0',
      roundId,
      round.pair_method,
    ),
    balance_r: balance?.r ?? null,
    failures: Object.values(failuresByStage).reduce((a, b) => a + b, 0),
    failures_by_stage: failuresByStage,
    retried_failures: Object.values(retried).reduce((a, b) => a + b, 0),
    seconds_by_stage: byStage('SELECT stage, SUM(seconds) AS n FROM stage_runs WHERE round_id = ? GROUP BY stage'),
    answers_with_unscored: one(
      'SELECT COUNT(*) AS n FROM scores s JOIN candidates c ON c.id = s.candidate_id WHERE s.round_id = ? AND s.n_claims > 0 AND s.n_judged < s.n_claims AND c.corrects_id IS NULL',
      roundId,
    ),
    bounded_labels: one(
      `SELECT COUNT(*) AS n FROM labels l WHERE l.labeler = ? AND l.bound_used = 1 AND l.question_id IN
         (SELECT cl.question_id FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.round_id = ? AND c.corrects_id IS NULL)`,
      round.labeler_model,
      roundId,
    ),
    answers_cut_short: one(
      `SELECT COUNT(*) AS n FROM candidates WHERE round_id = ? AND corrects_id IS NULL AND finish_reason = 'length'
         AND completion_tokens IS NOT NULL AND completion_tokens < json_extract(decoding_json, '$.max_new_tokens')`,
      roundId,
    ),
    corrections: correctionStats(db, roundId, round.pair_method),
    dialogues: ((d) => (d.dialogues ? d : null))(dialogueCounts(db, roundId)),
    usage: usageOf(db, roundId),
  };
}

/** Correction pairs' figures of a round: corrected answers written and pairs kept, per editor (empty without any). */
export interface CorrectionStats {
  [editor: string]: { answers: number; free_of_rejected: number; pairs: number; pairs_kept: number };
}

function correctionStats(db: Db, roundId: number, method: string): CorrectionStats {
  const rows = stmt(
    db,
    `SELECT c.editor, COUNT(*) AS answers, SUM(s.n_rejected = 0 AND s.n_claims > 0) AS free_of_rejected,
       (SELECT COUNT(*) FROM pairs p WHERE p.round_id = c.round_id AND p.method = ? AND p.kind = 'correction' AND p.editor = c.editor) AS pairs,
       (SELECT COUNT(*) FROM pairs p WHERE p.round_id = c.round_id AND p.method = ? AND p.kind = 'correction' AND p.editor = c.editor
          AND p.balance_kept = 1 AND p.gate_kept IS NOT 0) AS pairs_kept
     FROM candidates c LEFT JOIN scores s ON s.candidate_id = c.id
     WHERE c.round_id = ? AND c.corrects_id IS NOT NULL GROUP BY c.editor ORDER BY c.editor`,
  ).all(method, method, roundId) as { editor: string; answers: number; free_of_rejected: number | null; pairs: number; pairs_kept: number }[];
  return Object.fromEntries(rows.map((r) => [r.editor, { answers: r.answers, free_of_rejected: r.free_of_rejected ?? 0, pairs: r.pairs, pairs_kept: r.pairs_kept }]));
}
