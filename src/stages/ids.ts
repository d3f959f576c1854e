// Content ids: the same work always gets the same id, so a re-run inserts nothing twice.
import { createHash } from 'node:crypto';

/** A 16-byte hex id from the parts. */
export function contentId(...parts: (string | number)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** The cache key form of a yes/no question: case, spacing and the final "?" do not change what is asked. */
export function normaliseQuestion(q: string): string {
  return q.trim().replace(/\s+/g, ' ').replace(/[?.!\s]+$/, '').toLowerCase();
}
