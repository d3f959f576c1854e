/**
 * On claims over 15 words only, where lead-in.ts leaves the claim whole because the verb's object is long: "After the
 * war, Welbourn became a fellow of the Royal College of Surgeons of England in 1951." The claim goes on without the
 * fronted phrase ("Welbourn became a fellow of the Royal College of Surgeons of England in 1951."), and the phrase is
 * a fact with the verb and the object's head, the object before its own "of" or "for" ("Welbourn became a fellow
 * after the war."), as adjuncts-apart.ts does for a phrase of time at the end and as FActScore's annotators wrote
 * them ("He became a fellow in 1951.", "In November 1997, he was promoted."). A passive verb with a phrase and no
 * object takes the fronted phrase alone ("Harrer was interned after the outbreak of World War II.").
 */
import { analyzeClause } from './clause.js';
import { IRREGULAR, LEAD, NOT_LEAD } from './lead-in.js';
import { AUX_ADVERBS, BE_FORMS, DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

// Another fact, not a time or a circumstance (lead-in.ts keeps these with the whole object or not at all).
const ANOTHER = /^(?:in addition to|apart from|aside from|besides)\s/i;
// A head that says nothing without its phrase ("the first woman to ...", "a member of ...", "the head of state");
// a post's takes the title's name ("He held the position during his time in Parliament." had been said).
const EMPTY_HEAD = /^(?:role|roles|part|first|only|last|one|number|some|many|most|all|way|name|member|head|version|edition|season|episode|kind|type|series|rest|end|start|beginning|lot|couple|pair|group|side|top|bottom|center|centre|front|back|age)$/;
const POST = /^(?:position|post|office|title|rank)$/;

/** The claim without its fronted phrase and the verb with the object's head in that phrase; the claim alone otherwise. */
export function leadHeadApart(claim: string): string[] {
  if (!isLong(claim) || !LEAD.test(claim) || NOT_LEAD.test(claim) || ANOTHER.test(claim)) return [claim];
  const clause = analyzeClause(claim);
  if (clause === null || clause.intro.length === 0 || clause.locative || clause.verb.fromRelative) return [claim];
  const { intro, subject, tokens: toks, verbIndex: v } = clause;
  // The tokens must be the claim's words, so the claim can be cut at them.
  if (toks.map((t) => t.raw).join(' ') !== claim.replace(/\.$/, '')) return [claim];
  if (subject.length === 0 || subject.length > 5 || subject.some((t) => /,$/.test(t.raw)) || !/^(?:[A-Z]|he$|she$|they$)/.test(subject[0]!.raw)) return [claim];
  if (!/,["”]?$/.test(intro[intro.length - 1]!.raw)) return [claim];
  // The verb: "was (posthumously) awarded" (a passive), "has won", or one verb ("became"); a copula or a verb group
  // with more in it ("has since gone on to") leaves the claim whole.
  let k = v + 1;
  while (k < toks.length && (AUX_ADVERBS.has(toks[k]!.word) || /ly$/.test(toks[k]!.word))) k++;
  const participle = k < toks.length && (/(?:ed|en)$/.test(toks[k]!.word) || IRREGULAR.test(toks[k]!.word));
  const be = BE_FORMS.has(toks[v]!.word);
  const have = /^(?:has|have|had)$/.test(toks[v]!.word);
  if ((be || have) && !participle) return [claim];
  const verbEnd = be || have ? k + 1 : v + 1;
  if (!be && !have && k !== v + 1) return [claim];
  const first = toks[verbEnd];
  if (first === undefined) return [claim];
  // The head: the words from `a` to a first "of"/"for" whose phrase names something ("of the Royal College", "the
  // lead role of Brenda Leigh Johnson"); a bare noun after it is a compound's ("a prisoner of war camp"): no head.
  const headEnd = (a: number, phrase = false): number | null => {
    let j = a + 1;
    while (j < toks.length && !PREPOSITIONS.has(toks[j]!.word) && !/^(?:to|and|or|who|which|that)$/.test(toks[j]!.word) && !/[,;:"”]$/.test(toks[j - 1]!.raw)) j++;
    const next = toks[j + 1];
    if (j >= toks.length || !/^(?:of|for)$/.test(toks[j]!.word) || next === undefined || !(DETERMINERS.has(next.word) || /^[A-Z0-9]/.test(next.raw))) return null;
    // Inside a name, between capitals ("the International Tennis Hall of Fame"), "of" cuts nothing.
    if (/^[A-Z]/.test(toks[j - 1]!.raw) && /^[A-Z]/.test(next.raw)) return null;
    // A role a phrase names stands alone ("was cast in the lead role"); an object's needs its phrase ("played a key role in").
    const w = toks[j - 1]!.word;
    // "the position of Minister of State for Policy": a post's head takes the title's name with it.
    if (POST.test(w) && /^[A-Z]/.test(next.raw)) {
      let e = j + 1;
      while (e < toks.length && (/^[A-Z]/.test(toks[e]!.raw) || (/^(?:of|for|and|the)$/.test(toks[e]!.word) && /^[A-Z]/.test(toks[e + 1]?.raw ?? ''))) && !/[,;:]$/.test(toks[e - 1]!.raw)) e++;
      return e;
    }
    return j - a < 2 || (EMPTY_HEAD.test(w) && !(phrase && /^(?:role|part)$/.test(w))) ? null : j;
  };
  let head: number | null;
  if (be && PREPOSITIONS.has(first.word)) {
    // A passive with a phrase: the phrase's head ("was cast in the lead role"), or the verb alone ("was interned");
    // not an infinitive ("was forced to turn back").
    const after = toks[verbEnd + 1];
    if (first.word === 'to' && (after === undefined || !(DETERMINERS.has(after.word) || /^[A-Z0-9]/.test(after.raw)))) return [claim];
    head = headEnd(verbEnd + 1, true) ?? verbEnd;
  } else {
    // An object led by a determiner or a capital, cut at its head.
    if (!DETERMINERS.has(first.word) && !/^[A-Z]/.test(first.raw)) return [claim];
    head = headEnd(verbEnd);
    if (head === null) return [claim];
  }
  const raw = (a: number, b: number): string => toks.slice(a, b).map((t) => t.raw).join(' ');
  const phrase = raw(0, intro.length).replace(/,$/, '').replace(/,(["”])$/, '$1');
  const body = raw(intro.length, toks.length);
  const subj = raw(intro.length, intro.length + subject.length);
  const dated = `${subj} ${raw(intro.length + subject.length, head)} ${phrase.charAt(0).toLowerCase()}${phrase.slice(1)}.`;
  const out = [`${body.charAt(0).toUpperCase()}${body.slice(1)}.`, dated.charAt(0).toUpperCase() + dated.slice(1)];
  if (out.some((c) => isLong(c) || ((c.match(/["“”]/g) ?? []).length % 2 === 1))) return [claim];
  return out;
}
