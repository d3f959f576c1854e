/**
 * Claims that stand alone before a labeler: a leading he, she or they becomes whom it means, as the annotators
 * wrote their facts ("Neumann was elected in 2007.", "The man is wearing a tie.").
 */
import { claimToQuestion } from './question.js';
import { NAME_PARTICLES } from './lexicon.js';
import type { Tok } from './nlp.js';
import type { Sentence } from './segment.js';

interface Claim { claim: string; question: string; start: number }

// The people a picture's he, she or they mean: the last such noun before the claim. Only people: the shapes
// world's "it" and "they" (shapes) stay as they are.
const REFERENTS: Record<string, RegExp> = {
  he: /\b(man|boy|guy|gentleman|father|husband|player|skateboarder|surfer|skier|rider|chef|person)\b/gi,
  she: /\b(woman|girl|lady|mother|wife|player|skateboarder|surfer|skier|rider|chef|person)\b/gi,
  they: /\b(people|men|women|children|kids|boys|girls|players|friends|couple|family|group of people)\b/gi,
};
// The pronoun at the start of a claim, after at most a fronted phrase of 60 characters ("In 2007, he ...", "After
// retiring from professional football, he ...": fronted-when.ts keeps such phrases on the claims).
// A leading "his" or "her" in a picture's description is the same person's: "His shirt is red." -> "The man's shirt is
// red.".
const LEADING = /^((?:[^,]{1,60},\s+)?)(he|she|they)\b|^()(his|her)\b/i;
const OWNER: Record<string, string> = { his: 'he', her: 'she' };


// The name a biography opens with as its subject ("Shayne Neumann is ..."), by surname: the annotators mostly wrote
// "Neumann completed ...", and the full name would make claims long. Undefined when the answer opens otherwise.
function openingName(sentences: readonly Sentence[]): string | undefined {
  const toks = sentences[0]?.tokens ?? [];
  // "Manuel Francisco dos Santos, better known as ...", "Beenie Man (born ...)": a name's particles, and its
  // capitalised words the tagger did not read as a name, after a first word it did.
  const cap = (k: number): boolean => /^\p{Lu}/u.test(toks[k]?.text ?? '') && ['PROPN', 'NOUN', 'ADJ'].includes(toks[k]!.pos);
  let n = 0;
  while (n < toks.length && n < 7 && (n === 0 ? toks[0]!.pos === 'PROPN' && /^\p{Lu}/u.test(toks[0]!.text) : cap(n) || (NAME_PARTICLES.has(toks[n]!.text) && cap(n + 1)))) n++;
  const next = toks[n];
  if (n === 0 || next === undefined || !(next.pos === 'AUX' || next.pos === 'VERB' || next.text === '(' || next.text === ',')) return undefined;
  return nameUsed(toks.slice(0, n), toks.slice(n, n + 12), sentences.slice(1).map((x) => x.text).join(' '));
}

// Which of the opening name's words the answer goes on to use: "Ronaldo Nazario de Lima, commonly known as Ronaldo"
// -> "Ronaldo"; "María Elena Medina-Mora Icaza ... Medina-Mora was ..." -> "Medina-Mora"; by default the surname,
// or the whole name when its last word is no name's word ("Beenie Man").
function nameUsed(name: readonly Tok[], after: readonly Tok[], rest: string): string {
  const known = after.findIndex((t, k) => t.lower === 'as' && after[k - 1]?.lower === 'known');
  const alias: Tok[] = [];
  for (let k = known + 1; known >= 0 && k < after.length && /^\p{Lu}/u.test(after[k]!.text) && after[k]!.pos === 'PROPN'; k++) alias.push(after[k]!);
  if (alias.length > 0) return alias.map((t) => t.text).join(' ');
  const last = name[name.length - 1]!;
  if (last.pos !== 'PROPN') return name.map((t) => t.text).join(' ');
  const said = (w: string): boolean => saysWord(rest, w);
  const at = said(last.text) ? name.length - 1 : name.findLastIndex((t) => /^\p{Lu}/u.test(t.text) && said(t.text));
  const k = at < 0 ? name.length - 1 : at;
  // "Osama bin Laden" -> "bin Laden", "José Sánchez del Río" -> "del Río": a particle goes with the name after it.
  return NAME_PARTICLES.has(name[k - 1]?.text ?? '') ? `${name[k - 1]!.text} ${name[k]!.text}` : name[k]!.text;
}

// `text` has `w` as a whole word: no letter or hyphen on either side. A scan with indexOf, not a pattern built per
// word: compiling the Unicode letter class each time took about 5% of the divider's time on biographies (speed13).
function saysWord(text: string, w: string): boolean {
  for (let at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + 1)) {
    if (!WORD_CHAR.test(codePointBefore(text, at)) && !WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at + w.length) ?? 32))) return true;
  }
  return false;
}

const WORD_CHAR = /^[\p{L}-]$/u;

function codePointBefore(text: string, at: number): string {
  if (at === 0) return ' ';
  const low = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.slice(at - 2, at) : text.charAt(at - 1);
}

/**
 * Replace each claim's leading he/she (by the opening name) or he/she/they/his/her (by the last person noun before
 * it).
 */
export function namePronouns<C extends Claim>(answer: string, sentences: readonly Sentence[], claims: C[]): void {
  const name = openingName(sentences);
  claims.forEach((c, k) => {
    const m = LEADING.exec(c.claim);
    if (!m) return;
    const lead = m[1] ?? '';
    const owner = OWNER[(m[4] ?? '').toLowerCase()];
    const pronoun = owner ?? m[2]!.toLowerCase();
    let who: string | undefined;
    // A biography's "his"/"her" stays: its facts say "His debut album ..." (the study's reading that counts "his" as a
    // word loses 146 of them with the name in its place, see docs/divide.md).
    if (name !== undefined) who = pronoun === 'they' || owner !== undefined ? undefined : name;
    else {
      const nouns = [...answer.slice(0, c.start).matchAll(REFERENTS[pronoun]!)];
      const noun = nouns[nouns.length - 1]?.[1]?.toLowerCase();
      if (noun !== undefined) who = `${lead === '' ? 'The' : 'the'} ${noun}`;
    }
    if (who === undefined) return;
    // The owner's name in the possessive ("Kerser's", "Williams'").
    if (owner !== undefined) who += who.endsWith('s') ? "'" : "'s";
    const claim = `${lead}${lead === '' ? who.charAt(0).toUpperCase() + who.slice(1) : who}${c.claim.slice(m[0].length)}`;
    const question = claimToQuestion(claim);
    if (question !== null) claims[k] = { ...c, claim, question };
  });
}
