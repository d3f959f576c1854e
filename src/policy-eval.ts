// A policy's hallucination on held-out prompts: it answers them (sampled, and greedy) in evaluation rounds, the rules
// divider cuts the answers into claims, and the shapes truth judges them. Evaluation rounds never label or pair, and
// no pull or export ever delivers a pair on an image they have seen.
import type { Config, ModelBackend } from './config/schema.js';
import { finishPolicyEval, createPolicyEval, findPolicyEval, finishRound, getRound, linkPolicyEvalRound, openDb, type PolicyEvalRow } from './store/index.js';
import { runRound } from './round.js';
import { silentProgress, type Progress } from './stages/context.js';
import { loadEvalRound } from './eval/load.js';
import { policyFigures, type PolicyFigures } from './eval/policy.js';
import { hashCheckpoint } from './loop/checkpoint.js';

/** What to evaluate, where, and how it decodes. */
export interface PolicyEvalOptions {
  /** The policy: a local model folder or a served model (the generate backend to use). */
  policy: ModelBackend;
  /** Held-out prompts with shapes truth (meta.truth). */
  prompts: string;
  /** The first N prompts only; null: all. */
  limit: number | null;
  samples: number;
  temperature: number;
  /** Also one greedy answer per prompt (temperature 0). */
  greedy: boolean;
  progress?: Progress;
}

/** A finished evaluation: the figures of the sampled answers and of the greedy ones. */
export interface PolicyEvaluation {
  id: number;
  policy: string;
  policy_sha256: string | null;
  prompts: string;
  sampled_round: number;
  greedy_round: number | null;
  sampled: PolicyFigures;
  greedy: PolicyFigures | null;
}

/** The stored form of an evaluation's figures. */
interface StoredFigures {
  sampled: PolicyFigures;
  greedy: PolicyFigures | null;
}

/** An evaluation row as the API returns it (null while unfinished). */
export function policyEvaluation(row: PolicyEvalRow): PolicyEvaluation | null {
  if (row.figures_json === null || row.sampled_round === null) return null;
  const f = JSON.parse(row.figures_json) as StoredFigures;
  return {
    id: row.id,
    policy: row.policy,
    policy_sha256: row.policy_sha256,
    prompts: row.prompts,
    sampled_round: row.sampled_round,
    greedy_round: row.greedy_round,
    sampled: f.sampled,
    greedy: f.greedy,
  };
}

/** The config of one evaluation round: the held-out prompts, the policy, its decoding; nothing is labeled. */
function evalRoundConfig(config: Config, o: PolicyEvalOptions, samples: number, temperature: number): Config {
  return {
    ...config,
    prompts: o.prompts,
    generate: { ...config.generate, backend: o.policy, samples, temperature },
  };
}

/**
 * Evaluates a policy on held-out prompts, or returns the stored evaluation of the same policy bytes, prompts and
 * decoding. Resumable: the evaluation and each of its rounds are recorded as they are made, and a rerun finishes them.
 * @example await evaluatePolicy(config, { policy: { type: 'local', model: 'models/shapes-policy' }, prompts: 'data/shapes/test/prompts.jsonl', limit: 100, samples: 10, temperature: 0.7, greedy: true })
 */
export async function evaluatePolicy(config: Config, o: PolicyEvalOptions): Promise<PolicyEvaluation> {
  const progress = o.progress ?? silentProgress;
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

  const runs: { which: 'sampled' | 'greedy'; samples: number; temperature: number; round: number | null }[] = [
    { which: 'sampled', samples: o.samples, temperature: o.temperature, round: row.sampled_round },
  ];
  if (o.greedy) runs.push({ which: 'greedy', samples: 1, temperature: 0, round: row.greedy_round });
  const figures: Partial<StoredFigures> = { greedy: null };
  for (const r of runs) {
    progress.log(`evaluating ${o.policy.model} on ${o.prompts} (${r.which}: ${r.samples} per prompt, T ${r.temperature})`);
    const run = await runRound(evalRoundConfig(config, o, r.samples, r.temperature), {
      choice: r.round ?? 'next',
      stages: ['generate', 'divide'],
      ...(o.limit !== null ? { limit: o.limit } : {}),
      progress,
      create: { purpose: 'eval', onCreate: (db, id) => linkPolicyEvalRound(db, row.id, r.which, id) },
    });
    const db = openDb(config.db);
    try {
      finishRound(db, run.round.id, 'done');
      figures[r.which] = policyFigures(loadEvalRound(db, run.round.id).prompts);
      if (r.which === 'sampled') row = { ...row, sampled_round: run.round.id };
      else row = { ...row, greedy_round: run.round.id };
    } finally {
      db.close();
    }
  }
  const db = openDb(config.db);
  try {
    finishPolicyEval(db, row.id, figures);
    if (!getRound(db, row.sampled_round!)) throw new Error(`evaluation ${row.id}: its sampled round is missing`);
  } finally {
    db.close();
  }
  return {
    id: row.id,
    policy: key.policy,
    policy_sha256: key.policy_sha256,
    prompts: o.prompts,
    sampled_round: row.sampled_round!,
    greedy_round: row.greedy_round,
    sampled: figures.sampled!,
    greedy: figures.greedy ?? null,
  };
}
