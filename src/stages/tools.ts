// Stage 3b (label.tools): each question the routing gives a tool is decided by the tool's knowledge of the image; the
// rest keep the labeler's verdict. Written as labels under the round's verdict set, each with its source.
import {
  getKnowledge,
  pendingToolQuestions,
  putFailures,
  putKnowledge,
  putSourcedLabels,
  putVerdictSet,
  type FailureInput,
  type PendingToolQuestion,
  type SourcedLabelRow,
} from '../store/index.js';
import type { Knowledge } from '../shapes/knowledge.js';
import { decide, LABELER, routedTools } from '../tools/route.js';
import type { ToolVerdicts } from '../tools/types.js';
import { type StageContext, type StageResult } from './context.js';
import { mapLimit, timed } from '../progress.js';


/**
 * Decides the round's pending questions: a tool's knowledge of each image is read from the cache or made once (and
 * cached), and each question gets the routed tool's verdict (p_yes/p_no 1/0) or, where the labeler decides or the
 * tool cannot tell, a copy of the labeler's own row. A question the labeler has not answered yet waits.
 */
export async function runToolVerdicts(ctx: StageContext, tv: ToolVerdicts, concurrency: number): Promise<StageResult> {
  const t0 = performance.now();
  putVerdictSet(ctx.db, {
    id: tv.verdictSet,
    labeler: tv.labeler,
    tools_json: JSON.stringify(tv.tools.map((t) => ({ name: t.name, id: t.id }))),
    routing_json: JSON.stringify(tv.routing),
  });
  const byName = new Map(tv.tools.map((t) => [t.name, t]));
  const used = routedTools(tv.routing).map((n) => byName.get(n)!);
  const pending = pendingToolQuestions(ctx.db, ctx.round.id, tv.verdictSet, tv.labeler, ctx.scope);
  const byImage = new Map<string, PendingToolQuestion[]>();
  for (const q of pending) {
    let g = byImage.get(q.image_id);
    if (!g) byImage.set(q.image_id, (g = []));
    g.push(q);
  }
  const acc = { modelSeconds: 0 };
  const knowledge = new Map<string, Map<string, Knowledge | Error>>(); // tool name -> image id -> record
  for (const tool of used) {
    const cached = getKnowledge(ctx.db, tool.id, [...byImage.keys()]);
    const have = new Map<string, Knowledge | Error>([...cached].map(([id, json]) => [id, JSON.parse(json) as Knowledge]));
    const missing = [...byImage.keys()].filter((id) => !have.has(id));
    const made: { tool: string; image_id: string; knowledge_json: string }[] = [];
    await mapLimit(missing, concurrency, async (imageId) => {
      try {
        const k = await timed(acc, () => tool.know(byImage.get(imageId)![0]!.image_path));
        have.set(imageId, k);
        made.push({ tool: tool.id, image_id: imageId, knowledge_json: JSON.stringify(k) });
      } catch (e) {
        have.set(imageId, e as Error);
      }
    });
    putKnowledge(ctx.db, made);
    knowledge.set(tool.name, have);
  }
  const rows: SourcedLabelRow[] = [];
  const fails: FailureInput[] = [];
  for (const [imageId, qs] of byImage) {
    for (const q of qs) {
      let failed: Error | null = null;
      const d = decide(q.text, tv.routing, (name) => {
        const k = knowledge.get(name)?.get(imageId);
        if (k instanceof Error) failed = k;
        return k === undefined || k instanceof Error ? null : k;
      });
      if (d.verdict !== null) {
        rows.push({ question_id: q.id, labeler: tv.verdictSet, p_yes: d.verdict ? 1 : 0, p_no: d.verdict ? 0 : 1, top_json: null, bound_used: 0, source: d.tool! });
      } else if (failed !== null && d.tool !== null) {
        // The tool could not read the image: a per-item failure (retried by --retry-failed), not a silent fallback.
        fails.push({ round_id: ctx.round.id, stage: 'label', item: q.id, reason: `tool ${d.tool}: ${(failed as Error).message}` });
      } else if (q.labeled) {
        rows.push({ question_id: q.id, labeler: tv.verdictSet, p_yes: q.p_yes, p_no: q.p_no, top_json: q.top_json, bound_used: q.bound_used ?? 0, source: LABELER });
      }
    }
  }
  putSourcedLabels(ctx.db, rows);
  if (fails.length) putFailures(ctx.db, fails);
  return { stage: 'label', items: rows.length, failures: fails.length, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
