// A served VLM's free-text list of objects read into a knowledge record with the shapes world's parser.
import { parseStatement, splitSentences, type Description, type Knowledge, type KnownObject, type Statement } from '../shapes/index.js';

const FIELDS = ['shape', 'color', 'size', 'position'] as const;

function fromDesc(d: Description): KnownObject {
  return { shape: d.shape ?? null, color: d.color ?? null, size: d.size ?? null, position: d.position ?? null };
}

/** True iff two partial objects can be the same object (no field known differently). */
function compatible(a: KnownObject, b: KnownObject): boolean {
  return FIELDS.every((f) => a[f] === null || b[f] === null || a[f] === b[f]);
}

function merge(into: KnownObject, from: KnownObject): void {
  for (const f of FIELDS) if (into[f] === null && from[f] !== null) (into as unknown as Record<string, unknown>)[f] = from[f];
}

/**
 * Reads a reply such as "There are two shapes in the image. There is a large red circle in the top left. The star
 * is blue." into a knowledge record: each object a sentence describes (one a field it names can tell apart from the
 * ones before; "There are two red circles" is two), "The X is Y" filling in a field of the object it refers to, and a
 * whole-image count ("There are N shapes") adding objects nothing described. Null when no sentence is in the shapes
 * language (a reply the tool cannot read).
 * @example knowledgeFromText('There is a red circle in the center.') // { objects: [{ shape: 'circle', color: 'red', size: null, position: 'center' }] }
 */
export function knowledgeFromText(reply: string): Knowledge | null {
  const objects: KnownObject[] = [];
  let total: number | null = null;
  let read = 0;
  const add = (o: KnownObject, n = 1) => {
    // A sentence about an object already described (same or compatible fields, one more detail) is that object.
    const same = n === 1 ? objects.find((x) => compatible(x, o) && FIELDS.some((f) => x[f] !== null && x[f] === o[f])) : undefined;
    if (same) merge(same, o);
    else for (let i = 0; i < n; i++) objects.push({ ...o });
  };
  const take = (s: Statement) => {
    if (s.kind === 'conjunction') return s.items.forEach(take);
    if (s.kind === 'absent') return;
    if (s.kind === 'exists') return add(fromDesc(s.desc));
    if (s.kind === 'count') {
      if (FIELDS.every((f) => s.desc[f] === undefined)) total = s.n;
      else add(fromDesc(s.desc), s.n);
      return;
    }
    if (s.negated) return;
    const o = fromDesc({ ...s.desc, [s.predicate.attr]: s.predicate.value });
    add(o);
  };
  for (const sentence of splitSentences(reply)) {
    let s: Statement | null = null;
    try {
      s = parseStatement(sentence);
    } catch {
      s = null;
    }
    if (s === null) continue;
    read++;
    take(s);
  }
  if (read === 0) return null;
  while (total !== null && objects.length < total) objects.push({ shape: null, color: null, size: null, position: null });
  return { objects };
}
