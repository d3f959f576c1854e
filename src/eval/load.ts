// Reads one round from the store into the evaluation's in-memory form (read-only queries).
import { InputError } from '../errors.js';
import { getRound, getVerdictSet, latestRound, roundPrompts, type Db } from '../store/index.js';
import { evalCandidates, evalClaims, evalPairs, failureCountsByStage, pairedPromptIds } from '../store/eval-reads.js';
import { DEFAULT_MAX_PAIRS, DEFAULT_PAIR_DIFF } from '../feedback/pairs.js';
import { pairGap } from '../methods/index.js';
import { parseTruth, type Truth } from '../shapes/truth.js';
import type { EvalAnswer, EvalPrompt, EvalRound, PairConfig } from './types.js';

/**
 * Why a round cannot be evaluated (no such round, or prompts without a shapes-world truth). An InputError, so the
 * CLI exits 2, as for any bad input.
 */
export class EvalRefusal extends InputError {
  override name = 'EvalRefusal';
}

/** The round to evaluate: a number, or the newest round when undefined / 'latest'. */
export function resolveEvalRound(db: Db, choice: number | 'latest' | undefined, dbName: string): number {
  if (typeof choice === 'number') {
    if (!getRound(db, choice)) throw new EvalRefusal(`No round ${choice} in ${dbName}.`);
    return choice;
  }
  const r = latestRound(db);
  if (!r) throw new EvalRefusal(`No rounds in ${dbName} yet; run \`rlaifv run\` first.`);
  return r.id;
}

/**
 * Loads a round with every answer, claim, label (of the round's labeler), stored score and pair, and each prompt's
 * truth from its meta.truth. Refuses (EvalRefusal) a missing round and a round with a prompt without a valid truth.
 */
export function loadEvalRound(db: Db, roundId: number): EvalRound {
  const r = getRound(db, roundId);
  if (!r) throw new EvalRefusal(`No round ${roundId} in this database.`);
  const config = JSON.parse(r.config_json) as {
    generate?: { samples?: number };
    pair?: { strategy?: string; diff?: number; max_pairs?: number | 'all'; length_balance?: boolean; repeated_claims?: 'drop' | 'keep'; corrections?: string[]; rank_pairs?: boolean };
    feedback?: { min_gap?: number | null; gate?: { threshold?: number | null; judge?: unknown } };
    label?: { backend?: { type?: string } };
  };
  const pair: PairConfig = {
    strategy: config.pair?.strategy ?? 'rlaifv',
    diff: config.pair?.diff ?? DEFAULT_PAIR_DIFF,
    maxPairs: config.pair?.max_pairs ?? DEFAULT_MAX_PAIRS,
    lengthBalance: config.pair?.length_balance ?? true,
    repeatedClaims: config.pair?.repeated_claims ?? 'keep',
    // A judge model's gate is not recomputed (its verdicts are the judge's); divide's claims gate is.
    gate: config.feedback?.gate?.judge ? null : (config.feedback?.gate?.threshold ?? null),
    corrections: config.pair?.corrections ?? [],
    rankPairs: config.pair?.rank_pairs ?? true,
  };

  const prompts: EvalPrompt[] = [];
  const byId = new Map<string, EvalPrompt>();
  const noTruth: string[] = [];
  let badTruth: string | null = null;
  for (const p of roundPrompts(db, roundId)) {
    const meta = p.meta_json === null ? null : (JSON.parse(p.meta_json) as { truth?: unknown; kind?: unknown } | null);
    const raw = meta !== null && typeof meta === 'object' ? meta.truth : undefined;
    if (raw === undefined) {
      noTruth.push(`${p.id} (${p.source})`);
      continue;
    }
    let truth: Truth;
    try {
      truth = parseTruth(raw);
    } catch (e) {
      badTruth ??= `${p.id} (${p.source}): ${(e as Error).message}`;
      continue;
    }
    const kind = typeof meta?.kind === 'string' ? meta.kind : null;
    const ep: EvalPrompt = { id: p.id, question: p.question, kind, truth, imageId: p.image_id, imagePath: p.image_path, paired: false, answers: [] };
    prompts.push(ep);
    byId.set(p.id, ep);
  }
  const total = prompts.length + noTruth.length + (badTruth ? 1 : 0);
  if (noTruth.length > 0) {
    throw new EvalRefusal(
      `Round ${roundId}: ${noTruth.length} of ${total} prompts have no truth (meta.truth), e.g. ${noTruth[0]}; ` +
        `rlaifv eval judges answers against the shapes world's truth, so it only evaluates shapes-world rounds.`,
    );
  }
  if (badTruth) throw new EvalRefusal(`Round ${roundId}: a prompt's meta.truth is not a shapes-world truth: ${badTruth}.`);
  if (prompts.length === 0) throw new EvalRefusal(`Round ${roundId} has no prompts.`);

  for (const promptId of pairedPromptIds(db, roundId, r.pair_method)) {
    const p = byId.get(promptId);
    if (p) p.paired = true;
  }

  const answers = new Map<string, EvalAnswer>();
  const candidates = evalCandidates(db, roundId);
  for (const c of candidates) {
    const a: EvalAnswer = {
      id: c.id,
      sampleIndex: c.sample_index,
      text: c.text,
      words: c.words,
      division: c.divided === null ? null : { skipped: JSON.parse(c.skipped_json ?? '[]') },
      claims: [],
      score:
        c.scored === null
          ? null
          : { nClaims: c.n_claims!, nJudged: c.n_judged!, nRejected: c.n_rejected!, rejC: c.rej_c, rejP: c.rej_p },
    };
    answers.set(a.id, a);
    const p = byId.get(c.prompt_id);
    if (!p) continue;
    if (c.corrects_id === null) p.answers.push(a);
    else (p.corrections ??= []).push({ ...a, correctsId: c.corrects_id, editor: c.editor!, edits: JSON.parse(c.edits_json ?? '[]') });
  }

  // A round with label.tools reads its verdict set's labels (each with its source) and the labeler's own beside them.
  const vs = getVerdictSet(db, r.labeler_model);
  const claims = evalClaims(db, roundId, r.labeler_model, vs?.labeler ?? r.labeler_model);
  for (const c of claims) {
    answers.get(c.candidate_id)?.claims.push({
      idx: c.idx,
      sentence: c.sentence,
      claim: c.claim,
      questionId: c.question_id,
      question: c.question,
      pYes: c.p_yes,
      pNo: c.p_no,
      ...(vs ? { source: c.source ?? 'labeler', own: { pYes: c.own_p_yes, pNo: c.own_p_no } } : {}),
    });
  }

  const storedPairs = evalPairs(db, roundId, r.pair_method).map((p) => ({
    kind: p.kind,
    editor: p.editor,
    promptId: p.prompt_id,
    chosenId: p.chosen_id,
    rejectedId: p.rejected_id,
    // A pair the quality gate dropped is not kept, whatever length balance said.
    balanceKept: p.gate_kept === 0 ? false : p.balance_kept === null ? null : p.balance_kept === 1,
    gateKept: p.gate_kept === null ? null : p.gate_kept === 1,
  }));

  const failures = Object.fromEntries(failureCountsByStage(db, roundId).map((f) => [f.stage, f.n]));

  return {
    id: r.id,
    status: r.status,
    seed: r.seed,
    labeler: r.labeler_model,
    acceptRule: r.accept_rule,
    scoreMethod: r.score_method,
    feedbackMethod: r.feedback_method,
    // The gap the round's pairs were made with, from the stored config (as the pair stage took it).
    pairGap: pairGap({
      method: r.feedback_method,
      minGap: config.feedback?.min_gap ?? null,
      diff: pair.diff,
      labelerRemote: config.label?.backend?.type === 'openai',
    }),
    judgeGate: !!config.feedback?.gate?.judge,
    samples: config.generate?.samples ?? 10,
    pair,
    prompts,
    storedPairs,
    failures,
    ...(vs ? { tools: { labeler: vs.labeler, routing: JSON.parse(vs.routing_json) as Record<string, string> } } : {}),
  };
}
