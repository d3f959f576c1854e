// FROZEN COPY of src/divide/context.ts at commit 474dcd8 (the rules divider before issue 29), kept only for
// scripts/study/divide-real.ts and the divide benchmark to compare against. Do not edit or import from src/.
/** Use the instruction to complete a short answer ("What color is the star?" + "Blue." -> "The star is blue."). */
import { DETERMINERS, NUMBER_WORDS, PREPOSITIONS } from './lexicon.js';
import { isPluralPhrase } from './list.js';
import { normalizeText, stripTrailingPunct } from './text.js';

const lower = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const singular = (noun: string): string => noun.replace(/(?:(ch|sh|ss|x)es|s)$/, (_m, k: string | undefined) => k ?? '');

/** A full declarative claim built from a verbless answer and its question, or null when the pair does not fit. */
export function completeFromQuestion(answer: string, question: string): string | null {
  const q = stripTrailingPunct(normalizeText(question)).replace(/\?+$/, '').trim();
  const a = stripTrailingPunct(normalizeText(answer)).replace(/^(?:it is|it's|they are)\s+/i, '').trim();
  if (q === '' || a === '') return null;
  const yesNo = /^(yes|no)\b[,.]?\s*$/i.exec(a);

  // "What color is the star?" / "What size are the circles?" -> "The star is blue."
  const attr = /^(?:what|which)\s+(?:colou?r|size|shape)\s+(is|are|was|were)\s+(.+)$/i.exec(q);
  if (attr?.[1] && attr[2] && !yesNo) return `${attr[2]} ${attr[1].toLowerCase()} ${lower(a)}.`;

  // "Where is the circle?" -> "The circle is in the top left."
  const where = /^where\s+(is|are|was|were)\s+(.+)$/i.exec(q);
  if (where?.[1] && where[2] && !yesNo) {
    const first = a.split(/\s+/)[0]?.toLowerCase() ?? '';
    const place = PREPOSITIONS.has(first) ? lower(a) : `in ${DETERMINERS.has(first) ? '' : 'the '}${lower(a)}`;
    return `${where[2]} ${where[1].toLowerCase()} ${place}.`;
  }

  // "How many stars are there?" -> "There are two stars." / "There is one star." / "There are no stars."
  const many = /^how\s+many\s+(.+?)\s+(?:are there|are in .+|can you see|do you see)$/i.exec(q);
  const n = a.split(/\s+/)[0]?.toLowerCase() ?? '';
  const count = NUMBER_WORDS.get(n) ?? (/^\d+$/.test(n) ? Number(n) : n === 'none' ? 0 : undefined);
  if (many?.[1] && count !== undefined) {
    const noun = many[1];
    if (count === 1) return `There is one ${noun.replace(/\S+$/, singular)}.`;
    return `There are ${count === 0 ? 'no' : n} ${noun}.`;
  }

  // "Is there a red circle?" + "No." -> "There is no red circle."
  const exist = /^(is|are)\s+there\s+(.+)$/i.exec(q);
  if (exist?.[1] && exist[2] && yesNo?.[1]) {
    const be = exist[1].toLowerCase();
    const np = exist[2];
    if (yesNo[1].toLowerCase() === 'yes') return `There ${be} ${np}.`;
    const bare = np.replace(/^(?:a|an|any|some)\s+/i, '');
    const plural = isPluralPhrase(bare.split(/\s+/));
    return `There ${plural ? 'are' : be} no ${bare}.`;
  }
  return null;
}
