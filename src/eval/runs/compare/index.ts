// `rlaifv compare`: two policies answer the same held-out prompts with the same recorded seeds (an evaluation round
// each: generate, divide, label, score), and a judge decides each pair of answers (sample i of A against sample i of
// B) in both orders. A verdict that flips with the order is a tie. The loop's win rates against the previous round and
// the start are the same comparison of its evaluation rounds.
import type { Config, ModelBackend } from '../../../config/schema.js';
import { getCompareVerdict, getRound, openDb, putCompareVerdict, roundPrompts, promptHistory, type Db } from '../../../store/index.js';
import { mapLimit, silentProgress, type Progress } from '../../../progress.js';
import { EvalRefusal, loadEvalRound } from '../../load.js';
import { judgeAnswer } from '../../truth.js';
import { promptKinds, roundHasTruth, scoredAnswers, type ScoredAnswer } from '../../truth-free.js';
import { evaluatePolicy } from '../policy-eval.js';
import type { WorkerPool } from '../../../backends/local/pool.js';
import { withPool } from '../../../pipeline/round.js';
import { compareKeys, judgeName, ServedCompareJudge, type AnswerKey, type JudgeSpec } from './judges.js';
import { pairOutcome, tallyOf, type CompareTally, type PromptTally } from './tally.js';

export { parseJudgeSpec, parseCompareVerdict, COMPARE_PROMPT, COMPARE_EXTRACT_PROMPT, type JudgeSpec } from './judges.js';
export { tallyOf, pairOutcome, type CompareTally, type PromptTally } from './tally.js';

/** A comparison's result: `--json` prints it. */
export interface CompareResult extends CompareTally {
  a: string;
  b: string;
  judge: string;
  /** The held-out prompts file. */
  prompts_file: string | null;
  a_round: number;
  b_round: number;
  /** The same figures per instruction kind (meta.kind; 'other' without one). */
  by_kind: Record<string, CompareTally>;
  /** Pairs whose two answers are the same text (same seed, same choice): ties to any judge. */
  identical_answers: number;
}

/** The shared settings of a comparison between two evaluation rounds. */
export interface CompareRoundsOptions {
  judge: JudgeSpec;
  /** Seeds the bootstrap. */
  seed: number;
  a: string;
  b: string;
  promptsFile: string | null;
  /** Only these prompts' pairs (a subset of a larger evaluation); absent: all. */
  promptIds?: ReadonlySet<string>;
  progress?: Progress;
}

/** A deterministic judge's key per answer id (larger is better); answers it cannot judge are absent. */
function answerKeys(db: Db, judge: 'truth' | 'claims', roundIds: number[]): Map<string, AnswerKey> {
  const keys = new Map<string, AnswerKey>();
  for (const id of roundIds) {
    if (judge === 'claims') {
      // Fewer rejected claims wins, then more accepted claims (an answer that says nothing does not win by it).
      for (const a of scoredAnswers(db, id)) {
        if (a.rejected !== null && a.judged !== null) keys.set(a.id, [-a.rejected, a.judged - a.rejected]);
      }
    } else {
      // Refuses (EvalRefusal, naming a prompt) a round whose prompts carry no shapes truth.
      for (const p of loadEvalRound(db, id).prompts) {
        for (const a of p.answers) {
          if (a.division === null) continue;
          const j = judgeAnswer(p.truth, a);
          keys.set(a.id, [-j.nFalse, j.nTrue]);
        }
      }
    }
  }
  return keys;
}

/**
 * Compares the answers of two rounds on the same prompts: sample i of a prompt in round A against sample i of the same
 * prompt in round B (same recorded seeds when both are evaluation rounds of one config seed), both orders judged.
 * Verdicts of a served judge are stored and never asked twice.
 */
export async function compareRounds(db: Db, aRound: number, bRound: number, o: CompareRoundsOptions): Promise<CompareResult> {
  const progress = o.progress ?? silentProgress;
  const kinds = promptKinds(db, aRound);
  const prompts = new Map(roundPrompts(db, aRound).map((p) => [p.id, p]));
  const answersOf = (round: number) => {
    const m = new Map<string, ScoredAnswer>();
    for (const a of scoredAnswers(db, round)) m.set(`${a.promptId}\u0000${a.sampleIndex}`, a);
    return m;
  };
  const aAnswers = answersOf(aRound);
  const bAnswers = answersOf(bRound);
  const pairs: { promptId: string; a: ScoredAnswer; b: ScoredAnswer }[] = [];
  for (const [k, a] of aAnswers) {
    const b = bAnswers.get(k);
    if (b && prompts.has(a.promptId) && (!o.promptIds || o.promptIds.has(a.promptId))) pairs.push({ promptId: a.promptId, a, b });
  }
  const tallies = new Map<string, PromptTally>();
  const tally = (promptId: string) => {
    let t = tallies.get(promptId);
    if (!t) tallies.set(promptId, (t = { promptId, kind: kinds.get(promptId) ?? 'other', wins_a: 0, wins_b: 0, ties: 0, flips: 0, failed: 0 }));
    return t;
  };
  const record = (promptId: string, ab: 'first' | 'second' | 'tie' | null, ba: 'first' | 'second' | 'tie' | null) => {
    const t = tally(promptId);
    if (ab === null || ba === null) {
      t.failed++;
      return;
    }
    const { outcome, flip } = pairOutcome(ab, ba);
    if (outcome === 'a') t.wins_a++;
    else if (outcome === 'b') t.wins_b++;
    else t.ties++;
    if (flip) t.flips++;
  };

  if (o.judge.type !== 'served') {
    const keys = answerKeys(db, o.judge.type, [aRound, bRound]);
    for (const p of pairs) {
      const ka = keys.get(p.a.id);
      const kb = keys.get(p.b.id);
      if (!ka || !kb) record(p.promptId, null, null);
      else record(p.promptId, compareKeys(ka, kb), compareKeys(kb, ka));
    }
  } else {
    const judge = new ServedCompareJudge(o.judge.backend);
    await judge.pool.preflight();
    let done = 0;
    const ask = async (promptId: string, first: ScoredAnswer, second: ScoredAnswer): Promise<'first' | 'second' | null> => {
      const stored = getCompareVerdict(db, judge.id, first.id, second.id);
      if (stored) return stored.winner;
      const p = prompts.get(promptId)!;
      const v = await judge.decide({ imagePath: p.image_path, question: p.question, history: promptHistory(p), first: first.text, second: second.text });
      if ('error' in v) {
        progress.log(`compare: prompt ${promptId}: ${v.error}`);
        return null;
      }
      putCompareVerdict(db, { judge: judge.id, first_id: first.id, second_id: second.id, winner: v.winner, reply: v.reply, attempts: v.attempts });
      return v.winner;
    };
    await mapLimit(pairs, Math.max(1, Math.ceil(judge.pool.capacity / 2)), async (p) => {
      const [ab, ba] = await Promise.all([ask(p.promptId, p.a, p.b), ask(p.promptId, p.b, p.a)]);
      record(p.promptId, ab, ba);
      if (++done % 200 === 0) progress.log(`compare: ${done} of ${pairs.length} pairs judged`);
    });
  }
  const all = [...tallies.values()];
  const byKind: Record<string, CompareTally> = {};
  for (const k of [...new Set(all.map((t) => t.kind))].sort()) byKind[k] = tallyOf(all.filter((t) => t.kind === k), o.seed);
  return {
    a: o.a,
    b: o.b,
    judge: judgeName(o.judge),
    prompts_file: o.promptsFile,
    a_round: aRound,
    b_round: bRound,
    ...tallyOf(all, o.seed),
    by_kind: byKind,
    identical_answers: pairs.filter((p) => p.a.text.trim() === p.b.text.trim()).length,
  };
}

/** What `rlaifv compare` compares. */
export interface CompareOptions {
  a: ModelBackend;
  b: ModelBackend;
  prompts: string;
  limit: number | null;
  samples: number;
  temperature: number;
  judge: JudgeSpec;
  progress?: Progress;
  /** A worker pool to run in, left open (a loop's, shared by its rounds and evaluations); absent: each round makes its own. */
  pool?: WorkerPool | null;
}

/**
 * Both policies answer the prompts (evaluation rounds, reused when the store has them for the same policy bytes,
 * prompts, decoding and seed), then the judge decides every pair.
 * @example await comparePolicies(config, { a: { type: 'local', model: 'models/shapes-policy' }, b: { type: 'local', model: 'ckpt' }, prompts: 'data/shapes/test/prompts.jsonl', limit: 100, samples: 4, temperature: 0.7, judge: { type: 'claims' } })
 */
export async function comparePolicies(config: Config, o: CompareOptions): Promise<CompareResult> {
  // Both policies' evaluation rounds share one worker pool.
  return withPool({ ...config, generate: { ...config.generate, backend: o.a.type === 'local' ? o.a : o.b } }, o.pool, (pool) => comparePoliciesIn(config, { ...o, pool }));
}

/** comparePolicies in one worker pool. */
async function comparePoliciesIn(config: Config, o: CompareOptions): Promise<CompareResult> {
  const rounds: number[] = [];
  for (const policy of [o.a, o.b]) {
    if (rounds.length === 1 && o.judge.type === 'truth') {
      // Refused before B answers anything: the truth judge needs every prompt's truth.
      const db = openDb(config.db, { readonly: true });
      try {
        if (!roundHasTruth(db, rounds[0]!)) {
          throw new EvalRefusal(`--judge truth: the prompts of ${o.prompts} carry no shapes truth (meta.truth) on every prompt; use --judge claims (rlaifv's own divider and labeler) or a served judge (MODEL@URL).`);
        }
      } finally {
        db.close();
      }
    }
    const ev = await evaluatePolicy(config, {
      policy,
      prompts: o.prompts,
      limit: o.limit,
      samples: o.samples,
      temperature: o.temperature,
      greedy: false,
      ...(o.progress ? { progress: o.progress } : {}),
      pool: o.pool ?? null,
    });
    rounds.push(ev.sampled_round);
  }
  const db = openDb(config.db);
  try {
    if (!getRound(db, rounds[0]!) || !getRound(db, rounds[1]!)) throw new Error('compare: an evaluation round is missing');
    return await compareRounds(db, rounds[0]!, rounds[1]!, {
      judge: o.judge,
      seed: config.seed,
      a: o.a.model,
      b: o.b.model,
      promptsFile: o.prompts,
      ...(o.progress ? { progress: o.progress } : {}),
    });
  } finally {
    db.close();
  }
}
