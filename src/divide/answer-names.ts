// Names across a whole answer: the capitalised words its tagger read as names (the question former keeps their case),
// and a claim about a name said twice, kept once. Moved from rules.ts as they were.
import type { DividedClaim } from './divided.js';
import type { Sentence } from './segment.js';

// Capitalised words the tagger read as names (PROPN), unless the answer also writes them lower-case ("Red circles
// ... two red stars": a common word that opened a sentence).
export function nameHints(sentences: readonly Sentence[]): Set<string> {
  const lower = new Set<string>();
  const found = new Set<string>();
  for (const s of sentences) {
    s.tokens.forEach((t, k) => {
      if (t.text === t.lower) lower.add(t.lower);
      else if (t.pos === 'PROPN' && /^\p{Lu}\p{Ll}/u.test(t.text)) found.add(t.text).add(t.text + glued(s.tokens, k));
    });
  }
  return new Set([...found].filter((w) => !lower.has(w.toLowerCase())));
}

// Letters the tagger cut off a name with no space between ("Memović" arrives as "Memovi" and "ć"): the name is whole.
function glued(toks: readonly Sentence['tokens'][number][], k: number): string {
  let out = '';
  for (let j = k + 1; toks[j] !== undefined && toks[j]!.space === '' && /^\p{L}+$/u.test(toks[j]!.text); j++) out += toks[j]!.text;
  return out;
}

// A claim about a name said twice in one answer ("Roselyn Sánchez is Puerto Rican." once per role, "The Closer is a
// television series." once per list it is in) is one fact, asked once. Only claims with a name inside: a picture's
// repeats count things ("There is a green star." twice is two stars).
export function dropRepeatedNames(out: { claims: DividedClaim[] }): void {
  const seen = new Set<string>();
  out.claims = out.claims.filter((c) => {
    if (!/\s["“]?\p{Lu}/u.test(c.claim)) return true;
    if (seen.has(c.claim)) return false;
    seen.add(c.claim);
    return true;
  });
}
