/**
 * English analysis by wink-nlp with wink-eng-lite-web-model (MIT): tokens with universal POS tags, sentence
 * boundaries and character offsets. Chosen over hand-written word lists (a trained tagger knows "features" and
 * "parked" in context) and over compromise (~70 answers/s here against wink's ~1,700, issue 29).
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { IRREGULAR_PAST } from './lexicon.js';

/** One token: its text, lower-cased form, POS tag and character span [start, end) in the analysed text. */
export interface Tok {
  text: string;
  lower: string;
  pos: string;
  start: number;
  end: number;
  /** The whitespace before it (a newline there can end a sentence or a bullet item). */
  space: string;
}

/** An analysed text: tokens and sentences as inclusive token ranges. */
export interface Analysis {
  tokens: Tok[];
  sentences: [number, number][];
}

/**
 * A copy of token `t` with other text (and spacing), built as one literal in one field order: every token then
 * shares one hidden class. A spread copy (`{ ...t, text }`) gets a map of its own, and V8's optimised code for the
 * rules deoptimises whenever a token of a map it has not met reaches it, which on new answers is often.
 */
export function retext(t: Tok, text: string, lower: string, space: string = t.space): Tok {
  return { text, lower, pos: t.pos, start: t.start, end: t.end, space };
}

type Nlp = ReturnType<typeof winkNLP>;

// Letters only; a capitalised word of letters only.
const GLUED = /^\p{L}+$/u;
const NAME_PART = /^\p{Lu}\p{L}*$/u;
let nlp: Nlp | null = null;

// Loaded on first use so that importing the divider costs nothing until it divides.
function engine(): Nlp {
  // Only sentence boundaries and POS tags: wink's entity, negation and sentiment passes cost time and go unused.
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

/** Tokens, tags, offsets and sentences of `text`; wink reproduces the text losslessly, so offsets add up. */
export function analyze(text: string): Analysis {
  const e = engine();
  const doc = e.readDoc(text);
  const its = e.its;
  const values = doc.tokens().out() as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  const spaces = doc.tokens().out(its.precedingSpaces) as string[];
  const tokens: Tok[] = [];
  // wink's index of each token -> ours (a glued piece joins the token before it).
  const index: number[] = [];
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const space = spaces[i] ?? '';
    const value = values[i] ?? '';
    // Offsets by search, not by sum: wink may normalise odd whitespace, and a search never drifts.
    const found = text.indexOf(value, at);
    const start = found >= 0 ? found : at + space.length;
    const prev = tokens[tokens.length - 1];
    // The tagger cuts some names at a letter outside ASCII ("Memović" as "Memovi" and "ć"): one word, one token.
    if (prev !== undefined && space === '' && prev.end === start && GLUED.test(value) && NAME_PART.test(prev.text) && !/^[\x00-\x7f]+$/.test(value)) {
      prev.text += value;
      prev.lower = prev.text.toLowerCase();
      prev.end = start + value.length;
    } else {
      tokens.push({ text: value, lower: value.toLowerCase(), pos: tags[i] ?? 'X', start, end: start + value.length, space });
    }
    index.push(tokens.length - 1);
    at = start + value.length;
  }
  const sentences = (doc.sentences().out(its.span) as unknown as [number, number][]).map(([a, b]) => [index[a] ?? a, index[b] ?? b] as [number, number]);
  // "Ford made his film debut", "Page was born": a capitalised first word the tagger reads as a verb, right before a
  // finite verb, is the subject's name ("Ford" had been read as the verb, and "Did ford make ...?" asked).
  for (let a = 0; a < tokens.length - 1; a++) {
    const first = tokens[a]!;
    if (first.pos !== 'VERB' || (a > 0 && !/^(?:[.!?\]]|\s+)$/.test(tokens[a - 1]!.text) && !first.space.includes('\n'))) continue;
    const next = tokens[a + 1];
    if (/^[A-Z][a-z]/.test(first.text) && next !== undefined && (next.pos === 'VERB' || next.pos === 'AUX')
      && (/^(?:is|was|has|had|will|would|could|can|did|does)$/.test(next.lower) || /[^s]ed$/.test(next.lower) || IRREGULAR_PAST.has(next.lower))) first.pos = 'PROPN';
  }
  return { tokens, sentences };
}

const lemmas = new Map<string, string>();

/**
 * The base form of a past-tense verb by wink's lemmatizer, read in a verb's place ("completed" -> "complete",
 * "graduated" -> "graduate"); cached, as question forming asks for the same verbs again and again.
 * @example verbLemma('competed') // 'compete'
 */
export function verbLemma(word: string): string {
  let lemma = lemmas.get(word);
  if (lemma === undefined) {
    const e = engine();
    // wink's typings give `its.lemma` a narrower signature than `out` takes; at run time it is a plain its-function.
    const out = e.readDoc(`they ${word} it`).tokens().out(e.its.lemma as unknown as typeof e.its.value) as string[];
    lemma = (out[1] ?? word).toLowerCase();
    if (lemmas.size < 50_000) lemmas.set(word, lemma);
  }
  return lemma;
}
