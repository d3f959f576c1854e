// FROZEN COPY of src/divide/filters.ts at commit 474dcd8 (the rules divider before issue 29), kept only for
// scripts/study/divide-real.ts and the divide benchmark to compare against. Do not edit or import from src/.
/** Which sentences are not checkable facts about the image, and why. */
import { stripDiscourseMarkers } from './clause.js';
import { HEDGE_PATTERNS, META_PATTERNS, SUBJECTIVE_WORDS } from './lexicon.js';
import { cleanWord, expandContractions, normalizeText } from './text.js';

/** The reason a sentence yields no claims, or null when it should be divided. */
export function skipReason(sentence: string): string | null {
  const text = normalizeText(sentence);
  if (text === '') return 'empty';
  if (/\?["')\]]*$/.test(text)) return 'question';
  if (/!["')\]]*$/.test(text)) return 'exclamation';
  if (/:["')\]]*$/.test(text)) return 'heading or lead-in';
  const body = stripDiscourseMarkers(expandContractions(text));
  if (META_PATTERNS.some((re) => re.test(body))) return 'about the conversation, not the image';
  if (HEDGE_PATTERNS.some((re) => re.test(body))) return 'opinion or hedge';
  const words = body.split(/\s+/).map(cleanWord).filter((w) => w.length > 0);
  const subjective = words.find((w) => SUBJECTIVE_WORDS.has(w));
  if (subjective !== undefined) return `subjective ("${subjective}")`;
  return null;
}

/** Too short to state a fact on its own ("Yes.", "Red."). */
export function isFragment(sentence: string): boolean {
  return normalizeText(sentence).split(/\s+/).filter((w) => /[a-z0-9]/i.test(w)).length < 2;
}
