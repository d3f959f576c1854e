// Claim-text helpers shared by the figures and the runners: what a claim is about, and its text as compared for
// sameness. They sit apart from the runners so a figure never imports a runner.
import { parseStatement, type Statement } from '../shapes/index.js';

/** What a claim is about: how many objects fit a description, or one attribute of a description's referent. */
function subjects(s: Statement): string[] {
  const d = (x: Record<string, unknown>) => JSON.stringify(Object.keys(x).sort().map((k) => [k, x[k]]));
  switch (s.kind) {
    case 'exists':
    case 'absent':
    case 'count':
      return [`n|${d({ ...s.desc })}`];
    case 'attribute':
      return [`a|${d({ ...s.desc })}|${s.predicate.attr}`];
    case 'conjunction':
      return s.items.flatMap(subjects);
  }
}

/**
 * The subjects of a claim's text (how many objects fit a description, or one attribute of a description's referent);
 * none for text outside the shapes language.
 * @example subjectsOf('The circle is blue.') // one key, shared with 'The circle is red.'
 */
export function subjectsOf(text: string): string[] {
  try {
    const s = parseStatement(text);
    return s ? subjects(s) : [];
  } catch {
    return [];
  }
}

/** A claim's text as compared for sameness: trimmed, lower-case, single spaces, no final stop. */
export const normClaim = (t: string) => t.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
