// A policy's hallucination on held-out prompts: it answers them (sampled, and greedy) in evaluation rounds, the divider
// cuts the answers into claims and the labeler gives each a verdict (the truth-free figures, which any prompts give);
// where the prompts carry the shapes truth, the truth judges the claims too. Evaluation rounds never pair, and no pull
// or export ever delivers a pair on an image they have seen.
import type { Config, ModelBackend } from '../../config/schema.js';
import { finishPolicyEval, createPolicyEval, findPolicyEval, finishRound, getPolicyEval, getRound, linkPolicyEvalRound, openDb, type PolicyEvalRow } from '../../store/index.js';
import { runRound, withPool } from '../../pipeline/round.js';
import { silentProgress, type Progress } from '../../progress.js';
import { loadEvalRound } from '../load.js';
import { policyFigures, type PolicyFigures } from '../policy.js';
import { roundHasTruth, truthFreeFigures, type TruthFreeFigures } from '../truth-free.js';
import type { Db } from '../../store/index.js';
import { hashCheckpoint, isNonEmptyFolder } from '../../util/checkpoint.js';
import { ConfigError } from '../../config/load.js';
import type { WorkerPool } from '../../backends/local/pool.js';

/** What to evaluate, where, and how it decodes. */
export interface PolicyEvalOptions {
  /** The policy: a local model folder or a served model (the generate backend to use). */
  policy: ModelBackend;
  /** Held-out prompts (with or without the shapes truth, meta.truth). */
  prompts: string;
  /** The first N prompts only; null: all. */
  limit: number | null;
  samples: number;
  temperature: number;
  /** Also one greedy answer per prompt (temperature 0). */
  greedy: boolean;
  progress?: Progress;
  /** A worker pool to run in, left open (a loop's, shared by its rounds and evaluations); absent: each round makes its own. */
  pool?: WorkerPool | null;
}

/**
 * A finished evaluation: the truth's figures of the sampled answers and of the greedy ones (every truth figure null
 * where the prompts carry no truth), and the truth-free figures of both.
 */
export interface PolicyEvaluation {
  id: number;
  policy: string;
  policy_sha256: string | null;
  prompts: string;
  sampled_round: number;
  greedy_round: number | null;
  sampled: PolicyFigures;
  greedy: PolicyFigures | null;
  truth_free: TruthFreeFigures;
  greedy_truth_free: TruthFreeFigures | null;
  /** Whether the prompts carry the shapes truth (the truth's figures are null when not). */
  has_truth: boolean;
}

/** The stored form of an evaluation's figures (truth_free is absent from evaluations stored before it existed). */
interface StoredFigures {
  sampled: PolicyFigures;
  greedy: PolicyFigures | null;
  truth_free?: TruthFreeFigures;
  greedy_truth_free?: TruthFreeFigures | null;
  has_truth?: boolean;
}

/** An evaluation row as the API returns it (null while unfinished, or stored before the truth-free figures). */
export function policyEvaluation(row: PolicyEvalRow): PolicyEvaluation | null {
  if (row.figures_json === null || row.sampled_round === null) return null;
  const f = JSON.parse(row.figures_json) as StoredFigures;
  if (!f.truth_free) return null;
  return {
    id: row.id,
    policy: row.policy,
    policy_sha256: row.policy_sha256,
    prompts: row.prompts,
    sampled_round: row.sampled_round,
    greedy_round: row.greedy_round,
    sampled: f.sampled,
    greedy: f.greedy,
    truth_free: f.truth_free,
    greedy_truth_free: f.greedy_truth_free ?? null,
    has_truth: f.has_truth ?? true,
  };
}

/**
 * The config of one evaluation round: the held-out prompts, the policy, its decoding. Its claims are labeled by the
 * config's labeler through divide's own stages, whatever feedback method the training rounds use.
 */
function evalRoundConfig(config: Config, o: PolicyEvalOptions, samples: number, temperature: number): Config {
  return {
    ...config,
    prompts: o.prompts,
    generate: { ...config.generate, backend: o.policy, samples, temperature },
    // The method is left as it is when it is divide, so rounds stored before keep their config hash (and resume).
    feedback: config.feedback.method === 'divide' ? config.feedback : { ...config.feedback, method: 'divide' },
  };
}

/** The truth's figures where a round's prompts carry the truth; else every truth figure null beside the counts. */
function truthFigures(db: Db, roundId: number, free: TruthFreeFigures): PolicyFigures {
  if (roundHasTruth(db, roundId)) return policyFigures(loadEvalRound(db, roundId).prompts);
  return {
    false_claim_rate: null,
    response_hallucination_rate: null,
    true_claims_per_answer: null,
    object_coverage: null,
    judgeable_share: null,
    distinct_answers_per_prompt: free.distinct_answers_per_prompt,
    mean_words: free.mean_words,
    prompts: free.prompts,
    answers: free.answers,
    undivided: free.unscored,
    claims: free.claims,
    judged_claims: 0,
    false_claims: 0,
    true_claims: 0,
    unknown_claims: 0,
    detailed_answers: 0,
  };
}

/**
 * Evaluates a policy on held-out prompts, or returns the stored evaluation of the same policy bytes, prompts and
 * decoding. Resumable: the evaluation and each of its rounds are recorded as they are made, and a rerun finishes them.
 * @example await evaluatePolicy(config, { policy: { type: 'local', model: 'models/shapes-policy' }, prompts: 'data/shapes/test/prompts.jsonl', limit: 100, samples: 10, temperature: 0.7, greedy: true })
 */
export async function evaluatePolicy(config: Config, o: PolicyEvalOptions): Promise<PolicyEvaluation> {
  const progress = o.progress ?? silentProgress;
  if (o.policy.type === 'local' && !isNonEmptyFolder(o.policy.model)) {
    throw new ConfigError(`the policy ${o.policy.model}: no such model folder (a folder in the layout of models/shapes-policy, or a served model name).`);
  }
  const key = {
    policy: o.policy.model,
    policy_sha256: o.policy.type === 'local' ? hashCheckpoint(o.policy.model) : null,
    prompts: o.prompts,
    prompt_limit: o.limit,
    samples: o.samples,
    temperature: o.temperature,
    seed: config.seed,
  };
  let row: PolicyEvalRow;
  {
    const db = openDb(config.db);
    try {
      row = db.transaction(() => findPolicyEval(db, key) ?? createPolicyEval(db, key)).immediate();
    } finally {
      db.close();
    }
  }
  const done = policyEvaluation(row);
  if (done) return done;

  // An evaluation stored before the truth-free figures has its rounds generated and divided: labeling them finishes it.
  const runs: { which: 'sampled' | 'greedy'; samples: number; temperature: number; round: number | null }[] = [
    { which: 'sampled', samples: o.samples, temperature: o.temperature, round: row.sampled_round },
  ];
  if (o.greedy) runs.push({ which: 'greedy', samples: 1, temperature: 0, round: row.greedy_round });
  const figures: StoredFigures = { sampled: null as unknown as PolicyFigures, greedy: null, greedy_truth_free: null, has_truth: true };
  // The sampled and greedy rounds share one worker pool (the caller's, or one of their own).
  await withPool(evalRoundConfig(config, o, o.samples, o.temperature), o.pool, async (pool) => {
    for (const r of runs) {
      progress.log(`evaluating ${o.policy.model} on ${o.prompts} (${r.which}: ${r.samples} per prompt, T ${r.temperature})`);
      const run = await runRound(evalRoundConfig(config, o, r.samples, r.temperature), {
        choice: r.round ?? 'next',
        stages: ['generate', 'divide', 'label', 'score'],
        ...(o.limit !== null ? { limit: o.limit } : {}),
        progress,
        pool,
        create: { purpose: 'eval', onCreate: (db, id) => linkPolicyEvalRound(db, row.id, r.which, id) },
      });
      const db = openDb(config.db);
      try {
        finishRound(db, run.round.id, 'done');
        const free = truthFreeFigures(db, run.round.id);
        const truth = truthFigures(db, run.round.id, free);
        if (r.which === 'sampled') {
          figures.sampled = truth;
          figures.truth_free = free;
          figures.has_truth = roundHasTruth(db, run.round.id);
          row = { ...row, sampled_round: run.round.id };
        } else {
          figures.greedy = truth;
          figures.greedy_truth_free = free;
          row = { ...row, greedy_round: run.round.id };
        }
      } finally {
        db.close();
      }
    }
  });
  const db = openDb(config.db);
  try {
    finishPolicyEval(db, row.id, figures);
    if (!getRound(db, row.sampled_round!)) throw new Error(`evaluation ${row.id}: its sampled round is missing`);
    return policyEvaluation(getPolicyEval(db, row.id)!)!;
  } finally {
    db.close();
  }
}
