/**
 * A participle inside the subject: "A woman wearing a red dress is walking her dog on a leash." says two things of the
 * woman, as the annotators of real answers wrote them ("The woman is wearing a red dress.", "The woman is walking her
 * dog."). The clause cutter takes participles off only after the main verb (", eating leaves"); one between the
 * subject's noun and the main verb stayed in the claim, which the labeler then had to judge whole.
 */
import { isPlainPart, part as makePart, type Part } from './clause-draft.js';
import type { Tok } from './nlp.js';
import { pluralHead } from './noun-phrase.js';

// The longest participle phrase taken off ("wearing a red dress and a hat" is 7 tokens): a longer run before the
// main verb is more likely a clause the tagger misread than a phrase about the noun.
const MAX_PHRASE = 10;

/**
 * The part as two, the participle's ("A woman is wearing a red dress") and the main clause's ("A woman is walking her
 * dog on a leash."), or the part itself. Only at the part's start, on "a/the/two ... noun" then an -ing verb, up to
 * the main clause's auxiliary with no comma on the way.
 */
export function subjectParticipleApart(part: Part, toks: readonly Tok[], answer: string): Part[] {
  if (part.skip !== undefined) return [part];
  let i = toks.findIndex((t) => t.start >= part.start);
  const first = i;
  if (i < 0 || !['DET', 'NUM'].includes(toks[i]!.pos) || toks[i]!.lower === 'this' || toks[i]!.lower === 'that') return [part];
  i++;
  while (toks[i]?.pos === 'ADJ') i++;
  if (toks[i]?.pos !== 'NOUN') return [part];
  while (toks[i + 1]?.pos === 'NOUN') i++;
  const head = toks[i]!;
  const ing = toks[i + 1];
  if (ing === undefined || ing.pos !== 'VERB' || !/^[a-z]+ing$/.test(ing.text) || ing.end > part.end) return [part];
  let v = i + 2;
  while (v < toks.length && v - i - 1 <= MAX_PHRASE && toks[v]!.end <= part.end && toks[v]!.pos !== 'AUX') {
    if (toks[v]!.pos === 'PUNCT' || toks[v]!.pos === 'VERB' || toks[v]!.pos === 'SCONJ') return [part];
    v++;
  }
  const aux = toks[v];
  // Last, as the dearest test: most parts have failed one of the token tests above.
  if (aux === undefined || aux.pos !== 'AUX' || aux.end > part.end || v === i + 2 || !isPlainPart(part, answer)) return [part];
  const np = answer.slice(toks[first]!.start, head.end);
  const phrase = answer.slice(ing.start, toks[v - 1]!.end);
  return [
    makePart(`${np} ${pluralHead(head) ? 'are' : 'is'} ${phrase}`, ing.start, toks[v - 1]!.end),
    makePart(`${np} ${part.text.slice(aux.start - part.start)}`, part.start, part.end, undefined, part.attach),
  ];
}
