/**
 * Comma-joined adjectives apart, one fact each (clauses.ts cuts the clause parts first; each part's draft comes here).
 */
import { flatMapOf } from './arrays.js';
import { draft, type Draft } from './clause-draft.js';
import type { Tok } from './nlp.js';
import { definite, NOUNISH, pluralHead, withArticle } from './noun-phrase.js';
import { isFinite } from './person-clauses.js';
import { be } from './with-clause.js';

// Verbs of showing that the tagger often reads as plural nouns ("The image features a clock").
export const PICTURE_VERBS = new Set(['features', 'shows', 'depicts', 'displays', 'showcases', 'captures', 'presents', 'contains', 'includes']);

// "a large, old-fashioned clock", "social, political and economic issues": comma-joined adjectives are separate
// facts. On what the clause is about they are attributes ("the clock is large"); elsewhere, one copy of the clause
// per adjective ("He wrote about social issues", "... political issues"), so each fact keeps the clause's other
// words. Adjectives without commas ("a large red circle") stay together, as the
// shapes world's checker reads them.
export function splitAdjectives(d: Draft): Draft[] {
  const toks = d.toks;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i]?.pos !== 'ADJ' || toks[i + 1]?.text !== ',') continue;
    let j = i;
    const adjs: Tok[] = [];
    while (adjective(toks[j]) && (toks[j + 1]?.text === ',' || toks[j + 1]?.lower === 'and')) {
      adjs.push(toks[j]!);
      j += 2;
      if (toks[j]?.lower === 'and' && toks[j - 1]?.text === ',') j++; // "social, political, and economic"
    }
    if (!adjective(toks[j]) || adjs.length === 0) continue;
    adjs.push(toks[j]!);
    let h = j + 1;
    if (!NOUNISH.has(toks[h]?.pos ?? '')) continue;
    while (NOUNISH.has(toks[h + 1]?.pos ?? '')) h++;
    // What the picture shows or the subject ("a large, old clock", "The tall, thin man is ..."): each adjective is a
    // fact about the thing, "the clock is large", as the annotators wrote it.
    if (toks.slice(0, i).every((t) => !isFinite(t)) || toks.slice(0, i).some((t) => PICTURE_VERBS.has(t.lower) || t.lower === 'there')) {
      const subject = definite(toks, h);
      const kept = draft(d.prefix, [...toks.slice(0, i), ...toks.slice(j + 1)], d.kind, d);
      const attrs = adjs.map((a) => draft(`${subject} ${be(pluralHead(toks[h]!))} ${a.text}`, [a], 'attribute'));
      return [...splitAdjectives(kept), ...attrs];
    }
    return flatMapOf(adjs, (a) => splitAdjectives(draft(d.prefix, [...withArticle(toks.slice(0, i), a), a, ...toks.slice(j + 1)], d.kind, d)));
  }
  return [d];
}

// An adjective, or a hyphenated compound the tagger reads as a verb ("hard-working/VERB" in "a quick, mobile,
// hard-working and tactical player").
// Not a verb's prefix ("co-edited", "re-released"); the run must open with a true adjective.
const adjective = (t: Tok | undefined): boolean => t !== undefined && (t.pos === 'ADJ' || (/^[a-z]+-[a-z]+$/.test(t.text) && !/^(?:co|re|pre|un|non|self|ex)-/.test(t.text)));
