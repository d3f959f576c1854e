// Knowledge tools in the store: the per-(tool, image) knowledge cache, verdict sets, and tool-routed labels.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { ALL_PROMPTS, type LabelRow, type OrdinalRange } from './work.js';

/** Cached knowledge records of these images for one tool id (image id -> JSON). */
export function getKnowledge(db: Db, tool: string, imageIds: readonly string[]): Map<string, string> {
  const get = stmt(db, 'SELECT knowledge_json FROM tool_knowledge WHERE tool = ? AND image_id = ?');
  const out = new Map<string, string>();
  for (const id of imageIds) {
    const r = get.get(tool, id) as { knowledge_json: string } | undefined;
    if (r) out.set(id, r.knowledge_json);
  }
  return out;
}

/** Stores knowledge records (idempotent: the first record of a (tool, image) stays). */
export function putKnowledge(db: Db, rows: readonly { tool: string; image_id: string; knowledge_json: string }[]): void {
  const ins = stmt(
    db,
    `INSERT INTO tool_knowledge (tool, image_id, knowledge_json, created_at) VALUES (@tool, @image_id, @knowledge_json, @created_at)
     ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => rows.forEach((r) => ins.run({ ...r, created_at: t }))).immediate();
}

/** A verdict set: the labeler, the tools and the routing table a round's verdicts come from. */
export interface VerdictSetRow {
  id: string;
  labeler: string;
  tools_json: string;
  routing_json: string;
}

/** Records a verdict set (idempotent). */
export function putVerdictSet(db: Db, v: VerdictSetRow): void {
  stmt(
    db,
    `INSERT INTO verdict_sets (id, labeler, tools_json, routing_json, created_at) VALUES (@id, @labeler, @tools_json, @routing_json, @created_at)
     ON CONFLICT DO NOTHING`,
  ).run({ ...v, created_at: now() });
}

/** The verdict set behind a round's labeler id, or undefined when the round's labels are the labeler's own. */
export function getVerdictSet(db: Db, id: string): VerdictSetRow | undefined {
  return stmt(db, 'SELECT id, labeler, tools_json, routing_json FROM verdict_sets WHERE id = ?').get(id) as VerdictSetRow | undefined;
}

/** A question of a round waiting for its verdict-set label, with the labeler's own reading when it has one. */
export interface PendingToolQuestion {
  id: string;
  image_id: string;
  image_path: string;
  text: string;
  /** 1 when the labeler has a row for it (its p's may still be null: unscored). */
  labeled: number;
  p_yes: number | null;
  p_no: number | null;
  top_json: string | null;
  bound_used: number | null;
}

/**
 * Distinct questions of a round's claims (prompts in `range`) without a label under the verdict set, nor a label
 * failure, grouped by image; each with the labeler's own row, if any.
 */
export function pendingToolQuestions(db: Db, roundId: number, verdictSet: string, labeler: string, range: OrdinalRange = ALL_PROMPTS): PendingToolQuestion[] {
  return stmt(
    db,
    `SELECT DISTINCT q.id, q.image_id, i.path AS image_path, q.text, own.question_id IS NOT NULL AS labeled,
       own.p_yes, own.p_no, own.top_json, own.bound_used
     FROM round_prompts rp JOIN candidates c ON c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id
     JOIN claims cl ON cl.candidate_id = c.id JOIN questions q ON q.id = cl.question_id
     JOIN images i ON i.id = q.image_id
     LEFT JOIN labels l ON l.question_id = q.id AND l.labeler = ?
     LEFT JOIN labels own ON own.question_id = q.id AND own.labeler = ?
     LEFT JOIN failures f ON f.round_id = c.round_id AND f.stage = 'label' AND f.item = q.id AND f.retried_at IS NULL
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? AND l.question_id IS NULL AND f.id IS NULL
     ORDER BY q.image_id, q.id`,
  ).all(verdictSet, labeler, roundId, range.from, range.to) as PendingToolQuestion[];
}

/** A label with the source that decided it (a verdict set's row). */
export interface SourcedLabelRow extends LabelRow {
  source: string;
}

/** Stores verdict-set labels (idempotent). */
export function putSourcedLabels(db: Db, rows: readonly SourcedLabelRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO labels (question_id, labeler, p_yes, p_no, top_json, bound_used, source, created_at)
     VALUES (@question_id, @labeler, @p_yes, @p_no, @top_json, @bound_used, @source, @created_at)
     ON CONFLICT DO NOTHING`,
  );
  const t = now();
  db.transaction(() => rows.forEach((r) => ins.run({ ...r, created_at: t }))).immediate();
}
