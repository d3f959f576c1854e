// Truth values of statements, sentences and whole answers against an image's truth.
import { parseStatement, YES_NO_SUFFIX } from './parse.js';
import { renderStatement, type Description, type Statement } from './statement.js';
import type { ShapeObject, Truth } from './truth.js';

/** A sentence's truth value; "unknown" for text outside the language or an ambiguous reference. */
export type Verdict = 'true' | 'false' | 'unknown';

/** One checked sentence (or list item, re-worded as a standalone claim) of an answer. */
export interface SentenceVerdict {
  sentence: string;
  verdict: Verdict;
}

/** True iff the object has every attribute the description gives. */
export function matchesDescription(o: ShapeObject, d: Description): boolean {
  return (
    (d.shape === undefined || o.shape === d.shape) &&
    (d.color === undefined || o.color === d.color) &&
    (d.size === undefined || o.size === d.size) &&
    (d.position === undefined || o.position === d.position)
  );
}

/** The number of objects matching a description. */
export function countMatching(truth: Truth, d: Description): number {
  return truth.objects.filter((o) => matchesDescription(o, d)).length;
}

function verdict(b: boolean): Verdict {
  return b ? 'true' : 'false';
}

/** The truth value of a structured statement (a question's is that of its claim: "true" = yes). */
export function evaluate(truth: Truth, s: Statement): Verdict {
  switch (s.kind) {
    case 'exists':
      return verdict(countMatching(truth, s.desc) > 0);
    case 'absent':
      return verdict(countMatching(truth, s.desc) === 0);
    case 'count':
      return verdict(countMatching(truth, s.desc) === s.n);
    case 'attribute': {
      const referents = truth.objects.filter((o) => matchesDescription(o, s.desc));
      if (referents.length === 0) return 'false'; // presupposition failure, negated or not
      const { attr, value } = s.predicate;
      const holding = referents.filter((o) => o[attr] === value).length;
      if (holding === referents.length) return verdict(!s.negated);
      if (holding === 0) return verdict(s.negated);
      return 'unknown';
    }
    case 'conjunction': {
      const vs = s.items.map((item) => evaluate(truth, item));
      if (vs.includes('false')) return 'false';
      return vs.every((v) => v === 'true') ? 'true' : 'unknown';
    }
  }
}

/** The truth value of one claim or yes/no question given as text; "unknown" if outside the language. */
export function checkStatement(truth: Truth, text: string): Verdict {
  try {
    const s = parseStatement(text);
    return s === null ? 'unknown' : evaluate(truth, s);
  } catch {
    return 'unknown';
  }
}

/** Splits text into trimmed sentences at . ! ? and line breaks, dropping list markers and letterless bits. */
export function splitSentences(text: string): string[] {
  if (typeof text !== 'string') return [];
  const out: string[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/^\s*(?:[-*\u2022]\s+)/, '');
    for (const m of line.matchAll(/[^.!?]+(?:[.!?]+|$)/g)) {
      const s = m[0].replace(/\s+/g, ' ').trim();
      if (/[a-z]/i.test(s)) out.push(s);
    }
  }
  return out;
}

/** Checks an answer sentence by sentence; a listing sentence yields one standalone claim per item. */
export function checkAnswer(truth: Truth, answer: string): SentenceVerdict[] {
  const out: SentenceVerdict[] = [];
  for (const sentence of splitSentences(answer)) {
    if (YES_NO_SUFFIX.test(sentence) && sentence.replace(YES_NO_SUFFIX, '').trim() === '') continue;
    let s: Statement | null = null;
    try {
      s = parseStatement(sentence);
    } catch {
      s = null;
    }
    if (s === null) out.push({ sentence, verdict: 'unknown' });
    else if (s.kind === 'conjunction') {
      for (const item of s.items) out.push({ sentence: renderStatement(item), verdict: evaluate(truth, item) });
    } else out.push({ sentence, verdict: evaluate(truth, s) });
  }
  return out;
}
