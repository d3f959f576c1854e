/**
 * Claims that stand alone before a labeler: a leading he, she or they becomes whom it means, as the annotators
 * wrote their facts ("Neumann was elected in 2007.", "The man is wearing a tie.").
 */
import { claimToQuestion } from './question.js';
import type { Sentence } from './segment.js';

interface Claim { claim: string; question: string; start: number }

// The people a picture's he, she or they mean: the last such noun before the claim. Only people: the shapes
// world's "it" and "they" (shapes) stay as they are.
const REFERENTS: Record<string, RegExp> = {
  he: /\b(man|boy|guy|gentleman|father|husband|player|skateboarder|surfer|skier|rider|chef|person)\b/gi,
  she: /\b(woman|girl|lady|mother|wife|player|skateboarder|surfer|skier|rider|chef|person)\b/gi,
  they: /\b(people|men|women|children|kids|boys|girls|players|friends|couple|family|group of people)\b/gi,
};
// The pronoun at the start of a claim, after at most a short fronted phrase ("In 2007, he ...").
const LEADING = /^((?:[^,]{1,40},\s+)?)(he|she|they)\b/i;

// The name a biography opens with as its subject ("Shayne Neumann is ..."), by surname: the annotators mostly wrote
// "Neumann completed ...", and the full name would make claims long. Undefined when the answer opens otherwise.
function openingName(sentences: readonly Sentence[]): string | undefined {
  const toks = sentences[0]?.tokens ?? [];
  let n = 0;
  while (n < toks.length && n < 5 && toks[n]!.pos === 'PROPN' && /^[A-Z]/.test(toks[n]!.text)) n++;
  const next = toks[n];
  if (n === 0 || next === undefined || !(next.pos === 'AUX' || next.pos === 'VERB' || next.text === '(' || next.text === ',')) return undefined;
  return toks[n - 1]!.text;
}

/** Replace each claim's leading he/she (by the opening name) or he/she/they (by the last person noun before it). */
export function namePronouns<C extends Claim>(answer: string, sentences: readonly Sentence[], claims: C[]): void {
  const name = openingName(sentences);
  claims.forEach((c, k) => {
    const m = LEADING.exec(c.claim);
    if (!m) return;
    const lead = m[1] ?? '';
    const pronoun = m[2]!.toLowerCase();
    let who: string | undefined;
    if (name !== undefined) who = pronoun === 'they' ? undefined : name;
    else {
      const nouns = [...answer.slice(0, c.start).matchAll(REFERENTS[pronoun]!)];
      const noun = nouns[nouns.length - 1]?.[1]?.toLowerCase();
      if (noun !== undefined) who = `${lead === '' ? 'The' : 'the'} ${noun}`;
    }
    if (who === undefined) return;
    const claim = `${lead}${who}${c.claim.slice(m[0].length)}`;
    const question = claimToQuestion(claim);
    if (question !== null) claims[k] = { ...c, claim, question };
  });
}
