// Best-of-N with the DPO model as the reward (RLAIF-V supplement, Tables 6–7): the policy samples N answers per prompt
// (each with its recorded seed, as a round's generate stage does), each answer is scored under the policy and its
// reference, and the answer with the highest r = β(log π − log π_ref) is chosen.
import { closeSync, existsSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/load.js';
import { configSchema, type OpenAIBackend } from '../config/schema.js';
import { LocalGenerator, LocalSequenceScorer } from '../backends/local/index.js';
import { OpenAIGenerator } from '../backends/openai/index.js';
import { OpenAISequenceScorer } from '../backends/openai/sequence-scorer.js';
import { inspectLlavaFolder } from '../backends/local/model-folder.js';
import { WorkerPool } from '../backends/local/pool.js';
import { FatalBackendError } from '../backends/errors.js';
import type { Decoding, GenerateResult, Generator, SequenceScorer } from '../backends/types.js';
import type { Turn } from '../domain.js';
import { imageStoreDir } from '../image/store.js';
import { readInput } from '../input/formats.js';
import type { InputLimits, InputPrompt } from '../input/prompts.js';
import { InputFileError } from '../input/reader.js';
import { bestIndex, dpoRewards } from '../methods/dpo-reward.js';
import type { BonSettings } from './bon-settings.js';
import { sampleSeed } from '../stages/generate.js';
import { mapLimit, silentProgress, type Progress } from '../progress.js';

// The settings live apart (so `rlaifv bon`'s flags load without the runner); this file stays their public entry.
export { BON_DEFAULTS, type BonSettings } from './bon-settings.js';
import type { BonModel } from './bon-model.js';
export { parseBonModel, type BonModel } from './bon-model.js';

/** One sampled answer with its log-probs and reward (nulls and `error` when it could not be had or scored). */
export interface BonAnswer {
  index: number;
  seed: number;
  text: string | null;
  finish_reason: string | null;
  reward: number | null;
  policy_logprob: number | null;
  reference_logprob: number | null;
  policy_tokens: number | null;
  reference_tokens: number | null;
  error?: string;
}

/** One prompt's line of the output: the chosen answer (highest reward) and all N answers. */
export interface BonRow {
  id: string;
  image: string;
  question: string;
  history?: Turn[];
  /** The chosen answer's text, index and reward; null when no answer could be scored. */
  chosen: string | null;
  chosen_index: number | null;
  reward: number | null;
  answers: BonAnswer[];
}

/** The models of a best-of-N run: the policy that samples, and the policy and reference that score. */
export interface BonBackends {
  generator: Generator;
  policy: SequenceScorer;
  reference: SequenceScorer;
}

/** The prompt fields best-of-N needs. */
export interface BonPrompt {
  id: string;
  imagePath: string;
  question: string;
  history?: Turn[];
}

/**
 * Best-of-N for one prompt: N samples with their seeds, each scored under the policy and the reference, the best
 * reward chosen (the first of equal ones). Per-answer failures are kept in the row with their reason.
 * @example await bestOfOne({ id: 'p1', imagePath: 'a.png', question: 'Describe the image.' }, backends, BON_DEFAULTS)
 */
export async function bestOfOne(p: BonPrompt, b: BonBackends, s: BonSettings): Promise<BonRow> {
  const decoding: Decoding = { temperature: s.temperature, top_p: s.top_p, max_new_tokens: s.max_new_tokens };
  const samples = Array.from({ length: s.n }, (_, index) => ({ index, seed: sampleSeed(s.seed, p.id, index) }));
  const history = p.history ?? [];
  let results: GenerateResult[];
  try {
    results = await b.generator.generate({ imagePath: p.imagePath, question: p.question, history, samples, decoding });
  } catch (e) {
    // As the generate stage: a prompt that cannot be answered (its image unreadable, say) fails its own samples only.
    if (e instanceof FatalBackendError) throw e;
    results = samples.map((x) => ({ ...x, error: (e as Error).message }));
  }
  const ok = results.flatMap((r) => ('error' in r ? [] : [r.text]));
  const [rewards] = ok.length
    ? await dpoRewards(b.policy, b.reference, [{ imagePath: p.imagePath, question: p.question, history, answers: ok }], { beta: s.beta, variant: s.reward })
    : [[]];
  let k = 0;
  const answers = results.map((r): BonAnswer => {
    const text = 'error' in r ? null : r.text;
    const rw = 'error' in r ? new Error(r.error) : rewards![k++]!;
    const scored = rw instanceof Error ? null : rw;
    return {
      index: r.index,
      seed: r.seed,
      text,
      finish_reason: 'error' in r ? null : r.finishReason,
      reward: scored?.reward ?? null,
      policy_logprob: scored?.policy.sum ?? null,
      reference_logprob: scored?.reference.sum ?? null,
      policy_tokens: scored?.policy.tokens ?? null,
      reference_tokens: scored?.reference.tokens ?? null,
      ...(rw instanceof Error ? { error: rw.message } : {}),
    };
  });
  const best = bestIndex(answers.map((a) => a.reward));
  const chosen = best < 0 ? null : answers[best]!;
  return {
    id: p.id,
    image: p.imagePath,
    question: p.question,
    ...(history.length ? { history } : {}),
    chosen: chosen?.text ?? null,
    chosen_index: chosen?.index ?? null,
    reward: chosen?.reward ?? null,
    answers,
  };
}

/** A best-of-N run over a prompts file, with model folders or served models. */
export interface BonOptions {
  /** A prompts file in any input format (JSONL, Parquet, RLAIF-V rows, LLaVA conversations). */
  prompts: string;
  inputFormat?: string;
  columns?: { image?: string; question?: string; id?: string };
  limits?: InputLimits;
  /** The first N prompts only. */
  limit?: number | null;
  /** The trained policy (it samples and scores): a model folder or a served model. */
  policy: BonModel;
  /** The reference (the policy DPO started from): a model folder or a served model. */
  reference: BonModel;
  settings: BonSettings;
  /** The output JSONL file (written whole: beside it while running, then renamed); null: rows only go to onRow. */
  out?: string | null;
  /** Where images that come as bytes (Parquet) are kept (default: beside `out`, or a temp folder). */
  imagesDir?: string;
  workers?: number | null;
  progress?: Progress;
}

/** What a run did. */
export interface BonSummary {
  prompts: number;
  answers: number;
  /** Answers that could not be sampled or scored (kept in their rows with the reason). */
  failed_answers: number;
  /** Input lines that could not be used (each reported through progress.log). */
  bad_prompts: number;
  /** Mean reward of the chosen answers and of all scored answers. */
  mean_chosen_reward: number | null;
  mean_reward: number | null;
  out: string | null;
  seconds: number;
}

/**
 * Best-of-N over a prompts file: rows in input order to `onRow` and to `out` (one JSON line per prompt), prompts
 * worked on as many at a time as there are workers. Throws ConfigError for an unusable model folder and an
 * InputError for a missing prompts file.
 * @example await runBestOfN({ prompts: 'data/shapes/test/prompts.jsonl', limit: 5, policy: 'ckpt', reference: 'models/shapes-policy', settings: BON_DEFAULTS, out: 'bon.jsonl' })
 */
export async function runBestOfN(o: BonOptions, onRow: (row: BonRow) => void = () => {}): Promise<BonSummary> {
  const t0 = performance.now();
  const progress = o.progress ?? silentProgress;
  if (!existsSync(o.prompts)) throw new InputFileError(`Prompts file ${o.prompts} does not exist.`);
  // An unusable model folder is a mistake in what was asked for, named before any worker starts.
  for (const [role, m] of [['policy', o.policy], ['reference', o.reference]] as const) {
    if (typeof m !== 'string') continue;
    try {
      inspectLlavaFolder(m);
    } catch (e) {
      throw new ConfigError(`${role}: ${(e as Error).message}`);
    }
  }
  const local = typeof o.policy === 'string' || typeof o.reference === 'string';
  const pool = local ? new WorkerPool(o.workers ?? null) : null;
  let fd: number | null = null;
  const tmp = o.out ? `${o.out}.tmp-${process.pid}` : null;
  try {
    const scorer = (m: BonModel, role: string) => (typeof m === 'string' ? new LocalSequenceScorer(pool!, m) : new OpenAISequenceScorer(m, role));
    const b: BonBackends = {
      generator: typeof o.policy === 'string' ? new LocalGenerator(pool!, o.policy) : new OpenAIGenerator(o.policy),
      policy: scorer(o.policy, 'bon policy'),
      reference: scorer(o.reference, 'bon reference'),
    };
    // Prompts in flight: enough to fill every local worker, or a served policy's request slots (N requests a prompt).
    const served = [o.policy, o.reference].filter((m): m is OpenAIBackend => typeof m !== 'string');
    const lanes = Math.max(pool?.size.workers ?? 1, ...served.map((m) => Math.ceil((m.max_in_flight * m.base_urls.length) / o.settings.n)));
    const prompts: InputPrompt[] = [];
    let bad = 0;
    const imagesDir = o.imagesDir ?? (o.out ? imageStoreDir(o.out) : path.join(os.tmpdir(), 'rlaifv-bon.images'));
    const input = readInput(o.prompts, o.inputFormat ?? 'auto', o.limits ?? configSchema.parse({}).limits, { imagesDir, columns: o.columns ?? {} });
    for await (const r of input) {
      if (o.limit != null && prompts.length >= o.limit) break;
      if ('problem' in r) {
        bad++;
        progress.log(`skipped ${r.problem.source}: ${r.problem.reason}`);
      } else prompts.push(r.prompt);
    }
    if (tmp) fd = openSync(tmp, 'w');
    const sum = { answers: 0, failed: 0, chosen: 0, nChosen: 0, all: 0, nAll: 0 };
    const ready = new Map<number, BonRow>();
    let next = 0;
    progress.start('bon', prompts.length);
    await mapLimit(prompts, lanes, async (p, i) => {
      ready.set(i, await bestOfOne({ id: p.id, imagePath: p.image.path, question: p.question, history: p.history }, b, o.settings));
      // Rows leave in input order (writes are synchronous, so one lane flushes at a time).
      for (let row = ready.get(next); row; row = ready.get(next)) {
        ready.delete(next++);
        for (const a of row.answers) {
          sum.answers++;
          if (a.reward === null) sum.failed++;
          else {
            sum.all += a.reward;
            sum.nAll++;
          }
        }
        if (row.reward !== null) {
          sum.chosen += row.reward;
          sum.nChosen++;
        }
        if (fd !== null) writeSync(fd, JSON.stringify(row) + '\n');
        onRow(row);
        progress.tick(1);
      }
    });
    progress.done();
    if (fd !== null) {
      closeSync(fd);
      fd = null;
      renameSync(tmp!, o.out!);
    }
    return {
      prompts: prompts.length,
      answers: sum.answers,
      failed_answers: sum.failed,
      bad_prompts: bad,
      mean_chosen_reward: sum.nChosen ? sum.chosen / sum.nChosen : null,
      mean_reward: sum.nAll ? sum.all / sum.nAll : null,
      out: o.out ?? null,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    if (fd !== null) closeSync(fd);
    if (tmp) rmSync(tmp, { force: true });
    await pool?.close();
  }
}
