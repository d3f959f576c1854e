// ConvBench's hierarchical ablation on multi-turn prompts: the policy answers each conversation's final turn three
// times, with no history, with the true earlier turns (the prompts' own), and with its own earlier answers (it answers
// the earlier questions first, turn by turn, each with its own answers so far). Every answer is an evaluation round's
// (generate, divide, label, score), stored and reused like any evaluation. Where the prompts carry the shapes truth,
// it also says how often a final-turn error repeats a false claim of the policy's own earlier turns, and how often a
// false earlier claim is corrected in the final turn.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config, ModelBackend } from '../../config/schema.js';
import type { Turn } from '../../domain.js';
import { openDb, promptHistory, roundPrompts, type Db, type RoundPrompt } from '../../store/index.js';
import { silentProgress, type Progress } from '../../progress.js';
import { evaluatePolicy, type PolicyEvaluation } from './policy-eval.js';
import type { WorkerPool } from '../../backends/local/pool.js';
import { withPool } from '../../pipeline/round.js';
import { hashCheckpoint } from '../../util/checkpoint.js';
import { checkStatement } from '../../shapes/index.js';
import { normClaim, subjectsOf } from '../claims.js';
import { parseTruth, type Truth } from '../../shapes/truth.js';
import { firstAnswerClaims } from '../../store/eval-reads.js';
import { table } from '../render.js';

export { roundHasHistory } from '../../store/eval-reads.js';

/** The three ways the final turn is asked. */
export const ABLATION_CONDITIONS = ['no_history', 'true_history', 'own_history'] as const;
export type AblationCondition = (typeof ABLATION_CONDITIONS)[number];

/** One condition's final-turn figures. */
export interface ConditionFigures {
  /** The truth's false claims ÷ claims it judges (null without truth). */
  false_claim_rate: number | null;
  /** The labeler's rejected claims ÷ claims it judged (truth-free). */
  rejected_claim_rate: number | null;
  answers: number;
  /** The evaluation round behind it. */
  round: number;
}

/** What the ablation reports (`multiturn_ablation` in JSON). */
export interface AblationFigures {
  prompts_file: string;
  /** Conversations with earlier turns (prompts without history are left out). */
  conversations: number;
  samples: number;
  /** Own-history chains left out of the counts because one of their turns got no answer (a failed sample). */
  incomplete_chains: number;
  no_history: ConditionFigures;
  true_history: ConditionFigures;
  own_history: ConditionFigures;
  /** Own history: false final-turn claims that repeat a false claim of the same conversation's own earlier turns ÷ false final-turn claims (null without truth). */
  repeated_error_share: number | null;
  /** Own history: false claims of earlier turns that the final turn corrects (a true claim about the same subject) ÷ false earlier claims (null without truth). */
  corrected_share: number | null;
  /** The counts behind the two shares. */
  final_false_claims: number;
  repeated_false_claims: number;
  earlier_false_claims: number;
  corrected_false_claims: number;
  /** False earlier claims the final turn says something about (same subject), corrected or not. */
  revisited_false_claims: number;
}

/** Options: the policy and the held-out multi-turn prompts, decoded as the held-out evaluation decodes. */
export interface AblationOptions {
  policy: ModelBackend;
  prompts: string;
  limit: number | null;
  samples: number;
  temperature: number;
  progress?: Progress;
  /** A worker pool to run in, left open (a loop's, shared by its rounds and evaluations); absent: each round makes its own. */
  pool?: WorkerPool | null;
}

/** The figures of one condition's evaluation. */
function conditionFigures(ev: PolicyEvaluation): ConditionFigures {
  return { false_claim_rate: ev.sampled.false_claim_rate, rejected_claim_rate: ev.truth_free.rejected_claim_rate, answers: ev.truth_free.answers, round: ev.sampled_round };
}

/** Each answer's claims of a round by prompt id (sample 0 of each prompt: the own-history rounds have one each). */
function claimsByPrompt(db: Db, roundId: number): Map<string, { text: string; claims: string[] }> {
  const rows = firstAnswerClaims(db, roundId);
  const out = new Map<string, { text: string; claims: string[] }>();
  for (const r of rows) {
    let a = out.get(r.promptId);
    if (!a) out.set(r.promptId, (a = { text: r.text, claims: [] }));
    if (r.claim !== null) a.claims.push(r.claim);
  }
  return out;
}

/**
 * Runs (or finds stored) the ablation's evaluation rounds and computes its figures. The derived prompt files (no
 * history; each turn of the own-history chains, one chain per sample) are written beside the store, named by the
 * policy's bytes and the settings, so a rerun reuses every round.
 * @example await multiturnAblation(config, { policy: { type: 'local', model: 'models/shapes-policy' }, prompts: 'data/shapes/multiturn/prompts.jsonl', limit: null, samples: 4, temperature: 0.7 })
 */
export async function multiturnAblation(config: Config, o: AblationOptions): Promise<AblationFigures> {
  // Its three conditions and each turn of the own-history chains share one worker pool.
  return withPool({ ...config, generate: { ...config.generate, backend: o.policy } }, o.pool, (pool) => multiturnAblationIn(config, { ...o, pool }));
}

/** multiturnAblation in one worker pool. */
async function multiturnAblationIn(config: Config, o: AblationOptions): Promise<AblationFigures> {
  const progress = o.progress ?? silentProgress;
  const evaluate = (prompts: string, samples: number) =>
    evaluatePolicy(config, { policy: o.policy, prompts, limit: null, samples, temperature: o.temperature, greedy: false, progress, pool: o.pool ?? null });

  // The true-history condition is the prompts as they are; it also brings them into the store.
  const truthEv = await evaluatePolicy(config, { policy: o.policy, prompts: o.prompts, limit: o.limit, samples: o.samples, temperature: o.temperature, greedy: false, progress, pool: o.pool ?? null });
  const db = openDb(config.db);
  let convs: RoundPrompt[];
  try {
    convs = roundPrompts(db, truthEv.sampled_round).filter((p) => promptHistory(p).length > 0);
  } finally {
    db.close();
  }
  if (convs.length === 0) throw new Error(`multi-turn ablation: no prompt of ${o.prompts} has earlier turns (history)`);

  const key = createHash('sha256')
    .update(JSON.stringify([o.policy.type === 'local' ? hashCheckpoint(o.policy.model) : o.policy.model, path.resolve(o.prompts), o.limit, o.samples, o.temperature, config.seed]))
    .digest('hex')
    .slice(0, 16);
  const p = path.parse(config.db);
  const dir = path.join(p.dir, `${p.name}.ablation`, key);
  mkdirSync(dir, { recursive: true });
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
    return file;
  };
  const meta = (c: RoundPrompt) => (c.meta_json ? (JSON.parse(c.meta_json) as Record<string, unknown>) : {});
  const row = (c: RoundPrompt, id: string, question: string, history: Turn[]) => ({ id, image: c.image_path, question, ...(history.length ? { history } : {}), meta: meta(c) });

  // No history: the final question alone.
  const noneEv = await evaluate(write('no-history.jsonl', convs.map((c) => row(c, `${c.id}~none`, c.question, []))), o.samples);

  // Own history: per conversation and sample, the policy answers the earlier questions in order, each with its own
  // answers so far, then the final question. One answer per chain and turn (its own prompt id, so its own seed).
  // A chain's prompts hold this policy's own answers, so their ids carry the policy's key: another policy (a loop's
  // next checkpoint) in the same store makes other prompts, which a shared id would make the store refuse.
  const userTurns = (c: RoundPrompt) => promptHistory(c).filter((t) => t.role === 'user').map((t) => t.content);
  const chains = convs.flatMap((c) =>
    Array.from({ length: o.samples }, (_, i) => ({ c, id: `${c.id}~own${i}-${key.slice(0, 8)}`, own: [] as Turn[], earlier: [] as string[], broken: false })),
  );
  const depth = Math.max(...convs.map((c) => userTurns(c).length));
  // Turn by turn: turn t of a chain is its t-th earlier question while t < its number of earlier turns.
  for (let t = 0; t < depth; t++) {
    const at = chains.filter((ch) => !ch.broken && t < userTurns(ch.c).length);
    const file = write(`own-turn-${t + 1}.jsonl`, at.map((ch) => row(ch.c, `${ch.id}~t${t + 1}`, userTurns(ch.c)[t]!, ch.own)));
    const ev = await evaluate(file, 1);
    const dbt = openDb(config.db);
    try {
      const answers = claimsByPrompt(dbt, ev.sampled_round);
      for (const ch of at) {
        const a = answers.get(`${ch.id}~t${t + 1}`);
        // No answer (its sample failed and is recorded as a failure): the chain cannot go on, and is left out of the
        // final turn and the counts instead of going on with an empty turn.
        if (!a) {
          ch.broken = true;
          continue;
        }
        ch.own.push({ role: 'user', content: userTurns(ch.c)[t]! }, { role: 'assistant', content: a.text });
        ch.earlier.push(...a.claims);
      }
    } finally {
      dbt.close();
    }
  }
  const whole = chains.filter((ch) => !ch.broken);
  if (whole.length === 0) throw new Error(`multi-turn ablation: every own-history chain lost a turn (see the store's failures)`);
  const ownEv = await evaluate(write('own-final.jsonl', whole.map((ch) => row(ch.c, `${ch.id}~final`, ch.c.question, ch.own))), 1);

  // Errors carried and corrected, by the truth (each chain's earlier false claims against its final answer).
  const counts = { finalFalse: 0, repeated: 0, earlierFalse: 0, corrected: 0, revisited: 0 };
  let withTruth = true;
  let noFinal = 0;
  const dbf = openDb(config.db);
  try {
    const finals = claimsByPrompt(dbf, ownEv.sampled_round);
    noFinal = whole.filter((ch) => !finals.has(`${ch.id}~final`)).length;
    for (const ch of whole) {
      const m = meta(ch.c);
      let truth: Truth;
      try {
        truth = parseTruth(m.truth);
      } catch {
        withTruth = false;
        break;
      }
      const final = finals.get(`${ch.id}~final`);
      if (!final) continue;
      const fin = final.claims;
      const earlierFalse = ch.earlier.filter((x) => checkStatement(truth, x) === 'false');
      const falseTexts = new Set(earlierFalse.map(normClaim));
      const finalVerdicts = fin.map((x) => ({ x, v: checkStatement(truth, x), subj: subjectsOf(x) }));
      for (const f of finalVerdicts) {
        if (f.v !== 'false') continue;
        counts.finalFalse++;
        if (falseTexts.has(normClaim(f.x))) counts.repeated++;
      }
      for (const e of earlierFalse) {
        counts.earlierFalse++;
        const subj = subjectsOf(e);
        const about = finalVerdicts.filter((f) => f.subj.some((k) => subj.includes(k)));
        if (about.length) counts.revisited++;
        if (about.some((f) => f.v === 'true')) counts.corrected++;
      }
    }
  } finally {
    dbf.close();
  }
  const share = (a: number, b: number) => (withTruth && b > 0 ? a / b : null);
  return {
    prompts_file: o.prompts,
    conversations: convs.length,
    samples: o.samples,
    incomplete_chains: chains.length - whole.length + noFinal,
    no_history: conditionFigures(noneEv),
    true_history: conditionFigures(truthEv),
    own_history: conditionFigures(ownEv),
    repeated_error_share: share(counts.repeated, counts.finalFalse),
    corrected_share: share(counts.corrected, counts.earlierFalse),
    final_false_claims: withTruth ? counts.finalFalse : 0,
    repeated_false_claims: withTruth ? counts.repeated : 0,
    earlier_false_claims: withTruth ? counts.earlierFalse : 0,
    corrected_false_claims: withTruth ? counts.corrected : 0,
    revisited_false_claims: withTruth ? counts.revisited : 0,
  };
}

const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);

/** The ablation as text: one row per condition, then the carried and corrected errors. */
export function renderAblation(a: AblationFigures): string {
  const rows = [['final turn asked with', 'false claims', 'rejected (labeler)', 'answers', 'round']];
  const names: Record<AblationCondition, string> = { no_history: 'no history', true_history: 'the true earlier turns', own_history: 'its own earlier answers' };
  for (const c of ABLATION_CONDITIONS) rows.push([names[c], pct(a[c].false_claim_rate), pct(a[c].rejected_claim_rate), String(a[c].answers), String(a[c].round)]);
  return (
    `multi-turn ablation on ${a.prompts_file} (${a.conversations} conversations × ${a.samples} samples)\n${table(rows)}\n` +
    `  own history: ${pct(a.repeated_error_share)} of the final turn's false claims repeat one of its own earlier turns (${a.repeated_false_claims} of ${a.final_false_claims}); ` +
    `${pct(a.corrected_share)} of the earlier turns' false claims are corrected in the final turn (${a.corrected_false_claims} of ${a.earlier_false_claims}; ${a.revisited_false_claims} revisited)\n` +
    (a.incomplete_chains > 0 ? `  ${a.incomplete_chains} own-history chains left out: a turn got no answer (see the store's failures)\n` : '')
  );
}
