/**
 * "a number of clubs in Italy, including Parma, Bologna, ...", "several teams in Spain's La Liga, including Real
 * Madrid": the examples' kind has a place after it, and each example is a kind of that place ("Parma is a club in
 * Italy.", "Real Madrid is a team in Spain's La Liga.", as FActScore's annotators wrote them: "Parma is in Italy.").
 * naming.ts's exampleFacts reads the kind before "in" and puts the place back after it. Only a place of capitalised
 * words ("in Hollywood", "in Telugu and Hindi"), after a plural noun.
 */
import type { Tok } from './nlp.js';
import { POSSESSIVES } from './noun-phrase.js';

/** Where "in <Place>" starts before `end` (the token after the place) and its text, or null. */
export function placeAfterKind(toks: readonly Tok[], end: number): { at: number; text: string } | null {
  if (!/^[A-Z]/.test(toks[end - 1]?.text ?? '')) return null;
  const cap = (k: number): boolean => /^[A-Z]/.test(toks[k]?.text ?? '');
  let p = end - 1;
  while (p > 0 && (cap(p) || (toks[p]!.text === "'s" && cap(p - 1)) || (toks[p]!.lower === 'and' && cap(p - 1) && cap(p + 1)))) p--;
  const head = toks[p - 1];
  if (toks[p]?.lower !== 'in' || head?.pos !== 'NOUN' || !/[^su]s$/.test(head.lower)) return null;
  // "books about his experiences in China, including A": a possessed noun is what the books are about, no kind.
  let d = p - 1;
  while (d > 0 && ['NOUN', 'ADJ'].includes(toks[d - 1]!.pos)) d--;
  if (POSSESSIVES.has(toks[d - 1]?.lower ?? '')) return null;
  const place = toks.slice(p, end);
  return { at: p, text: place.map((t, k) => (k > 0 && t.space !== '' ? ' ' : '') + t.text).join('') };
}
