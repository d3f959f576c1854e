// The structured form of a sentence of the shapes language, and its canonical wording.
import { article, numberWord, type Color, type Position, type Shape, type Size } from './vocabulary.js';

/** A partial description of objects; an absent attribute matches anything ("shape" has no shape). */
export interface Description {
  shape?: Shape;
  color?: Color;
  size?: Size;
  position?: Position;
}

/** Whether the sentence was a declarative claim or a yes/no question. */
export type Mood = 'claim' | 'question';

/** What a definite sentence says about its referent(s). */
export type Predicate =
  | { attr: 'color'; value: Color }
  | { attr: 'size'; value: Size }
  | { attr: 'position'; value: Position }
  | { attr: 'shape'; value: Shape };

/** "There is a DESC": at least one object matches. */
export interface ExistsStatement {
  kind: 'exists';
  mood: Mood;
  desc: Description;
}

/** "There is no DESC" / "There are no DESCs" / "There are zero DESCs": no object matches. */
export interface AbsentStatement {
  kind: 'absent';
  mood: Mood;
  desc: Description;
}

/** "There is one DESC" / "There are N DESCs" (N ≥ 1): exactly n objects match. */
export interface CountStatement {
  kind: 'count';
  mood: Mood;
  desc: Description;
  n: number;
}

/** "The DESC is [not] PRED": every referent satisfies (or, negated, none satisfies) the predicate. */
export interface AttributeStatement {
  kind: 'attribute';
  mood: Mood;
  desc: Description;
  negated: boolean;
  predicate: Predicate;
}

/** A quantified item: the statements a listing sentence is made of. */
export type QuantifiedStatement = ExistsStatement | AbsentStatement | CountStatement;

/** "There is a red circle, a blue star and a green square": all items hold. */
export interface ConjunctionStatement {
  kind: 'conjunction';
  mood: Mood;
  items: QuantifiedStatement[];
}

/** A sentence of the shapes language, in structured form. */
export type Statement = QuantifiedStatement | AttributeStatement | ConjunctionStatement;

/** The noun phrase of a description, without article: "large red circle in the top left". */
export function describe(desc: Description, plural = false): string {
  const words: string[] = [];
  if (desc.size) words.push(desc.size);
  if (desc.color) words.push(desc.color);
  const noun = desc.shape ?? 'shape';
  words.push(plural ? `${noun}s` : noun);
  let s = words.join(' ');
  if (desc.position) s += ` in the ${desc.position}`;
  return s;
}

function quantified(s: QuantifiedStatement): { verb: 'is' | 'are'; phrase: string } {
  if (s.kind === 'exists') {
    const np = describe(s.desc);
    return { verb: 'is', phrase: `${article(np)} ${np}` };
  }
  if (s.kind === 'absent') return { verb: 'is', phrase: `no ${describe(s.desc)}` };
  if (s.n === 1) return { verb: 'is', phrase: `one ${describe(s.desc)}` };
  return { verb: 'are', phrase: `${numberWord(s.n)} ${describe(s.desc, true)}` };
}

function predicateText(p: Predicate): string {
  if (p.attr === 'position') return `in the ${p.value}`;
  if (p.attr === 'shape') return `${article(p.value)} ${p.value}`;
  return p.value;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The canonical wording of a statement, in the generator's style ("There is an orange star."). */
export function renderStatement(s: Statement): string {
  const q = s.mood === 'question';
  if (s.kind === 'conjunction') {
    const parts = s.items.map(quantified);
    const verb = parts[0]?.verb ?? 'is';
    const phrases = parts.map((p) => p.phrase);
    const last = phrases.pop() ?? '';
    const body = phrases.length > 0 ? `${phrases.join(', ')} and ${last}` : last;
    return q ? `${capitalize(verb)} there ${body}?` : `There ${verb} ${body}.`;
  }
  if (s.kind === 'attribute') {
    const not = s.negated ? ' not' : '';
    const the = `the ${describe(s.desc)}`;
    const pred = predicateText(s.predicate);
    return q ? `Is ${the}${not} ${pred}?` : `${capitalize(the)} is${not} ${pred}.`;
  }
  const { verb, phrase } = quantified(s);
  return q ? `${capitalize(verb)} there ${phrase}?` : `There ${verb} ${phrase}.`;
}
