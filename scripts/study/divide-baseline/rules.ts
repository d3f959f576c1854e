// FROZEN COPY of src/divide/rules.ts at commit 474dcd8 (the rules divider before issue 29), kept only for
// scripts/study/divide-real.ts and the divide benchmark to compare against. Do not edit or import from src/.
/** The built-in English rules divider: answer -> atomic claims -> yes/no questions, with no model. */
import { splitClaims } from './claims.js';
import { analyzeClause, stripDiscourseMarkers } from './clause.js';
import { completeFromQuestion } from './context.js';
import { isFragment, skipReason } from './filters.js';
import { isPluralPhrase } from './list.js';
import { claimToQuestion } from './question.js';
import { splitSentences } from './sentences.js';
import { cleanWord, normalizeText, stripTrailingPunct } from './text.js';

/** Claim -> yes/no question, re-exported so callers need only this module. */
export { claimToQuestion } from './question.js';
/** Text -> sentences, re-exported so callers need only this module. */
export { splitSentences } from './sentences.js';

/** One atomic claim, the sentence it came from and its yes/no question. */
export interface DividedClaim {
  sentence: string;
  claim: string;
  question: string;
}

/** Claims in answer order, and the sentences that yielded none with the reason. */
export interface DivideResult {
  claims: DividedClaim[];
  skipped: { sentence: string; reason: string }[];
}

// Verbless noun phrases led by these ("A red circle.", "Two dogs and a cat.") assert existence.
const EXISTENTIAL_LEADS = new Set([
  'a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'some', 'several',
  'many', 'multiple', 'various', 'numerous', 'no',
]);

// Make a verbless sentence into a statement, from the instruction or as existence; null if neither fits.
function completeVerbless(sentence: string, question: string | undefined): string | null {
  if (question !== undefined) {
    const completed = completeFromQuestion(sentence, question);
    if (completed !== null) return completed;
  }
  if (isFragment(sentence)) return null;
  const np = stripTrailingPunct(stripDiscourseMarkers(normalizeText(sentence)));
  const words = np.split(/\s+/).map(cleanWord);
  if (!EXISTENTIAL_LEADS.has(words[0] ?? '')) return null;
  return `There ${isPluralPhrase(words) ? 'are' : 'is'} ${np.charAt(0).toLowerCase()}${np.slice(1)}.`;
}

function divideSentence(sentence: string, question: string | undefined, out: DivideResult): void {
  const reason = skipReason(sentence);
  if (reason !== null) {
    if (reason !== 'empty') out.skipped.push({ sentence, reason });
    return;
  }
  let text = sentence;
  const clause = analyzeClause(sentence);
  if (clause === null || clause.verb.fromRelative) {
    const completed = completeVerbless(sentence, question);
    if (completed === null) {
      out.skipped.push({ sentence, reason: isFragment(sentence) ? 'fragment' : 'no finite verb' });
      return;
    }
    text = completed;
  }
  for (const claim of splitClaims(text)) {
    const q = claimToQuestion(claim);
    if (q === null) out.skipped.push({ sentence, reason: `no question could be formed from "${claim}"` });
    else out.claims.push({ sentence, claim, question: q });
  }
}

/** Split an answer into atomic claims and turn each into a yes/no question. */
export function divideRules(answer: string, opts?: { question?: string }): DivideResult {
  const out: DivideResult = { claims: [], skipped: [] };
  if (typeof answer !== 'string') return out;
  const question = typeof opts?.question === 'string' ? opts.question : undefined;
  for (const sentence of splitSentences(answer)) {
    try {
      divideSentence(sentence, question, out);
    } catch {
      // The rules are heuristics over arbitrary text; one odd sentence must not lose the whole answer.
      out.skipped.push({ sentence, reason: 'could not be analysed' });
    }
  }
  return out;
}
