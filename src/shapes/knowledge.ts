// The three-valued checker: a statement judged against what a tool knows of an image, where any field may be missing.
import { evaluate } from './check.js';
import { parseStatement } from './parse.js';
import type { Statement } from './statement.js';
import type { ShapeObject, Truth } from './truth.js';
import { COLORS, POSITIONS, SHAPES, SIZES, type Color, type Position, type Shape, type Size } from './vocabulary.js';

/** One object as a tool sees it: null where the tool cannot tell (class-free masks leave the shape null). */
export interface KnownObject {
  shape: Shape | null;
  color: Color | null;
  size: Size | null;
  position: Position | null;
}

/** What a tool knows of an image: every object it found (so the count is known), each with what it could tell. */
export interface Knowledge {
  objects: KnownObject[];
}

/** A verdict of the three-valued checker: "unknown" where the knowledge lacks a field the statement needs. */
export type KnownVerdict = 'true' | 'false' | 'unknown';

type Attr = keyof ShapeObject;
const VOCABULARY: Record<Attr, readonly string[]> = { shape: SHAPES, color: COLORS, size: SIZES, position: POSITIONS };
// A statement with more unknowns than this many completions is left unknown rather than enumerated.
const MAX_COMPLETIONS = 4096;

/** The attribute values a statement mentions (the values the checker's matching can tell apart). */
function mentioned(s: Statement, out: Map<Attr, Set<string>>): void {
  const add = (a: Attr, v: string | undefined) => {
    if (v === undefined) return;
    let set = out.get(a);
    if (!set) out.set(a, (set = new Set()));
    set.add(v);
  };
  if (s.kind === 'conjunction') return s.items.forEach((i) => mentioned(i, out));
  for (const a of ['shape', 'color', 'size', 'position'] as const) add(a, s.desc[a]);
  if (s.kind === 'attribute') {
    add(s.predicate.attr, s.predicate.value);
    // A predicate on an attribute compares objects' values even where the statement names none.
    if (!out.has(s.predicate.attr)) out.set(s.predicate.attr, new Set());
  }
}

/**
 * Judges a statement against a tool's knowledge with the truth checker's own matching (`evaluate`): every way of
 * filling the missing fields the statement looks at is checked, and the verdict is the one they all agree on, else
 * "unknown". Complete knowledge (no nulls) gives exactly the truth checker's verdict.
 * @example evaluateKnown({ objects: [{ shape: null, color: 'red', size: 'small', position: 'center' }] }, parseStatement('There is one shape.')!) // 'true'
 */
export function evaluateKnown(k: Knowledge, s: Statement): KnownVerdict {
  const values = new Map<Attr, Set<string>>();
  mentioned(s, values);
  // Per attribute the statement looks at: the values it names plus one it does not (all others behave alike).
  const options = new Map<Attr, string[]>();
  for (const [a, named] of values) {
    const other = VOCABULARY[a].find((v) => !named.has(v));
    options.set(a, other === undefined ? [...named] : [...named, other]);
  }
  let completions: ShapeObject[][] = [[]];
  for (const o of k.objects) {
    let choices: ShapeObject[] = [{ shape: o.shape ?? 'circle', color: o.color ?? 'red', size: o.size ?? 'small', position: o.position ?? 'center' }];
    for (const a of ['shape', 'color', 'size', 'position'] as const) {
      const opts = options.get(a);
      if (o[a] !== null || !opts) continue; // an unknown field the statement never looks at cannot change its verdict
      choices = choices.flatMap((c) => opts.map((v) => ({ ...c, [a]: v }) as ShapeObject));
    }
    completions = completions.flatMap((objs) => choices.map((c) => [...objs, c]));
    if (completions.length > MAX_COMPLETIONS) return 'unknown';
  }
  let seen: KnownVerdict | null = null;
  for (const objects of completions) {
    const v = evaluate({ objects }, s);
    if (v === 'unknown' || (seen !== null && v !== seen)) return 'unknown';
    seen = v;
  }
  return seen ?? 'unknown';
}

/** A truth as knowledge (every field known): what a perfect tool would report. */
export function truthKnowledge(t: Truth): Knowledge {
  return { objects: t.objects.map((o) => ({ ...o })) };
}

/**
 * The three-valued checker on text: a claim or yes/no question judged against a tool's knowledge; "unknown" outside
 * the language, for an ambiguous reference, or where the knowledge lacks a field the statement needs.
 * @example checkKnown(knowledge, 'Are there two circles?') // 'unknown' when the tool leaves shapes unknown
 */
export function checkKnown(k: Knowledge, text: string): KnownVerdict {
  let s: Statement | null;
  try {
    s = parseStatement(text);
  } catch {
    return 'unknown';
  }
  return s === null ? 'unknown' : evaluateKnown(k, s);
}
