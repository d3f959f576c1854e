// A clause part and the draft it is built from (clauses.ts), each made by one function with every field in one
// order.
import type { Tok } from './nlp.js';

/** One clause part: a statement to divide further, and the span [start, end) of its source text in the answer. */
export interface Part {
  text: string;
  start: number;
  end: number;
  /** Set when the part is known to say nothing checkable (a hedge participle, an evaluative comment). */
  skip?: string;
  /** Where a relative or "because" clause hangs: its antecedent's offset, or the word before "because". */
  attach?: number;
  /** A fronted "After/Before V-ing X" the main clause's claims keep in front (fronted-when.ts). */
  front?: string;
  /** A trailing "after/before V-ing X" the main clause's claims keep at their end (fronted-when.ts). */
  back?: string;
}

export interface Draft {
  prefix: string;
  toks: Tok[];
  kind: 'main' | 'relative' | 'participle' | 'with' | 'subordinate' | 'attribute' | 'apposition';
  skip?: string;
  plural?: boolean;
  paren?: boolean;
  /** The dropped opener word ("which", "with"): the part's source text starts there. */
  lead?: Tok;
  attach?: number;
  /** The main clause's year for a time clause after it ("in 2004"); the named place of a "where" clause. */
  time?: string; place?: string;
  /** A "whom" clause: its preposition ('' for none) and antecedent, put back in its place (whom.ts). */
  whom?: { prep: string; antecedent: string };
  /** "appeared in X and releasing Y": after a career's start, a later "and -ing" is in the past too. */
  pastAnd?: boolean;
}

// Every draft with all its fields in one order, so all share one hidden class: fields added later and spread copies
// each made a map of their own, and clauseParts' optimised code deoptimised on new answers that brought one.
export function draft(prefix: string, toks: Tok[], kind: Draft['kind'], o: Partial<Draft> = {}): Draft {
  return {
    prefix, toks, kind, skip: o.skip, plural: o.plural, paren: o.paren, lead: o.lead, attach: o.attach, time: o.time, place: o.place,
    whom: o.whom, pastAnd: o.pastAnd,
  };
}
// A part likewise, with `skip`, `attach`, `front` and `back` always there (undefined when not set).
export const part = (text: string, start: number, end: number, skip?: string, attach?: number, front?: string, back?: string): Part => ({ text, start, end, skip, attach, front, back });

/** The part is the answer's own text over its span (a whole sentence's part also holds the final stop), not rebuilt. */
export function isPlainPart(part: Part, answer: string): boolean {
  const plain = answer.slice(part.start, part.end).trim();
  return part.text === plain || (part.text.startsWith(plain) && /^[.!?]+$/.test(part.text.slice(plain.length)));
}
