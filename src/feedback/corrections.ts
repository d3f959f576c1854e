// Correction editors (pair.corrections): an answer with rejected claims is rewritten with only its wrong part changed,
// so the pair's two sides differ where the labeler said the answer was wrong (RLHF-V's corrected segments, OPA-DPO's
// minimal rewrites, TPO's topic overwrite with the model's own better sample). Pure text work on what divide and
// label stored: the sentence each claim came from and the labeler's verdict on it.
import { gateAndSample, noDrops, type DropReason, type Pair, type PairOptions, type ScoredAnswer } from './pairs.js';
import { VALUE_EPSILON } from './scores.js';

/** The correction editors of pair.corrections. */
export const CORRECTION_EDITORS = ['drop', 'overwrite', 'llm', 'refine'] as const;
/** A correction editor's name. */
export type CorrectionEditor = (typeof CORRECTION_EDITORS)[number];

/** One claim of an answer as an editor sees it, in claim order. */
export interface EditClaim {
  id: string;
  /** The sentence of the answer the claim was split from (the divider's `sentence`). */
  sentence: string;
  question: string;
  verdict: 'rejected' | 'accepted' | 'unjudged';
}

/** One sampled answer of a prompt with its claims. */
export interface EditAnswer {
  id: string;
  text: string;
  claims: readonly EditClaim[];
}

/** One changed sentence: the original's sentence index, its text, what replaced it (null: dropped). */
export interface Edit {
  sentence: number;
  old: string;
  new: string | null;
  /** The rejected claims of the sentence, the reason it changed. */
  claim_ids: string[];
  /** overwrite: the sibling answer the new sentence was taken from. */
  source_id?: string;
}

/** A corrected answer: its text and the edit list that made it from the original. */
export interface Correction {
  editor: CorrectionEditor;
  originalId: string;
  text: string;
  edits: Edit[];
}

/** A sentence of an answer holding claims: where it sits in the text, and its claims' verdicts. */
interface Sentence {
  index: number;
  start: number;
  end: number;
  text: string;
  claims: EditClaim[];
}

/**
 * The answer's claimed sentences in text order, each located in the text (a sentence of several claims once). A
 * sentence the divider rewrote so that it is not in the text verbatim is absent; text between sentences is kept as is.
 */
export function answerSentences(a: EditAnswer): Sentence[] {
  const out: Sentence[] = [];
  let cursor = 0;
  for (const c of a.claims) {
    const last = out.at(-1);
    if (last && last.text === c.sentence) {
      last.claims.push(c);
      continue;
    }
    const start = a.text.indexOf(c.sentence, cursor);
    if (start < 0) continue;
    cursor = start + c.sentence.length;
    out.push({ index: out.length, start, end: cursor, text: c.sentence, claims: [c] });
  }
  return out;
}

const rejected = (s: Sentence) => s.claims.some((c) => c.verdict === 'rejected');
const accepted = (s: Sentence) => s.claims.every((c) => c.verdict === 'accepted');

/**
 * The answer rewritten by `editor`, or null when it has nothing to correct (no rejected claim), a claim without a
 * verdict (the pair could not be judged), a rejected claim whose sentence is not in the text, or when the edit
 * leaves nothing. `siblings` are the prompt's other sampled answers (overwrite takes its sentences from them).
 * @example correctAnswer('drop', { id: 'a', text: 'There is a red circle. There is a cat.', claims }, [])
 *   // { text: 'There is a red circle.', edits: [{ sentence: 1, old: 'There is a cat.', new: null, ... }] }
 */
export function correctAnswer(editor: CorrectionEditor, answer: EditAnswer, siblings: readonly EditAnswer[]): Correction | null {
  if (!answer.claims.some((c) => c.verdict === 'rejected') || answer.claims.some((c) => c.verdict === 'unjudged')) return null;
  const sentences = answerSentences(answer);
  const located = new Set(sentences.flatMap((s) => s.claims.map((c) => c.id)));
  if (answer.claims.some((c) => c.verdict === 'rejected' && !located.has(c.id))) return null;
  const pool = editor === 'overwrite' ? replacementPool(answer, siblings) : [];
  // Sentences the answer keeps: a replacement must not repeat one of them (nor another replacement).
  const present = new Set(sentences.filter((s) => !rejected(s)).map((s) => normalise(s.text)));
  const edits: Edit[] = [];
  for (const s of sentences) {
    if (!rejected(s)) continue;
    const claimIds = s.claims.filter((c) => c.verdict === 'rejected').map((c) => c.id);
    const r = editor === 'overwrite' ? bestReplacement(s, pool, present) : null;
    if (r) present.add(normalise(r.text));
    edits.push({ sentence: s.index, old: s.text, new: r ? r.text : null, claim_ids: claimIds, ...(r ? { source_id: r.sourceId } : {}) });
  }
  const text = applyEdits(answer.text, sentences, edits);
  if (text === '' || text === answer.text.trim()) return null;
  return { editor, originalId: answer.id, text, edits };
}

/** The text with each edited sentence replaced (or removed with the space after it); whitespace tidied. */
function applyEdits(text: string, sentences: readonly Sentence[], edits: readonly Edit[]): string {
  const bySentence = new Map(edits.map((e) => [e.sentence, e]));
  let out = '';
  let at = 0;
  for (const s of sentences) {
    const e = bySentence.get(s.index);
    if (!e) continue;
    out += text.slice(at, s.start) + (e.new ?? '');
    at = s.end;
  }
  out += text.slice(at);
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/ {2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A sentence of a sibling whose every claim the labeler accepted: what overwrite may put in. */
interface Replacement {
  text: string;
  sourceId: string;
  index: number;
  form: string;
  words: Set<string>;
  /** How many siblings hold this sentence, all claims accepted. */
  votes: number;
}

function replacementPool(answer: EditAnswer, siblings: readonly EditAnswer[]): Replacement[] {
  const byText = new Map<string, Replacement>();
  for (const sib of siblings) {
    if (sib.id === answer.id) continue;
    const seen = new Set<string>();
    for (const s of answerSentences(sib)) {
      if (!accepted(s)) continue;
      const key = normalise(s.text);
      if (seen.has(key)) continue;
      seen.add(key);
      const r = byText.get(key);
      if (r) r.votes++;
      else byText.set(key, { text: s.text, sourceId: sib.id, index: s.index, form: questionLead(s.claims[0]!.question), words: contentWords(s.text), votes: 1 });
    }
  }
  return [...byText.values()];
}

/**
 * The accepted sibling sentence most about the same subject as `s`: it must share a content word with it (the object
 * referred to); among those, the same question form ("is there", "is the", "are there") counts most, then the same
 * place in the answer, then how many siblings say it (the labeler accepts some false sentences; a majority of the
 * policy's own samples is the surer fix), then the share of `s`'s content words it keeps, then text order.
 */
function bestReplacement(s: Sentence, pool: readonly Replacement[], present: ReadonlySet<string>): Replacement | null {
  const words = contentWords(s.text);
  const form = questionLead(s.claims[0]!.question);
  let best: { r: Replacement; key: number[] } | null = null;
  for (const r of pool) {
    if (present.has(normalise(r.text))) continue;
    let shared = 0;
    for (const w of r.words) if (words.has(w)) shared++;
    if (shared === 0) continue;
    const key = [(r.form === form ? 2 : 0) + (r.index === s.index ? 1 : 0), r.votes, shared / Math.max(1, words.size)];
    if (!best || better(key, best.key) || (same(key, best.key) && r.text < best.r.text)) best = { r, key };
  }
  return best?.r ?? null;
}

const better = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1e-9) return a[i]! > b[i]!;
  return false;
};
const same = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]!) <= 1e-9);

/** The first two words of a yes/no question, lower-cased: its form ("is there", "are there", "is the", "does the"). */
export function questionLead(question: string): string {
  return question.toLowerCase().split(/\s+/).slice(0, 2).join(' ');
}

// Words that say nothing about which object or property a sentence is about.
const STOP = new Set(
  ('a an the this that these those there here it its they them their is are was were be been being am has have had do does did ' +
    'of in on at to from by with and or but as into onto over under near next which who what image picture photo can see shown ' +
    'also one some any no not').split(' '),
);

/** The sentence's content words (lower case, no stop words): what it is about. */
export function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w !== '' && !STOP.has(w)),
  );
}

function normalise(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/**
 * The sample_index a corrected answer is stored under: negative, one block per editor (and per turn of a `refine`
 * dialogue), so it never meets a sample's.
 * @example correctionSampleIndex('refine', 3, 2) // -12000004
 */
export function correctionSampleIndex(editor: CorrectionEditor, originalIndex: number, turn = 1): number {
  const block = editor === 'refine' ? 10 + turn : { drop: 1, overwrite: 2, llm: 3 }[editor];
  return -(block * 1_000_000 + originalIndex + 1);
}

/** A corrected answer and its original, scored, as correction pairing sees them. */
export interface CorrectionCandidate {
  editor: CorrectionEditor;
  corrected: ScoredAnswer & { nRejected: number };
  original: ScoredAnswer & { nRejected: number };
}

/** A correction pair: the corrected answer chosen over its original. */
export interface CorrectionPair extends Pair {
  editor: CorrectionEditor;
}

/**
 * Correction pairs of one prompt: a corrected answer is chosen over its original when it has no rejected claim, or
 * fewer by at least `minFewer`; both must be judged in full, neither may ask one question twice (with repeated
 * claims 'drop'), and the texts must differ. The divide gate, when given, drops pairs it judges unsure; then at most
 * maxPairs are kept (seeded by the round seed, the prompt and "corrections"), as for rank pairs.
 */
export function makeCorrectionPairs(
  items: readonly CorrectionCandidate[],
  opts: PairOptions & { minFewer: number },
): { pairs: CorrectionPair[]; gated: CorrectionPair[]; considered: number; dropped: Record<DropReason, number> } {
  const dropped = noDrops();
  const repeats = (x: ScoredAnswer) => (opts.repeatedClaims ?? 'drop') === 'drop' && x.nQuestions !== undefined && x.nQuestions < x.nClaims;
  const sorted = [...items].sort((a, b) => (a.corrected.id < b.corrected.id ? -1 : a.corrected.id > b.corrected.id ? 1 : 0));
  const candidates: CorrectionPair[] = [];
  for (const { editor, corrected: c, original: o } of sorted) {
    if (c.nClaims === 0 || !(c.nRejected === 0 || o.nRejected - c.nRejected >= opts.minFewer - VALUE_EPSILON)) dropped.below_diff++;
    else if (c.nJudged !== c.nClaims || o.nJudged !== o.nClaims) dropped.unjudged++;
    else if (repeats(c) || repeats(o)) dropped.repeated_claims++;
    else if (c.text.trim() === o.text.trim()) dropped.identical++;
    else {
      candidates.push({
        editor,
        chosenId: c.id,
        rejectedId: o.id,
        chosenValue: c.value,
        rejectedValue: o.value,
        margin: c.value - o.value,
        chosenWords: c.words,
        rejectedWords: o.words,
      });
    }
  }
  const byId = new Map(sorted.flatMap((x) => [[x.corrected.id, x.corrected], [x.original.id, x.original]] as const));
  const { pairs, gated } = gateAndSample(candidates, byId, opts, dropped, [opts.seed, opts.promptId, 'corrections']);
  return { pairs, gated, considered: sorted.length, dropped };
}
