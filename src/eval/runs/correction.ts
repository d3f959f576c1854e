// The policy's correction rate after feedback (issue 22 item 5): it answers each held-out prompt greedily; each answer
// the truth judges wrong gets a teacher's turn (FIRE's layout, detailed or simple feedback from the truth's or the
// labeler's verdicts, optionally noisy) and the policy answers again, up to max_turns while it stays wrong. Every turn
// is an evaluation round of derived multi-turn prompts (generate, divide, label, score), stored and reused like any.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config, ModelBackend } from '../../config/schema.js';
import { finishReasons, openDb, roundPrompts, type Db, type RoundPrompt } from '../../store/index.js';
import { silentProgress, type Progress } from '../../progress.js';
import { evaluatePolicy } from './policy-eval.js';
import type { WorkerPool } from '../../backends/local/pool.js';
import { withPool } from '../../pipeline/round.js';
import { isRejected, type AcceptRule } from '../../feedback/verdict.js';
import type { Truth } from '../../shapes/truth.js';
import { loadEvalRound } from '../load.js';
import { judgeAnswer } from '../truth.js';
import type { EvalAnswer, EvalPrompt } from '../types.js';
import { flipVerdicts, studentPrompt, teacherTurn, SAID_CORRECT, type ClaimVerdict, type FeedbackLevel, type FeedbackProvider } from '../../feedback/teacher.js';
import { feedbackByKind, feedbackFigures, type ConversationOutcome, type FeedbackFigures } from '../correction-metrics.js';
import { pct, table } from '../render.js';
import { normClaim, subjectsOf } from '../claims.js';

/** What to measure: the policy, the held-out prompts, and the teacher. */
export interface CorrectionOptions {
  policy: ModelBackend;
  prompts: string;
  limit: number | null;
  level: FeedbackLevel;
  provider: FeedbackProvider;
  /** Each provider verdict flipped with this probability (seeded by the config's seed). */
  noise: number;
  maxTurns: number;
  progress?: Progress;
  /** A worker pool to run in, left open (a loop's, shared by its rounds and evaluations); absent: each round makes its own. */
  pool?: WorkerPool | null;
}

/** `feedback` in `rlaifv eval --policy P --feedback L --json`. */
export interface FeedbackReport extends FeedbackFigures {
  level: FeedbackLevel;
  provider: FeedbackProvider;
  noise: number;
  max_turns: number;
  prompts_file: string;
  /** Prompts answered, and first answers the truth could judge (divided). */
  prompts: number;
  judged: number;
  /** Teacher turns that called a wrong answer correct (the provider, or its noise, found nothing false). */
  told_correct: number;
  /** Revisions the policy gave (every turn), and those with a claim the checker cannot judge (never correct). */
  revisions: number;
  unjudgeable_revisions: number;
  /** Revisions stopped by the context's end rather than the end token (judged as they are). */
  stopped_by_length: number;
  by_kind: Record<string, FeedbackFigures>;
  /** The evaluation round of the first answers, then of each turn. */
  first_round: number;
  turn_rounds: number[];
}

/** The truth checker's verdict on each claim of an answer (null: a claim it cannot judge). */
export function truthVerdicts(truth: Truth, a: EvalAnswer): ClaimVerdict[] {
  return judgeAnswer(truth, a).claims.map((c) => (c.claim === 'unknown' ? null : c.claim));
}

/**
 * The provider's verdict on each claim of an answer: the truth's, where a claim the checker cannot judge is called
 * false (it is not a true statement of the image; the tiny policy's revisions often leave the world's grammar), or
 * the labeler's under the round's accept rule (null: unlabeled).
 */
export function providerVerdicts(provider: FeedbackProvider, truth: Truth, a: EvalAnswer, rule: AcceptRule): ClaimVerdict[] {
  if (provider === 'truth') return truthVerdicts(truth, a).map((v) => v ?? 'false');
  return a.claims.map((c) => (c.pYes === null || c.pNo === null ? null : isRejected(c.pYes, c.pNo, rule) ? 'false' : 'true'));
}

/**
 * Whether the provider's (noise-free) feedback on a first answer is right, the N_e rule: it judges at least one claim
 * false, and every claim it judges false is false by the truth. (The truth provider's is right on every wrong answer.)
 */
export function feedbackIsRight(verdicts: readonly ClaimVerdict[], truthVerdicts: readonly ClaimVerdict[]): boolean {
  const rejected = verdicts.flatMap((v, i) => (v === 'false' ? [i] : []));
  return rejected.length > 0 && rejected.every((i) => truthVerdicts[i] === 'false');
}

/**
 * FIRE's score of an answer by the truth, 10 × (1 − false share), where a claim the checker cannot judge counts as
 * not true (the tiny policy's revisions out of the world's grammar would otherwise score 10): 10 × true ÷ claims, and
 * 0 for an answer without claims.
 * @example truthScore(['true', 'false', 'true', 'true']) // 7.5
 */
export function truthScore(truthVerdicts: readonly ClaimVerdict[]): number {
  return truthVerdicts.length === 0 ? 0 : (10 * truthVerdicts.filter((v) => v === 'true').length) / truthVerdicts.length;
}

/** A revision is correct when it makes at least one claim and the checker judges every one true. */
export function isCorrect(truthVerdicts: readonly ClaimVerdict[]): boolean {
  return truthVerdicts.length > 0 && truthVerdicts.every((v) => v === 'true');
}

/**
 * Whether a revision speaks of what it was told was wrong: each false claim of the first answer shares a subject with
 * a claim of the revision ("The circle is red." -> "The circle is blue."), so "There is no red triangle." in answer to
 * "What color is the star?" is no correction, however true.
 */
export function onSubject(firstFalse: readonly string[], revision: readonly string[]): boolean {
  const said = new Set(revision.flatMap(subjectsOf));
  return firstFalse.every((c) => subjectsOf(c).some((k) => said.has(k)));
}

const falseClaims = (truth: Truth, a: EvalAnswer) => {
  const j = judgeAnswer(truth, a);
  return a.claims.filter((_, i) => j.claims[i]!.claim === 'false').map((c) => normClaim(c.claim));
};

/** One running conversation. */
interface Conversation {
  p: EvalPrompt;
  row: RoundPrompt;
  answers: EvalAnswer[];
  teacher: string[];
  outcome: ConversationOutcome;
  firstFalse: Set<string>;
  firstFalseClaims: string[];
  /** A revision the divider could not divide: nothing more to judge or say. */
  stopped: boolean;
}

/**
 * Runs (or finds stored) the first answers and the feedback turns, and computes the figures. The turns' prompt files
 * are written beside the store (`<db>.feedback/`), named by their content, so a rerun reuses every round.
 * @example await correctionEval(config, { policy: { type: 'local', model: 'models/shapes-policy' }, prompts: 'data/shapes/test/prompts.jsonl', limit: 20, level: 'detailed', provider: 'truth', noise: 0, maxTurns: 3 })
 */
export async function correctionEval(config: Config, o: CorrectionOptions): Promise<FeedbackReport> {
  // The first answers and every feedback turn's round share one worker pool.
  return withPool({ ...config, generate: { ...config.generate, backend: o.policy } }, o.pool, (pool) => correctionEvalIn(config, { ...o, pool }));
}

/** correctionEval in one worker pool. */
async function correctionEvalIn(config: Config, o: CorrectionOptions): Promise<FeedbackReport> {
  const progress = o.progress ?? silentProgress;
  const answer = (prompts: string, limit: number | null) =>
    evaluatePolicy(config, { policy: o.policy, prompts, limit, samples: 1, temperature: 0, greedy: false, progress, pool: o.pool ?? null });
  const first = await answer(o.prompts, o.limit);

  const convs: Conversation[] = [];
  let acceptRule: AcceptRule;
  let prompts: number;
  let judged = 0;
  {
    const db = openDb(config.db, { readonly: true });
    try {
      const round = loadEvalRound(db, first.sampled_round);
      acceptRule = round.acceptRule;
      prompts = round.prompts.length;
      const rows = new Map(roundPrompts(db, first.sampled_round).map((r) => [r.id, r]));
      for (const p of round.prompts) {
        const a = p.answers[0];
        if (!a || a.division === null) continue;
        judged++;
        const truthV = truthVerdicts(p.truth, a);
        if (!truthV.includes('false')) continue;
        const clean = providerVerdicts(o.provider, p.truth, a, acceptRule);
        const inNe = o.provider === 'truth' || feedbackIsRight(clean, truthV);
        convs.push({
          p,
          row: rows.get(p.id)!,
          answers: [a],
          teacher: [],
          firstFalse: new Set(falseClaims(p.truth, a)),
          firstFalseClaims: a.claims.filter((_, i) => truthV[i] === 'false').map((x) => x.claim),
          stopped: false,
          outcome: { promptId: p.id, kind: p.kind ?? 'other', inNe, scores: [truthScore(truthV)], correctAt: null, harmed: null, cutAt: null },
        });
      }
    } finally {
      db.close();
    }
  }

  const dbPath = path.parse(config.db);
  const dir = path.join(dbPath.dir, `${dbPath.name}.feedback`);
  let toldCorrect = 0;
  let revisions = 0;
  let stoppedByLength = 0;
  let unjudgeable = 0;
  const turnRounds: number[] = [];
  for (let turn = 1; turn <= o.maxTurns; turn++) {
    const active = convs.filter((c) => c.outcome.correctAt === null && c.outcome.cutAt === null && !c.stopped);
    if (active.length === 0) break;
    const lines = active.map((c) => {
      const latest = c.answers[c.answers.length - 1]!;
      const said = flipVerdicts(providerVerdicts(o.provider, c.p.truth, latest, acceptRule), o.noise, config.seed, c.p.id, turn);
      const t = teacherTurn(o.level, latest.claims.map((x) => x.claim), said);
      if (t.endsWith(SAID_CORRECT)) toldCorrect++;
      c.teacher.push(t);
      const { history, question } = studentPrompt(c.p.question, c.answers.map((a) => a.text), c.teacher);
      // The id names the conversation's content: the same conversation is the same prompt, another is another.
      const id = `${c.p.id}~fb${turn}-${createHash('sha256').update(JSON.stringify([history, question])).digest('hex').slice(0, 12)}`;
      return JSON.stringify({ id, image: c.row.image_path, question, history, meta: c.row.meta_json ? JSON.parse(c.row.meta_json) : {} });
    });
    const text = lines.join('\n') + '\n';
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `turn${turn}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.jsonl`);
    if (!existsSync(file)) writeFileSync(file, text);
    progress.log(`feedback turn ${turn}: ${active.length} conversations`);
    const ev = await answer(file, null);
    turnRounds.push(ev.sampled_round);

    const db = openDb(config.db, { readonly: true });
    try {
      const round = loadEvalRound(db, ev.sampled_round);
      const byBase = new Map(round.prompts.map((p) => [p.id.slice(0, p.id.lastIndexOf('~fb')), p]));
      const finish = finishReasons(db, ev.sampled_round);
      for (const c of active) {
        const p = byBase.get(c.p.id);
        const a = p?.answers[0];
        // No answer: the conversation no longer fits the policy's context (a generate failure); it ends here. An
        // answer stopped by length (the tiny policy's run-on repetitions reach the context's end) is judged as it is.
        if (!p || !a) {
          c.outcome.cutAt = turn;
          continue;
        }
        if (finish.get(p.id) === 'length') stoppedByLength++;
        if (a.division === null) {
          c.stopped = true;
          continue;
        }
        c.answers.push(a);
        const truthV = truthVerdicts(c.p.truth, a);
        if (truthV.includes(null)) unjudgeable++;
        revisions++;
        c.outcome.scores.push(truthScore(truthV));
        if (turn === 1) c.outcome.harmed = falseClaims(c.p.truth, a).some((f) => !c.firstFalse.has(f));
        if (isCorrect(truthV)) c.outcome.correctAt = turn;
        if (turn === 1) c.outcome.onSubject = isCorrect(truthV) && onSubject(c.firstFalseClaims, a.claims.map((x) => x.claim));
      }
    } finally {
      db.close();
    }
  }

  const outcomes = convs.map((c) => c.outcome);
  return {
    level: o.level,
    provider: o.provider,
    noise: o.noise,
    max_turns: o.maxTurns,
    prompts_file: o.prompts,
    prompts,
    judged,
    ...feedbackFigures(outcomes, o.maxTurns),
    told_correct: toldCorrect,
    revisions,
    unjudgeable_revisions: unjudgeable,
    stopped_by_length: stoppedByLength,
    by_kind: feedbackByKind(outcomes, o.maxTurns),
    first_round: first.sampled_round,
    turn_rounds: turnRounds,
  };
}

const num = (x: number | null) => (x === null ? '–' : x.toFixed(2));

/** The report as text: one row for all prompts, then one per instruction kind. */
export function renderCorrection(r: FeedbackReport): string {
  const turns = Array.from({ length: r.max_turns }, (_, k) => `after ${k + 1}`);
  const rows = [['kind', 'wrong', 'N_e', 'N_c', 'correction', 'harm', ...turns, 'AT', 'ADR', 'ATR', 'RR', 'cut']];
  const cells = (name: string, f: FeedbackFigures) => [
    name,
    String(f.n_wrong),
    String(f.n_e),
    String(f.n_c),
    pct(f.correction_rate),
    pct(f.harm_rate),
    ...f.correct_after_turn.map(pct),
    num(f.at),
    num(f.adr),
    num(f.atr),
    pct(f.rr),
    String(f.cut),
  ];
  rows.push(cells('all', r));
  for (const [k, f] of Object.entries(r.by_kind)) rows.push(cells(k, f));
  return (
    `feedback (${r.level}, provider ${r.provider}, noise ${r.noise}, up to ${r.max_turns} turns) on ${r.prompts_file}: ` +
    `${r.prompts} prompts, ${r.judged} first answers judged, ${r.n_wrong} wrong (rounds ${r.first_round}; ${r.turn_rounds.join(', ') || 'no turns'})\n` +
    `${table(rows)}\n` +
    `  corrected after one turn on the subject of the errors: ${r.n_c_on_subject} of ${r.n_e} (${pct(r.correction_rate_on_subject)})\n` +
    `  revisions ${r.revisions}: with a claim the checker cannot judge ${r.unjudgeable_revisions}, stopped by the context's end ${r.stopped_by_length}; teacher turns that called a wrong answer correct: ${r.told_correct}\n`
  );
}
