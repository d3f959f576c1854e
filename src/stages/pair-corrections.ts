// The pair stage's correction editors: corrected answers written as candidates of the round (the rules editors and
// the `llm` rewriter; `refine`'s dialogues are stages/refine.ts), before they are divided, labeled and scored.
import { correctionSources, judgePrompts, putCandidates, putFailures, rewriteDone, type CandidateRow, type CorrectionSource } from '../store/index.js';
import { correctAnswer, correctionSampleIndex, type Edit, type EditClaim } from '../feedback/corrections.js';
import { isRejected } from '../feedback/verdict.js';
import { wordCount } from '../feedback/words.js';
import { sentenceEdits, type Rewriter } from '../methods/rewriter.js';
import type { CorrectionEditor } from '../feedback/corrections.js';
import { contentId } from './ids.js';
import { type StageContext } from './context.js';
import { mapLimit } from '../progress.js';

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
export async function writeRewrites(ctx: StageContext, rewriter: Rewriter | null, promptIds: readonly string[]): Promise<number> {
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
