/**
 * "a construction site where wooden beams and other building materials are being used", "a scene where a man and a
 * woman are on a boat": an "and" inside the subject of a "where" clause, before that clause's verb, joins the
 * subject; it starts no clause and no list item of the main clause ("... where wooden beams.", "A woman are on a
 * boat." before).
 */
import type { Token } from './text.js';

type VerbAt = (tokens: readonly Token[], i: number) => unknown;

/** Is `tokens[k]` ("and") inside a "where" clause's subject: "where" within six words before it, no verb between? */
export function insideWhereSubject(tokens: readonly Token[], from: number, k: number, verbAt: VerbAt): boolean {
  if (k < 0) return false;
  for (let r = k - 1; r > from && r >= k - 6; r--) {
    if (tokens[r]!.word !== 'where') continue;
    const inner = tokens.slice(r + 1, k);
    // "where he met his wife and they had ...": the clause has its verb already.
    return !inner.some((t, i) => /,$/.test(t.raw) || (i > 0 && verbAt(inner, i) !== null));
  }
  return false;
}
