// The `refine` correction editor's refinement dialogues (FIRE's student/teacher conversations, AVES-DPO's
// self-correction): each sampled answer with a rejected claim gets the teacher's comment built from the labeler's
// verdicts, the round's policy answers again in FIRE's student layout, the revision is divided, labeled and scored
// like any answer, and this repeats until no claim is rejected or pair.refine.max_turns revisions. Every turn is
// stored (db/014), so a stopped round resumes where it was.
import type { Generator, GenerateResult } from '../backends/types.js';
import { FatalBackendError } from '../backends/errors.js';
import { hashSeed } from '../feedback/rng.js';
import { wordCount } from '../feedback/words.js';
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { correctionSampleIndex } from '../feedback/corrections.js';
import { scoreOf, studentPrompt, teacherTurn, type ClaimVerdict } from '../feedback/teacher.js';
import { sentenceEdits } from '../methods/rewriter.js';
import type { Teacher } from '../methods/teacher.js';
import {
  dialogueStates,
  promptHistory,
  putCandidates,
  putDialogues,
  putDialogueTurns,
  putFailures,
  roundPrompts,
  type CandidateRow,
  type DialogueAnswer,
  type DialogueRow,
  type DialogueState,
  type DialogueTurnRow,
  type RoundPrompt,
} from '../store/index.js';
import { contentId } from './ids.js';
import { type StageContext } from './context.js';
import { mapLimit, timed, type ModelTime } from '../progress.js';

/** What the refine driver needs besides the stage context. */
export interface RefineDeps {
  generator: Generator;
  /** Concurrent generate requests. */
  concurrency: number;
  /** Divides, labels and scores the round's (scope's) candidates not yet scored: the revisions just written. */
  scoreRevisions: (ctx: StageContext) => Promise<void>;
  /** A served teacher (pair.refine.teacher) for the detailed feedback on prompts with a reference answer; null: none. */
  teacher?: Teacher | null;
}

/** What a refine run did. */
export interface RefineResult {
  dialogues: number;
  revisions: number;
  failures: number;
  modelSeconds: number;
}

/**
 * The labeler's verdict on each claim of an answer under the accept rule, or null when the answer cannot be judged:
 * not divided (yet, or its division failed), no claims, or a claim without a label.
 */
export function answerVerdicts(a: DialogueAnswer, rule: AcceptRule): ClaimVerdict[] | null {
  if (!a.divided || a.claims.length === 0) return null;
  if (a.claims.some((c) => c.p_yes === null || c.p_no === null)) return null;
  return a.claims.map((c) => (isRejected(c.p_yes!, c.p_no!, rule) ? 'false' : 'true'));
}

const rejectedCount = (v: readonly ClaimVerdict[]) => v.filter((x) => x === 'false').length;

/**
 * The revision the `refine` editor offers as the chosen side: the last one without a rejected claim, else the last
 * with at least `minFewer` fewer rejected claims than the sampled answer; null when none is (no pair).
 */
export function chosenRevision(s: DialogueState, rule: AcceptRule, minFewer: number): string | null {
  const source = answerVerdicts(s.source, rule);
  if (!source) return null;
  const judged = s.turns.map((t) => ({ t, v: answerVerdicts(t, rule) })).filter((x): x is { t: (typeof s.turns)[number]; v: ClaimVerdict[] } => x.v !== null);
  const clean = judged.filter((x) => rejectedCount(x.v) === 0).at(-1);
  if (clean) return clean.t.id;
  return judged.filter((x) => rejectedCount(x.v) <= rejectedCount(source) - minFewer).at(-1)?.t.id ?? null;
}

/** Where a dialogue is: ended (why), or waiting for its next revision (the teacher's turn that asks for it). */
export type DialogueStep =
  | { kind: 'none' }
  | { kind: 'end'; reason: DialogueRow['end_reason'] }
  | { kind: 'revise'; turn: number; feedback: string; score: number };

/**
 * The next step of a dialogue: a sampled answer that cannot be judged or has no rejected claim never starts one; a
 * revision without a rejected claim ends it ('clean'), one that cannot be judged ends it ('unjudged'), and so does
 * the max_turns-th revision ('max_turns'); otherwise the teacher comments on the last answer and the policy revises.
 */
export function nextStep(s: DialogueState, rule: AcceptRule, level: 'simple' | 'detailed', maxTurns: number): DialogueStep {
  const last = s.turns.at(-1) ?? s.source;
  const v = answerVerdicts(last, rule);
  if (s.turns.length === 0) {
    if (!v || rejectedCount(v) === 0) return { kind: 'none' };
  } else {
    if (!v) return { kind: 'end', reason: 'unjudged' };
    if (rejectedCount(v) === 0) return { kind: 'end', reason: 'clean' };
    if (s.turns.length >= maxTurns) return { kind: 'end', reason: 'max_turns' };
  }
  return { kind: 'revise', turn: s.turns.length + 1, feedback: teacherTurn(level, last.claims.map((c) => c.claim), v!), score: scoreOf(v!) };
}

/**
 * A generate error that says the conversation no longer fits the model's context: the local backend's "prompt is N
 * tokens, the model's context is M", vLLM's "The decoder prompt (length N) is longer than the maximum model length of
 * M" (and before it "This model's maximum context length is N tokens ..."), SGLang's "The input (N tokens) is longer
 * than the model's context length (M tokens)" and "Requested token count exceeds the model's maximum context length",
 * OpenAI's code context_length_exceeded.
 */
export function isContextError(message: string): boolean {
  return /the model's context is \d+|maximum context length|longer than the (?:model's context length|maximum model length)|context_length_exceeded/i.test(message);
}

/** The reference answer a prompt's meta holds under `field` (a non-empty string), or null. */
export function promptReference(metaJson: string | null, field: string): string | null {
  if (!metaJson) return null;
  try {
    const v = (JSON.parse(metaJson) as Record<string, unknown>)[field];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Runs the refinement dialogues of the given prompts to their end: the revisions already stored are kept, a dialogue
 * that ended is not touched again. A revision that cannot be generated for a reason other than the context is a
 * failure of the pair stage (item "refine:<answer id>:<turn>") and ends its dialogue ('failed').
 */
export async function runRefine(ctx: StageContext, promptIds: readonly string[], deps: RefineDeps): Promise<RefineResult> {
  const { max_turns: maxTurns, feedback: level, temperature } = ctx.config.pair.refine;
  const rule = ctx.round.accept_rule;
  const minFewer = ctx.round.pair_method === 'rejc' ? ctx.config.pair.diff : 1;
  const wanted = new Set(promptIds);
  const prompts = new Map(roundPrompts(ctx.db, ctx.round.id, ctx.scope).filter((p) => wanted.has(p.id)).map((p) => [p.id, p]));
  const { top_p, max_new_tokens } = ctx.config.generate;
  const decoding = { temperature, top_p, max_new_tokens };
  const decodingJson = JSON.stringify(decoding);
  const time: ModelTime = { modelSeconds: 0 };
  const result: RefineResult = { dialogues: 0, revisions: 0, failures: 0, modelSeconds: 0 };
  for (let pass = 0; pass <= maxTurns; pass++) {
    // Revisions written by the last pass (or by a run that stopped before scoring them) get their verdicts first.
    await deps.scoreRevisions(ctx);
    const ends: DialogueRow[] = [];
    const todo: { p: RoundPrompt; s: DialogueState; step: Extract<DialogueStep, { kind: 'revise' }> }[] = [];
    const end = (s: DialogueState, reason: DialogueRow['end_reason']) =>
      ends.push({
        source_id: s.source.id,
        round_id: ctx.round.id,
        level,
        turns: s.turns.length,
        end_reason: reason,
        chosen_id: chosenRevision(s, rule, minFewer),
      });
    for (const [promptId, states] of dialogueStates(ctx.db, ctx.round.id, ctx.round.labeler_model, promptIds)) {
      const p = prompts.get(promptId);
      if (!p) continue;
      for (const s of states) {
        if (s.ended) continue;
        const step = nextStep(s, rule, level, maxTurns);
        if (step.kind === 'end') end(s, step.reason);
        else if (step.kind === 'revise') todo.push({ p, s, step });
      }
    }
    result.dialogues += ends.length;
    putDialogues(ctx.db, ends.splice(0));
    if (todo.length === 0) break;
    await mapLimit(todo, deps.concurrency, async ({ p, s, step }) => {
      // A prompt with a reference answer gets the served teacher's comment (FIRE's A15) instead of the verdicts'.
      const reference = deps.teacher && level === 'detailed' ? promptReference(p.meta_json, ctx.config.pair.refine.reference_field) : null;
      let teacherId = 'verdicts';
      if (reference !== null) {
        const last = s.turns.at(-1) ?? s.source;
        const c = await deps.teacher!.comment(p.image_path, p.question, reference, last.text);
        if ('error' in c) {
          putFailures(ctx.db, [{ round_id: ctx.round.id, stage: 'pair', item: `refine-teacher:${s.source.id}:${step.turn}`, reason: c.error, ...(c.raw !== undefined ? { raw: c.raw } : {}) }]);
          result.failures++;
          end(s, 'failed');
          putDialogues(ctx.db, ends.splice(0));
          result.dialogues++;
          return;
        }
        step = { ...step, feedback: c.turn, score: c.score };
        teacherId = deps.teacher!.id;
      }
      const { history, question } = studentPrompt(p.question, [s.source.text, ...s.turns.map((t) => t.text)], [...s.turns.map((t) => t.feedback), step.feedback]);
      const sample = { index: correctionSampleIndex('refine', s.source.sample_index, step.turn), seed: hashSeed(ctx.round.seed, 'refine', s.source.id, step.turn) & 0x7fffffff };
      let r: GenerateResult;
      try {
        const out = await timed(time, () => deps.generator.generate({ imagePath: p.image_path, question, history: [...promptHistory(p), ...history], samples: [sample], decoding }));
        r = out[0] ?? { ...sample, error: 'generate: no result' };
      } catch (e) {
        if (e instanceof FatalBackendError) throw e;
        r = { ...sample, error: (e as Error).message };
      }
      if ('error' in r) {
        if (!isContextError(r.error)) {
          putFailures(ctx.db, [{ round_id: ctx.round.id, stage: 'pair', item: `refine:${s.source.id}:${step.turn}`, reason: r.error }]);
          result.failures++;
        }
        end(s, isContextError(r.error) ? 'context' : 'failed');
        putDialogues(ctx.db, ends.splice(0));
        result.dialogues++;
        return;
      }
      const rejectedBySentence = new Map<string, string[]>();
      const sv = answerVerdicts(s.source, rule) ?? [];
      s.source.claims.forEach((c, i) => {
        if (sv[i] === 'false') rejectedBySentence.set(c.sentence, [...(rejectedBySentence.get(c.sentence) ?? []), c.id]);
      });
      const row: CandidateRow = {
        id: contentId(ctx.round.id, p.id, 'correction', 'refine', s.source.id, step.turn),
        round_id: ctx.round.id,
        prompt_id: p.id,
        sample_index: sample.index,
        seed: sample.seed,
        model_id: deps.generator.id,
        decoding_json: decodingJson,
        text: r.text,
        finish_reason: r.finishReason,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        words: wordCount(r.text),
        corrects_id: s.source.id,
        editor: 'refine',
        edits_json: JSON.stringify(sentenceEdits(s.source.text, r.text, rejectedBySentence)),
      };
      const turn: DialogueTurnRow = {
        revision_id: row.id,
        source_id: s.source.id,
        round_id: ctx.round.id,
        turn: step.turn,
        level,
        score: step.score,
        feedback: step.feedback,
        teacher: teacherId,
      };
      ctx.db.transaction(() => {
        putCandidates(ctx.db, [row]);
        putDialogueTurns(ctx.db, [turn]);
      }).immediate();
      result.revisions++;
    });
  }
  result.modelSeconds = time.modelSeconds;
  return result;
}
