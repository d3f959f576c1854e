/** Small text utilities shared by the divider: normalisation, contractions, tokens and articles. */

/** One whitespace-delimited word: `raw` as written, `word` lower-cased without edge punctuation. */
export interface Token {
  raw: string;
  word: string;
}

// Any character normalizeText might change, as one class (every whitespace but the plain space, spelt out) plus a
// double space: V8 scans a class far faster than an alternation. A lone "*" or "_" only sends the text down the
// slow path, which then changes nothing but the trim, so the output is the same.
const NEEDS_NORMALIZING = /[\u2018\u2019\u02bc\u201c\u201d`*_\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/** Unify quotes, drop markdown emphasis and collapse whitespace so rules see one spelling. */
export function normalizeText(text: string): string {
  // Most text is already plain; the rules call this on every piece, so skip the passes when nothing would change.
  if (!NEEDS_NORMALIZING.test(text)) return text.trim();
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const keepCase = (model: string, replacement: string): string =>
  /^[A-Z]/.test(model) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;

/** Expand contractions so "doesn't" becomes "does not" and the negation survives inversion. */
export function expandContractions(text: string): string {
  // Most text has no apostrophe and no "cannot": skip the ten passes (a quarter of the divider's time).
  if (!text.includes("'") && !/cannot/i.test(text)) return text;
  return text
    .replace(/\b(can)(?:'t|not)\b/gi, (_m, c: string) => `${c} not`)
    .replace(/\bwon't\b/gi, (m) => keepCase(m, 'will not'))
    .replace(/\bshan't\b/gi, (m) => keepCase(m, 'shall not'))
    .replace(/\bain't\b/gi, (m) => keepCase(m, 'is not'))
    .replace(/\b(\w+)n't\b/gi, (_m, w: string) => `${w} not`)
    .replace(/\b(it|that|there|here|he|she|what|who|where)'s(\s+(?:been|got)\b)?/gi,
      (_m, w: string, been: string | undefined) => `${w} ${been ? 'has' : 'is'}${been ?? ''}`)
    .replace(/\b(they|we|you)'re\b/gi, (_m, w: string) => `${w} are`)
    .replace(/\bi'm\b/gi, 'I am')
    .replace(/\b(i|you|we|they)'ve\b/gi, (_m, w: string) => `${w} have`)
    .replace(/\b(i|you|we|they|he|she|it|there)'ll\b/gi, (_m, w: string) => `${w} will`);
}

const PLAIN_WORD = /^[a-z0-9][a-z0-9'-]*[a-z0-9]$|^[a-z0-9]$/;
const cleaned = new Map<string, string>();

// Already clean: lower-case letters and digits, with apostrophes or hyphens only inside (what PLAIN_WORD accepts).
// A scan of char codes, so the commonest words need neither a string hash (the memo) nor a lower-cased copy.
function isPlainLower(raw: string): boolean {
  const n = raw.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) continue;
    if ((c === 39 || c === 45) && i > 0 && i < n - 1) continue;
    return false;
  }
  return true;
}

/** Lower-case a word and strip surrounding punctuation, keeping inner apostrophes and hyphens. */
export function cleanWord(raw: string): string {
  if (isPlainLower(raw)) return raw;
  // The rules re-tokenise the same pieces many times, so the same few hundred words come back again and again.
  const hit = cleaned.get(raw);
  if (hit !== undefined) return hit;
  const lower = raw.toLowerCase();
  // Most words: nothing to strip.
  const word = PLAIN_WORD.test(lower) ? lower : lower.replace(/^[^a-z0-9']+|[^a-z0-9']+$/g, '').replace(/^'+/, '');
  if (cleaned.size >= 20_000) cleaned.clear(); // bounded: a long run over varied text must not grow without end
  cleaned.set(raw, word);
  return word;
}

/** Whether a UTF-16 code unit is whitespace as a regex's \\s reads it (ECMAScript WhiteSpace and LineTerminator). */
export function isSpace(c: number): boolean {
  if (c === 32) return true;
  if (c < 128) return c >= 9 && c <= 13;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f
    || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Split on whitespace into tokens. */
export function tokenize(text: string): Token[] {
  // One loop, not split/filter/map: the rules tokenise every piece several times, and each pass's arrays are garbage.
  // A scan for whitespace instead of split(/\s+/): no regex and no array of pieces to throw away.
  const out: Token[] = [];
  const n = text.length;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && !isSpace(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const raw = text.slice(start, i);
      out.push({ raw, word: cleanWord(raw) });
      start = -1;
    }
  }
  return out;
}

/** Join tokens back into text. */
export function joinTokens(tokens: readonly Token[]): string {
  return tokens.map((t) => t.raw).join(' ');
}

/** Remove trailing sentence punctuation (and a trailing comma left by list splitting). */
export function stripTrailingPunct(text: string): string {
  // A printable ASCII last character outside the set cannot start a match: skip the regex, which V8 tries from
  // every position of the text (a hot path: every piece, claim and question passes here).
  const c = text.charCodeAt(text.length - 1);
  if (c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x2c && c !== 0x3b && c !== 0x3a && c !== 0x21) return text;
  return text.replace(/[\s.,;:!]+$/u, '');
}

/** Upper-case the first letter. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// "an" depends on sound, not spelling; these are the usual exceptions to the vowel-letter rule.
const CONSONANT_SOUND_VOWEL = /^(?:uni|use|usu|uti|ure|eu|ewe|one|once|ubiq|uk|usa\b|US\b)/i;
const VOWEL_SOUND_CONSONANT = /^(?:hour|honest|honou?r|heir|herb)/i;

/** The indefinite article that fits the next word ("an orange", "a unicorn", "an hour"). */
export function articleFor(word: string): 'a' | 'an' {
  if (VOWEL_SOUND_CONSONANT.test(word)) return 'an';
  if (CONSONANT_SOUND_VOWEL.test(word)) return 'a';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

const ARTICLE = /\ban?\s/i;
const DOUBLED_THE = /\bthe\s+the\b/i;

/** Repair every a/an in a sentence so rebuilt claims read naturally. */
export function fixArticles(text: string): string {
  // Each pattern below needs an "a"/"an" word or a doubled "the": without them (many claims) all three are no-ops,
  // and every claim passes here.
  if (!ARTICLE.test(text) && !DOUBLED_THE.test(text)) return text;
  // A stuttered article ("a a red circle", "the the") is a generation glitch, not content.
  const once = text.replace(/\b(?:an?\s+)+(an?\s)/gi, '$1').replace(/\b(the)(?:\s+the)+\b/gi, '$1');
  // Capital "A" only counts as an article at the start; elsewhere it may be a letter ("vitamin A is").
  return once.replace(/(^|\s)(a|an|A|An)(\s+)([A-Za-z][\w-]*)/g, (m, pre: string, art: string, sp: string, next: string) => {
    if (/^A/.test(art) && pre !== '') return m;
    const want = articleFor(next);
    return `${pre}${/^A/.test(art) ? capitalize(want) : want}${sp}${next}`;
  });
}

/** The text cut at its semicolons, but not at one inside brackets ("190 lb; 13.5 st" in "86 kg (190 lb; 13.5 st)"). */
export function splitAtSemicolons(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === ';' && depth === 0) {
      out.push(text.slice(from, k).trim());
      from = k + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out;
}
