/**
 * "numerous dramas, films, and variety shows", "film soundtracks, commercials, and TV shows around the world": after
 * a comma list of one- or two-word nouns, ", and" + noun + a verb in -s is the list's last item with a plural noun
 * ("shows"), which the tagger read as a clause ("variety shows"). Without this the list was cut before "and": "IU
 * has starred in numerous dramas, films." and "IU is a multi-talented artist and variety shows.".
 */
import type { Tok } from './nlp.js';

const NOMINAL = new Set(['NOUN', 'PROPN']);

/** Whether the comma at `i`, before "and"/"or", goes on with a list of nouns (see above). */
export function listNounAfterAnd(toks: readonly Tok[], i: number): boolean {
  if (toks[i + 1]?.pos !== 'CCONJ' || !NOMINAL.has(toks[i - 1]?.pos ?? '')) return false;
  // The item before: one or two words after the comma before it.
  const one = toks[i - 2]?.text === ',';
  const two = toks[i - 3]?.text === ',' && ['NOUN', 'PROPN', 'ADJ'].includes(toks[i - 2]?.pos ?? '');
  if (!one && !two) return false;
  let k = i + 2;
  while (k < i + 4 && NOMINAL.has(toks[k]?.pos ?? '')) k++;
  const verb = toks[k];
  return k > i + 2 && verb !== undefined && verb.pos === 'VERB' && /[^s]s$/.test(verb.lower);
}

/**
 * The same list on the word-list reader's tokens (claims.ts): a cut at `k` ("and" after "soundtracks, commercials,")
 * whose right side is one or two words and a verb in -s at `verbAt` (of the right side) continues the list.
 */
export function listItemsBefore(raws: readonly string[], k: number, rightVerbAt: number, rightVerb: string): boolean {
  return shortItemsBefore(raws, k) && rightVerbAt >= 1 && rightVerbAt <= 2 && /[^s]s$/.test(rightVerb);
}

/** The left side of that test alone: the cut at `k` follows a comma list of one- or two-word items. */
export function shortItemsBefore(raws: readonly string[], k: number): boolean {
  const item = (n: number): boolean => /^[a-z][a-z-]*,$/.test(raws[k - n] ?? '');
  return item(1) && (item(2) || (/,$/.test(raws[k - 3] ?? '') && /^[a-z]+$/i.test(raws[k - 2] ?? '')));
}
