// Stage 5: better vs worse answers of the same prompt become DPO pairs; then the round's length balance.
import {
  claimProbs,
  getPairJudgment,
  judgePrompts,
  pendingPairings,
  putBalance,
  putFailures,
  putPairing,
  putPairJudgment,
  roundPairs,
  type Db,
  type PairRow,
} from '../store/index.js';
import { getPairStrategy, noDrops, type DropReason, type Pair, type PairResult, type ScoredAnswer } from '../feedback/pairs.js';
import { claimGate, judgeInOrder, rejectProbability } from '../feedback/gate.js';
import type { PairJudge } from '../methods/pair-judge.js';
import type { SequenceScorer } from '../backends/types.js';
import type { Turn } from '../domain.js';
import { runReferenceLogprobs } from './reference.js';
import { pairGap } from '../methods/index.js';
import type { ScoredCandidate } from '../store/index.js';
import { balanceLengths } from '../feedback/length-balance.js';
import {
  correctAnswer,
  correctionSampleIndex,
  makeCorrectionPairs,
  type CorrectionCandidate,
  type EditAnswer,
  type EditClaim,
} from '../feedback/corrections.js';
import { isRejected } from '../feedback/verdict.js';
import { wordCount } from '../feedback/words.js';
import { correctionSources, putCandidates, rewriteDone, scoredCorrections, type CandidateRow, type CorrectionSource, type ScoredCorrection } from '../store/index.js';
import { Rewriter, sentenceEdits } from '../methods/rewriter.js';
import { runRefine, type RefineResult } from './refine.js';
import type { Teacher } from '../methods/teacher.js';
import type { Edit } from '../feedback/corrections.js';
import type { CorrectionEditor } from '../config/schema.js';
import { contentId } from './ids.js';
import { type StageContext, type StageResult } from './context.js';
import { mapLimit, timed, type ModelTime } from '../progress.js';

/**
 * Pairs every prompt of the round (or of `ctx.scope`) not paired yet, then (re)computes length balance over all the
 * round's pairs, unless told not to (a streaming round balances once, after its last slice). With a quality gate the
 * pairs under its threshold are stored as dropped: divide's gate reads the claims' probabilities; a judge model
 * (`judge`, feedback.gate.judge) rates pairs of any method, and a prompt whose pair it cannot rate is a failure.
 * With a `reference` scorer (the round's policy, pair.reference_logprobs) every answer of each paired prompt is then
 * teacher-forced and its log-probs stored (stages/reference.ts).
 */
export async function runPair(
  ctx: StageContext,
  opts: PairStageOptions = {},
  judge: PairJudge | null = null,
  reference: SequenceScorer | null = null,
): Promise<StageResult> {
  const t0 = performance.now();
  const { strategy: name, max_pairs, length_balance, repeated_claims, corrections: editors, rank_pairs } = ctx.config.pair;
  const strategy = getPairStrategy(name);
  const method = ctx.round.pair_method;
  const diff = pairGap({
    method: ctx.round.feedback_method,
    minGap: ctx.config.feedback.min_gap,
    diff: ctx.config.pair.diff,
    labelerRemote: ctx.config.label.backend.type === 'openai',
  });
  const pending = pendingPairings(ctx.db, ctx.round.id, method, ctx.config.generate.samples, ctx.scope);
  let corrections: Map<string, ScoredCorrection[]> | null = null;
  let refined: RefineResult | null = null;
  if (editors.length && pending.size) {
    // The editors write their corrected answers, which are divided, labeled and scored before pairing.
    const ids = [...pending.keys()];
    const written = writeCorrections(ctx, editors, ids) + (editors.includes('llm') ? await writeRewrites(ctx, opts.rewriter ?? null, ids) : 0);
    const score = opts.scoreCorrections;
    if (!score && (written > 0 || editors.includes('refine'))) throw new Error('pair: pair.corrections needs the divide, label and score stages for corrected answers.');
    // (refine's driver scores what the other editors wrote on its first pass)
    if (written > 0 && !editors.includes('refine')) await score!(ctx);
    if (editors.includes('refine')) {
      // The policy's own revisions after the teacher's comments: dialogues run to their end before pairing.
      const gen = ctx.backends.generator;
      if (!gen) throw new Error('pair: the "refine" editor needs the round\'s policy (generate.backend).');
      refined = await runRefine(ctx, ids, { generator: gen, concurrency: opts.refineConcurrency ?? 2, scoreRevisions: score!, teacher: opts.teacher ?? null });
    }
    corrections = scoredCorrections(ctx.db, ctx.round.id, [...pending.keys()]);
  }
  const claims = judge ? null : pairGate(ctx, method, [...pending.keys()]);
  const judging = judge ? judgeRun(ctx, judge, [...pending.keys()]) : null;
  const gated = claims !== null || judging !== null;
  ctx.progress.start('pair', pending.size);
  let items = 0;
  let failures = 0;
  const pairOne = async ([promptId, cands]: [string, ScoredCandidate[]]): Promise<void> => {
    const answers = cands.map(scoredAnswer(method, claims?.probs)).filter((a): a is ScoredAnswer => a !== null);
    const base = { diff, maxPairs: max_pairs, repeatedClaims: repeated_claims, seed: ctx.round.seed, promptId };
    let res: PairResult;
    if (judging) {
      const all = strategy.makePairs(answers, { ...base, maxPairs: 'all' });
      const texts = new Map(cands.map((c) => [c.id, c.text]));
      try {
        res = await judgeInOrder(all, { threshold: judging.threshold, maxPairs: max_pairs, seed: ctx.round.seed, promptId }, (p) =>
          judging.confidence(promptId, p, texts),
        );
      } catch (e) {
        if (!(e instanceof JudgeFailure)) throw e;
        // The prompt stays unpaired with its failure (the verdicts it got are stored); --retry-failed pairs it again.
        putFailures(ctx.db, [{ round_id: ctx.round.id, stage: 'pair', item: promptId, reason: e.message, ...(e.raw !== undefined ? { raw: e.raw } : {}) }]);
        failures++;
        ctx.progress.tick();
        return;
      }
    } else if (rank_pairs) {
      res = strategy.makePairs(answers, { ...base, ...(claims ? { gate: claims.gate } : {}) });
    } else {
      res = { pairs: [], gated: [], considered: 0, dropped: noDrops() };
    }
    const fixes = corrections?.get(promptId);
    if (fixes?.length) {
      const cp = makeCorrectionPairs(correctionCandidates(method, fixes, claims?.probs), {
        ...base,
        minFewer: method === 'rejc' ? diff : 1,
        ...(claims ? { gate: claims.gate } : {}),
      });
      res = {
        pairs: [...res.pairs, ...cp.pairs],
        gated: [...res.gated, ...cp.gated],
        considered: res.considered + cp.considered,
        dropped: Object.fromEntries(Object.entries(res.dropped).map(([k, v]) => [k, v + cp.dropped[k as DropReason]])) as PairResult['dropped'],
      };
    }
    const rows: PairRow[] = [...res.pairs.map((p) => [p, 1] as const), ...res.gated.map((p) => [p, 0] as const)].map(([p, kept]) => ({
      id: contentId(ctx.round.id, method, p.chosenId, p.rejectedId),
      round_id: ctx.round.id,
      prompt_id: promptId,
      method,
      chosen_id: p.chosenId,
      rejected_id: p.rejectedId,
      // Stored in the method's own units: REJ-C as −n_rej, REJ-P as the rejected share, other methods as scored.
      chosen_score: method === 'rejp' ? -p.chosenValue : p.chosenValue,
      rejected_score: method === 'rejp' ? -p.rejectedValue : p.rejectedValue,
      margin: p.margin,
      chosen_words: p.chosenWords,
      rejected_words: p.rejectedWords,
      ...(gated ? { confidence: p.confidence ?? null, gate_kept: kept } : {}),
      ...('editor' in p ? { kind: 'correction' as const, editor: (p as { editor: string }).editor } : {}),
    }));
    putPairing(
      ctx.db,
      { round_id: ctx.round.id, prompt_id: promptId, method, considered: res.considered, dropped: res.dropped },
      rows,
    );
    items += rows.length;
    ctx.progress.tick();
  };
  if (judging) await mapLimit([...pending], judging.concurrency, pairOne);
  else for (const entry of pending) await pairOne(entry);
  ctx.progress.done();
  // Every paired prompt of the scope still without log-probs, this run's and any an earlier run left (resumable).
  const ref = reference ? await runReferenceLogprobs(ctx, reference) : null;
  if (opts.balance !== false) rebalance(ctx.db, ctx.round.id, method, length_balance);
  return {
    stage: 'pair',
    items,
    failures: failures + (ref?.failures ?? 0) + (refined?.failures ?? 0),
    seconds: (performance.now() - t0) / 1000,
    modelSeconds: (judging?.time.modelSeconds ?? 0) + (ref?.time.modelSeconds ?? 0) + (refined?.modelSeconds ?? 0),
  };
}

/** How a pair stage run goes: whether it balances lengths, and how corrected answers get their scores. */
export interface PairStageOptions {
  /** false: leave length balance to the caller (a streaming round balances once, after its last slice). */
  balance?: boolean;
  /** Divides, labels and scores the round's (scope's) candidates not yet scored: the corrected answers just written. */
  scoreCorrections?: (ctx: StageContext) => Promise<void>;
  /** The `llm` editor's served rewriter (pair.rewriter). */
  rewriter?: Rewriter | null;
  /** Concurrent generate requests of the `refine` editor's dialogues (the generate stage's own concurrency). */
  refineConcurrency?: number;
  /** The `refine` editor's served teacher (pair.refine.teacher). */
  teacher?: Teacher | null;
}

/**
 * Writes the corrected answers of the given prompts' sampled answers, one per editor and answer with rejected
 * claims (src/feedback/corrections.ts), as candidates of the round (idempotent: ids hash the original and the
 * editor). Returns how many answers the editors wrote.
 */
export function writeCorrections(ctx: StageContext, editors: readonly CorrectionEditor[], promptIds: readonly string[]): number {
  const rows: CandidateRow[] = [];
  for (const [promptId, answers] of editSources(ctx, promptIds)) {
    for (const a of answers) {
      for (const editor of editors) {
        if (editor === 'llm' || editor === 'refine') continue; // served: writeRewrites; the policy's dialogues: runRefine
        const fix = correctAnswer(editor, a, answers);
        if (fix) rows.push(correctionRow(ctx, promptId, a, editor, fix.text, fix.edits));
      }
    }
  }
  putCandidates(ctx.db, rows);
  return rows.length;
}

/** A sampled answer as the editors read it: the stored row, each claim with its verdict. */
type EditSource = Omit<CorrectionSource, 'claims'> & { claims: (EditClaim & { claim: string })[] };

/** The sampled answers of the prompts with their claims' verdicts under the round's accept rule, as editors read them. */
function editSources(ctx: StageContext, promptIds: readonly string[]): Map<string, EditSource[]> {
  const rule = ctx.round.accept_rule;
  const out = new Map<string, EditSource[]>();
  for (const [promptId, answers] of correctionSources(ctx.db, ctx.round.id, ctx.round.labeler_model, promptIds)) {
    out.set(
      promptId,
      answers.map((a) => ({
        ...a,
        claims: a.claims.map((c) => ({
          ...c,
          verdict: c.p_yes === null || c.p_no === null ? ('unjudged' as const) : isRejected(c.p_yes, c.p_no, rule) ? ('rejected' as const) : ('accepted' as const),
        })),
      })),
    );
  }
  return out;
}

/** A corrected answer as a candidate row of the round (its id hashes the round, prompt, editor and original). */
function correctionRow(ctx: StageContext, promptId: string, a: Pick<CorrectionSource, 'id' | 'sample_index' | 'seed' | 'decoding_json'>, editor: CorrectionEditor, text: string, edits: Edit[]): CandidateRow {
  return {
    id: contentId(ctx.round.id, promptId, 'correction', editor, a.id),
    round_id: ctx.round.id,
    prompt_id: promptId,
    sample_index: correctionSampleIndex(editor, a.sample_index),
    seed: a.seed,
    model_id: `correction:${editor}`,
    decoding_json: a.decoding_json,
    text,
    finish_reason: 'correction',
    prompt_tokens: null,
    completion_tokens: null,
    words: wordCount(text),
    corrects_id: a.id,
    editor,
    edits_json: JSON.stringify(edits),
  };
}

/**
 * The `llm` editor: each sampled answer with a rejected claim (and every claim judged) is sent to the served rewriter
 * with its rejected claims, once: an answer already rewritten, or whose rewrite failed (failure item
 * "rewrite:<answer id>", stage pair), is not asked again. A failed rewrite costs that answer its correction only.
 */
async function writeRewrites(ctx: StageContext, rewriter: Rewriter | null, promptIds: readonly string[]): Promise<number> {
  if (!rewriter) throw new Error('pair: the "llm" correction editor needs pair.rewriter.');
  const prompts = judgePrompts(ctx.db, promptIds);
  const todo: { promptId: string; a: EditSource }[] = [];
  for (const [promptId, answers] of editSources(ctx, promptIds)) {
    for (const a of answers) {
      if (!a.claims.some((c) => c.verdict === 'rejected') || a.claims.some((c) => c.verdict === 'unjudged')) continue;
      const id = contentId(ctx.round.id, promptId, 'correction', 'llm', a.id);
      if (rewriteDone(ctx.db, id, ctx.round.id, `rewrite:${a.id}`)) continue;
      todo.push({ promptId, a });
    }
  }
  let written = 0;
  await mapLimit(todo, rewriter.concurrency, async ({ promptId, a }) => {
    const p = prompts.get(promptId)!;
    const rejected = a.claims.filter((c) => c.verdict === 'rejected');
    const r = await rewriter.rewrite(p.image_path, p.question, a.text, rejected.map((c) => c.claim));
    if ('error' in r) {
      putFailures(ctx.db, [{ round_id: ctx.round.id, stage: 'pair', item: `rewrite:${a.id}`, reason: r.error, ...(r.raw !== undefined ? { raw: r.raw } : {}) }]);
      return;
    }
    const bySentence = new Map<string, string[]>();
    for (const c of rejected) bySentence.set(c.sentence, [...(bySentence.get(c.sentence) ?? []), c.id]);
    putCandidates(ctx.db, [correctionRow(ctx, promptId, a, 'llm', r.text, sentenceEdits(a.text, r.text, bySentence))]);
    written++;
  });
  return written;
}

/** A prompt's scored corrections as correction pairing reads them (values as the method ranks, higher is better). */
function correctionCandidates(
  method: string,
  fixes: readonly ScoredCorrection[],
  probs?: Map<string, { p_yes: number | null; p_no: number | null }[]>,
): CorrectionCandidate[] {
  // Both sides as rank pairing sees an answer (scoredAnswer: the method's value and the gate's reject probabilities).
  const asAnswer = scoredAnswer(method, probs);
  const out: CorrectionCandidate[] = [];
  for (const f of fixes) {
    const corrected = asAnswer(f);
    const original = asAnswer({
      id: f.corrects_id,
      prompt_id: f.prompt_id,
      text: f.original_text,
      words: f.original_words,
      n_claims: f.original_n_claims,
      n_judged: f.original_n_judged,
      n_questions: f.original_n_questions,
      rej_c: f.original_rej_c,
      rej_p: f.original_rej_p,
    });
    if (corrected === null || original === null) continue; // an answer without claims (an edit that left none) is never paired
    out.push({
      editor: f.editor as CorrectionEditor,
      corrected: { ...corrected, nRejected: f.n_rejected },
      original: { ...original, nRejected: f.original_n_rejected },
    });
  }
  return out;
}

/** (Re)computes the round's length balance over all its pairs of `method` (REFERENCE §5; the scripts' tie rule). */
export function rebalance(db: Db, roundId: number, method: string, lengthBalance: boolean): void {
  // Length balance corrects the ranking's preference for short answers, so it weighs rank pairs only: a correction
  // pair's length change is its edit (kept whole; "Correction pairs" in the README measures what that teaches).
  const all = roundPairs(db, roundId, method);
  const rank = all.filter((p) => (p.kind ?? 'rank') === 'rank');
  const corrections = all.filter((p) => p.kind === 'correction').map((p) => ({ id: p.id, kept: true }));
  const lengths = rank.map((p) => ({ chosenWords: p.chosen_words, rejectedWords: p.rejected_words }));
  if (lengthBalance) {
    const b = balanceLengths(lengths, 'smaller');
    putBalance(
      db,
      { round_id: roundId, method, r: b.r, objective: b.objective, before: b.before, after: b.after },
      [...rank.map((p, i) => ({ id: p.id, kept: b.kept[i]! })), ...corrections],
    );
  } else {
    putBalance(
      db,
      { round_id: roundId, method, r: null, objective: null, before: null, after: null },
      [...rank.map((p) => ({ id: p.id, kept: true })), ...corrections],
    );
  }
}

/** A stored scored answer as pairing sees it ("higher is better"); null: no score (no claims, or the method gave none). */
function scoredAnswer(method: string, probs?: Map<string, { p_yes: number | null; p_no: number | null }[]>): (c: ScoredCandidate) => ScoredAnswer | null {
  return (c) => {
    const value = method === 'rejc' ? c.rej_c : method === 'rejp' ? (c.rej_p == null ? null : -c.rej_p) : c.value;
    if (value === null || value === undefined) return null;
    const p = probs?.get(c.id);
    return {
      id: c.id,
      text: c.text,
      words: c.words,
      nClaims: c.n_claims,
      nJudged: c.n_judged,
      ...(c.n_questions !== undefined ? { nQuestions: c.n_questions } : {}),
      ...(p ? { rejectProbs: p.map((x) => rejectProbability(x.p_yes, x.p_no)) } : {}),
      value,
    };
  };
}

/**
 * The round's quality gate (feedback.gate.threshold), with the claims' probabilities of the prompts to pair; null
 * without one. Divide judges a pair by how sure its claims' verdicts make the ranking (feedback/gate.ts).
 */
function pairGate(ctx: StageContext, method: string, promptIds: string[]) {
  const threshold = ctx.config.feedback.gate.threshold;
  if (threshold === null || (method !== 'rejc' && method !== 'rejp')) return null;
  return { gate: claimGate(threshold, method), probs: claimProbs(ctx.db, ctx.round.id, ctx.round.labeler_model, promptIds) };
}

/** A pair the judge could not rate: the prompt's pairing fails with this reason and the judge's raw reply. */
class JudgeFailure extends Error {
  constructor(
    message: string,
    readonly raw?: string,
  ) {
    super(message);
  }
}

/**
 * The judge-model gate of a pair stage run (feedback.gate.judge): a pair's confidence is the judge's score/10. A
 * verdict is stored as soon as it comes, and one stored before (an interrupted run, a top-up's second pairing) is
 * read back instead of asking again.
 */
function judgeRun(ctx: StageContext, judge: PairJudge, promptIds: string[]) {
  const prompts = judgePrompts(ctx.db, promptIds);
  const time: ModelTime = { modelSeconds: 0 };
  return {
    threshold: ctx.config.feedback.gate.threshold ?? 0,
    concurrency: judge.concurrency,
    time,
    async confidence(promptId: string, p: Pair, texts: Map<string, string>): Promise<number> {
      const stored = getPairJudgment(ctx.db, ctx.round.id, p.chosenId, p.rejectedId, judge.id);
      if (stored) return stored.score / 10;
      const pr = prompts.get(promptId)!;
      const v = await timed(time, () =>
        judge.rate({
          imagePath: pr.image_path,
          question: pr.question,
          history: pr.history_json === null ? [] : (JSON.parse(pr.history_json) as Turn[]),
          positive: texts.get(p.chosenId)!,
          negative: texts.get(p.rejectedId)!,
        }),
      );
      if ('error' in v) throw new JudgeFailure(`${v.error} (pair ${p.chosenId} over ${p.rejectedId})`, v.raw);
      putPairJudgment(ctx.db, { round_id: ctx.round.id, chosen_id: p.chosenId, rejected_id: p.rejectedId, judge: judge.id, ...v });
      return v.score / 10;
    },
  };
}
