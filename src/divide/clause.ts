/** Clause analysis: find the subject, the finite verb and what follows, the frame every rule works in. */
import { DISCOURSE_MARKERS, PREPOSITIONS } from './lexicon.js';
import { expandContractions, normalizeText, stripTrailingPunct, tokenize, type Token } from './text.js';
import { findVerb, verbInfo, type VerbInfo } from './verbs.js';

/** A declarative clause split around its finite verb. */
export interface Clause {
  /** A fronted phrase ("In the top left,") that a question moves to the end. */
  intro: Token[];
  subject: Token[];
  verb: VerbInfo;
  rest: Token[];
  /** Locative inversion ("On the table is a cup"): the real subject is in `rest`. */
  locative: boolean;
  /** All tokens, intro included, and the verb's position among them. */
  tokens: Token[];
  verbIndex: number;
}

const MARKERS = [...DISCOURSE_MARKERS].sort((a, b) => b.length - a.length);
// Markers that cannot begin a subject may appear without a comma ("Also there is a dog").
const BARE_MARKERS = new Set(['additionally', 'also', 'moreover', 'furthermore', 'however', 'overall', 'finally', 'lastly', 'but',
  'there is no doubt that', "there's no doubt that"]);
const BASED_ON = /^(based\s+on\s+[^,]{1,60})(\s*,\s*)/i;
const MARKER_RE = new RegExp(`^(${MARKERS.map((m) => m.replace(/ /g, '\\s+')).join('|')})(\\s*,\\s*|\\s+)`, 'i');

/** Drop content-free openers ("Additionally,", "Yes,", "Overall,") so they neither block nor pollute a claim. */
export function stripDiscourseMarkers(text: string): string {
  let out = text.trim();
  for (let guard = 0; guard < 4; guard++) {
    // "Based on the image description, ...", "Based on these cues, ...": where the writer looked, not a fact.
    const m = MARKER_RE.exec(out) ?? BASED_ON.exec(out);
    if (!m || m[1] === undefined || m[2] === undefined) break;
    if (!m[2].includes(',') && !BARE_MARKERS.has(m[1].toLowerCase())) break;
    const rest = out.slice(m[0].length);
    if (rest.trim().split(/\s+/).length < 2) break;
    out = rest.charAt(0).toUpperCase() + rest.slice(1);
  }
  return out;
}

/** Prepare text for analysis: normalise, expand contractions, drop markers and end punctuation. */
export function prepare(text: string): string {
  return stripTrailingPunct(stripDiscourseMarkers(expandContractions(normalizeText(text))));
}

// Time phrases in front ("After college, Zelma worked ...") are intros too: real answers open with them.
const FRONTED_TIME = new Set(['after', 'before', 'when', 'while', 'since', 'until', 'once']);
// "Given its size, ...", "Compared to the cat, ...": participles used as prepositions open an intro too, with no verb.
const PREPOSITION_LIKE = new Set(['given', 'compared', 'based']);
const INTRO_WORDS = new Set([...PREPOSITIONS, ...PREPOSITION_LIKE, 'here', 'when', 'while', 'as', 'after', 'before', 'since', 'during', 'until', 'upon', 'despite', 'following', 'once']);

// The claim rules ask about the same text several times (split, re-split, question); the analysis is pure, so
// a small memo keeps the divider above 1,000 answers/s. Cleared when full, so memory stays bounded.
const memo = new Map<string, Clause | null>();
// Keyed by the prepared text: a claim ("Zelma worked as a nurse.") is asked about again as its question is formed,
// spelt differently from the piece it came from ("Zelma worked as a nurse") but prepared alike.
const prepared = new Map<string, Clause | null>();

/** Forget memoised analyses (the verb hints they were made under have changed). */
export function clearClauseMemo(): void {
  memo.clear();
  prepared.clear();
}

/**
 * A plain main clause: its analysis when it has a finite verb, no fronted phrase, is not locative ("On the table is
 * ...") and its verb is not a relative clause's; else null. The guard of the rules that rebuild a claim around its
 * verb (year-apart.ts, time-spans.ts, sequence.ts, prep-repeat.ts, claims.ts).
 */
export function plainClause(text: string): Clause | null {
  const c = analyzeClause(text);
  return c === null || c.intro.length > 0 || c.locative || c.verb.fromRelative ? null : c;
}

/** Split a declarative clause around its finite verb; null when no finite verb is found. */
export function analyzeClause(text: string): Clause | null {
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  if (memo.size > 2000) clearClauseMemo();
  const ready = prepare(text);
  let clause = prepared.get(ready);
  if (clause === undefined) {
    clause = analyzeUncached(ready);
    prepared.set(ready, clause);
  }
  memo.set(text, clause);
  return clause;
}

// `ready` is prepared text: the analysis depends on nothing else (and on the verb hints the memo is cleared with).
function analyzeUncached(ready: string): Clause | null {
  const tokens = tokenize(ready);
  if (tokens.length < 2) return null;
  const first = tokens[0]?.word ?? '';
  if (INTRO_WORDS.has(first)) {
    // "In the top left, there is a circle": a comma closes the intro before any verb.
    // A comma inside a closing quote ("After her stint on \"Pinoy Big Brother,\" Ylona ...") closes a verbless intro too.
    const plain = tokens.findIndex((t, i) => i < 12 && /,$/.test(t.raw));
    const quoted = plain >= 0 ? -1 : tokens.findIndex((t, i) => i < 12 && /,["\u201d]$/.test(t.raw));
    const comma = plain >= 0 ? plain : quoted;
    if (comma >= 0 && comma < tokens.length - 2) {
      const body = tokens.slice(comma + 1);
      const before = PREPOSITION_LIKE.has(first) ? null : findVerb(tokens.slice(0, comma + 1));
      const verb = findVerb(body);
      // "Throughout his long and distinguished career,": after a preposition an -ed word is an adjective.
      const adjective = before !== null && PREPOSITIONS.has(first) && before.kind === 'main' && /ed$/.test(before.word);
      // "After the war ended, he returned to Vienna": a fronted time clause's verb is its own, not the sentence's.
      const timeClause = before !== null && FRONTED_TIME.has(first);
      if (verb && (!before || (comma !== quoted && (adjective || timeClause)))) return build(tokens.slice(0, comma + 1), body, verb);
    }
  }
  const verb = findVerb(tokens);
  if (!verb) return null;
  const subject = tokens.slice(0, verb.index);
  if (INTRO_WORDS.has(first)) {
    // "In the top left there is a circle": the intro ends where "there" begins.
    const there = subject.findIndex((t, i) => i > 0 && t.word === 'there');
    if (there > 0) return build(tokens.slice(0, there), tokens.slice(there), verbInfo(verb.index - there, verb.kind, verb.word, verb.base, verb.doWord, verb.fromRelative));
    // "In 2013 he transferred to Valencia", "Since then he has gone on to appear in ...": a person's pronoun right
    // before the verb is the subject, as "there" is.
    const who = verb.index - 1;
    if (who > 1 && ['he', 'she', 'they'].includes(subject[who]!.word) && /\d|^then$/.test(subject[who - 1]!.word)) {
      return build(tokens.slice(0, who), tokens.slice(who), verbInfo(1, verb.kind, verb.word, verb.base, verb.doWord, verb.fromRelative));
    }
    if ((PREPOSITIONS.has(first) || first === 'here') && verb.index + 1 < tokens.length) {
      return { intro: tokens.slice(0, 0), subject, verb, rest: tokens.slice(verb.index + 1), locative: true, tokens, verbIndex: verb.index };
    }
  }
  // An empty intro sliced from the tokens, not `[]`: a literal empty array has an elements kind (and so a V8 map) of
  // its own, and code that met only one of the two deoptimised when the other came.
  return build(tokens.slice(0, 0), tokens, verb);
}

function build(intro: Token[], body: Token[], verb: VerbInfo): Clause {
  return {
    intro, subject: body.slice(0, verb.index), verb, rest: body.slice(verb.index + 1), locative: false,
    tokens: [...intro, ...body], verbIndex: intro.length + verb.index,
  };
}
