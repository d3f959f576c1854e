// Tool verdicts: which source decides a question (by its claim form) and what the tool's knowledge says.
import { createHash } from 'node:crypto';
import { checkKnown, questionForm, type Knowledge, type QuestionForm } from '../shapes/index.js';

/** Claim form -> the source that decides it: a tool's name, or "labeler" (a form not listed goes to the labeler). */
export type Routing = Partial<Record<QuestionForm, string>>;

/** The labeler's source name. */
export const LABELER = 'labeler';

/** A question's verdict from a tool: true/false, or null when the routing gives it to the labeler or the tool cannot tell. */
export interface ToolDecision {
  form: QuestionForm;
  /** The tool the routing gives this form to (null: the labeler). */
  tool: string | null;
  /** The tool's verdict on the claim ("true": yes), or null where it lacks a field or the form is the labeler's. */
  verdict: boolean | null;
}

/**
 * Routes a question by its claim form and, for a tool's form, judges it with the three-valued checker against that
 * tool's knowledge of the image (`knowledge(tool)`; null when the tool has none).
 * @example decide('Are there two circles?', { count: 'shapes-segmenter' }, () => k) // { form: 'count', tool: 'shapes-segmenter', verdict: true }
 */
export function decide(question: string, routing: Routing, knowledge: (tool: string) => Knowledge | null): ToolDecision {
  const form = questionForm(question);
  const src = routing[form] ?? LABELER;
  if (src === LABELER) return { form, tool: null, verdict: null };
  const k = knowledge(src);
  const v = k === null ? 'unknown' : checkKnown(k, question);
  return { form, tool: src, verdict: v === 'unknown' ? null : v === 'true' };
}

/** The tools a routing table sends some form to. */
export function routedTools(routing: Routing): string[] {
  return [...new Set(Object.values(routing).filter((s): s is string => s !== undefined && s !== LABELER))];
}

/**
 * The id a round with tools stores its verdicts under (rounds.labeler_model): the labeler's id, the tools' ids and
 * the routing table, hashed. The same labeler, tools and table give the same id, so their verdicts are reused.
 */
export function verdictSetId(labeler: string, tools: readonly { name: string; id: string }[], routing: Routing): string {
  const key = JSON.stringify({ labeler, tools: tools.map((t) => [t.name, t.id]), routing: Object.entries(routing).sort() });
  return `${labeler}+tools:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}
