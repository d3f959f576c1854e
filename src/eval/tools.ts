// Tool verdicts in evaluation: a stored round recomputed with tools (`rlaifv eval --tools`), and the routing table
// calibrated on a dev round (`rlaifv calibrate-tools`). Nothing stored is changed.
import { QUESTION_FORMS, type Knowledge, type QuestionForm } from '../shapes/index.js';
import { getKnowledge, roundPrompts, type Db } from '../store/index.js';
import { decide, LABELER, type Routing } from '../tools/route.js';
import type { Tool } from '../tools/types.js';
import { type YesNo } from './pairs.js';
import { labelFigures, pairRow, roundSetting, type LabelFigures } from './report.js';
import { judgeRound } from './truth.js';
import type { EvalRound } from './types.js';
import type { PairQuality } from './metrics.js';

/** Tool name -> image id -> what the tool knows of it. */
export type KnowledgeByTool = Map<string, Map<string, Knowledge>>;

/**
 * What each tool knows of each of the round's images: from the store's cache when it has the record (`db` may be
 * read-only), else made now (and not stored).
 */
export async function roundKnowledge(db: Db | null, round: EvalRound, tools: readonly Tool[]): Promise<KnowledgeByTool> {
  const images = new Map<string, string>();
  for (const p of round.prompts) {
    if (!p.imageId || !p.imagePath) throw new Error(`eval: prompt ${p.id} has no image path; tools need the image.`);
    images.set(p.imageId, p.imagePath);
  }
  const out: KnowledgeByTool = new Map();
  for (const tool of tools) {
    const cached = db ? getKnowledge(db, tool.id, [...images.keys()]) : new Map<string, string>();
    const known = new Map<string, Knowledge>();
    for (const [id, imagePath] of images) {
      const json = cached.get(id);
      known.set(id, json ? (JSON.parse(json) as Knowledge) : await tool.know(imagePath));
    }
    out.set(tool.name, known);
  }
  return out;
}

/**
 * Each claim's verdict as a round with these tools and this routing would store it: the routed tool's verdict where
 * it can tell (p 1/0), else the labeler's own p(yes)/p(no). Keyed by question id, with the deciding source.
 */
export function toolLabels(round: EvalRound, knowledge: KnowledgeByTool, routing: Routing): Map<string, YesNo & { source: string }> {
  const out = new Map<string, YesNo & { source: string }>();
  for (const p of round.prompts) {
    for (const a of p.answers) {
      for (const c of a.claims) {
        if (out.has(c.questionId)) continue;
        const d = decide(c.question, routing, (name) => knowledge.get(name)?.get(p.imageId!) ?? null);
        const own = c.own ?? { pYes: c.pYes, pNo: c.pNo };
        out.set(
          c.questionId,
          d.verdict === null ? { ...own, source: LABELER } : { pYes: d.verdict ? 1 : 0, pNo: d.verdict ? 0 : 1, source: d.tool! },
        );
      }
    }
  }
  return out;
}

/** `rlaifv eval --tools`: the round's label and pair figures with tool verdicts, beside the labeler's own. */
export interface ToolsFigures {
  routing: Routing;
  tools: { name: string; id: string }[];
  label: LabelFigures;
  pairs_rejc: number;
  pairs_rejp: number;
  pair_accuracy_rejc: number | null;
  pair_accuracy_rejp: number | null;
  inverted_rejc: number | null;
  inverted_rejp: number | null;
  /** Final pairs (after length balance when the round balances), REJ-C and REJ-P. */
  final: { rejc: PairQuality; rejp: PairQuality };
}

/** The round's figures with tool verdicts (routing as given), recomputed with the pipeline's own pair functions. */
export function toolsFigures(round: EvalRound, tools: readonly Tool[], knowledge: KnowledgeByTool, routing: Routing): ToolsFigures {
  const truths = judgeRound(round);
  const verdicts = { kind: 'labels' as const, name: 'tools', labels: toolLabels(round, knowledge, routing) };
  const label = labelFigures(round, truths, verdicts);
  const rejc = pairRow(round, truths, 'tools REJ-C', roundSetting(round, 'rejc', verdicts));
  const rejp = pairRow(round, truths, 'tools REJ-P', roundSetting(round, 'rejp', verdicts));
  const final = (r: typeof rejc) => r.after ?? r.before;
  return {
    routing,
    tools: tools.map((t) => ({ name: t.name, id: t.id })),
    label,
    pairs_rejc: final(rejc).pairs,
    pairs_rejp: final(rejp).pairs,
    pair_accuracy_rejc: final(rejc).pair_accuracy,
    pair_accuracy_rejp: final(rejp).pair_accuracy,
    inverted_rejc: final(rejc).inverted_share,
    inverted_rejp: final(rejp).inverted_share,
    final: { rejc: final(rejc), rejp: final(rejp) },
  };
}

/** One claim form's calibration: each candidate source's accuracy on the form's claims, and the choice. */
export interface FormCalibration {
  claims: number;
  /** The labeler alone on every claim of the form. */
  labeler: number | null;
  /** Per tool: claims it decides, and the form's accuracy when it decides those (the labeler the rest). */
  tools: Record<string, { decided: number; accuracy: number | null }>;
  source: string;
}

/** What `rlaifv calibrate-tools` writes: the routing table and the figures it was chosen by. */
export interface Calibration {
  routing: Routing;
  forms: Partial<Record<QuestionForm, FormCalibration>>;
  calibrated_on: { round: number; prompts: number; split: string | null };
}

/**
 * Calibrates the routing on a round (never the test split: the caller refuses it): for each claim form, the tool
 * whose verdicts (the labeler where the tool cannot tell) are at least as accurate as the labeler alone and decide at
 * least one claim, the most accurate if several (then the one deciding the most claims); else the labeler. With
 * `ties: 'labeler'` a tool must be strictly more accurate than the labeler alone.
 */
export function calibrateRouting(
  round: EvalRound,
  tools: readonly Tool[],
  knowledge: KnowledgeByTool,
  split: string | null,
  ties: 'tool' | 'labeler' = 'tool',
): Calibration {
  const truths = judgeRound(round);
  const alone = labelFigures(round, truths).by_form;
  const per = tools.map((t) => {
    const routing = Object.fromEntries(QUESTION_FORMS.map((f) => [f, t.name])) as Routing;
    return { tool: t.name, byForm: labelFigures(round, truths, { kind: 'labels', name: t.name, labels: toolLabels(round, knowledge, routing) }).by_form };
  });
  const forms: Calibration['forms'] = {};
  const routing: Routing = {};
  for (const form of QUESTION_FORMS) {
    const a = alone[form];
    if (!a) continue;
    const f: FormCalibration = { claims: a.n, labeler: a.accuracy, tools: {}, source: LABELER };
    // Ranked by accuracy, then by claims decided (a tool that decides more leans less on the labeler).
    let best: [number, number] = [a.accuracy ?? -1, 0];
    for (const { tool, byForm } of per) {
      const q = byForm[form];
      const decided = q?.by_source[tool]?.n ?? 0;
      const acc = q?.accuracy ?? null;
      f.tools[tool] = { decided, accuracy: acc };
      if (decided === 0 || acc === null || acc < best[0] || (ties === 'labeler' && f.source === LABELER && acc === best[0])) continue;
      if (f.source === LABELER || acc > best[0] || decided > best[1]) {
        best = [acc, decided];
        f.source = tool;
      }
    }
    forms[form] = f;
    routing[form] = f.source;
  }
  return { routing, forms, calibrated_on: { round: round.id, prompts: round.prompts.length, split } };
}

/**
 * The split names a round's prompts come from: each prompt's meta.split, and the folder its prompts file is in
 * (data/shapes/test/prompts.jsonl -> "test"). Sorted, distinct.
 */
export function roundSplits(db: Db, roundId: number): string[] {
  const out = new Set<string>();
  for (const p of roundPrompts(db, roundId)) {
    const meta = p.meta_json === null ? null : (JSON.parse(p.meta_json) as { split?: unknown } | null);
    if (meta && typeof meta.split === 'string') out.add(meta.split);
    const dir = /([^/\\]+)[/\\][^/\\]+:\d+$/.exec(p.source);
    if (dir) out.add(dir[1]!);
  }
  return [...out].sort();
}
