/**
 * "John Adam Estes, also known as Sleepy John Estes, was an American blues guitarist, songwriter, and vocalist.": a
 * name's other name between commas before the verb is a fact of its own ("John Adam Estes was also known as Sleepy
 * John Estes."), and the statement goes on without it ("John Adam Estes was an American blues guitarist, ..."), so
 * the rest is divided as any statement is; on statements over 15 words only (short ones say it in one claim the
 * annotators' facts match whole, under either name). FActScore's annotators wrote them so ("John Adam Estes was also known as
 * Sleepy John Estes.", "Moses Anthony Davis is known by his stage name Beenie Man.", "Botak Chin is also known as
 * Chin Peng."). clauses.ts does the same for a bracket ("Ramesses IV (also known as Ramses) was ...").
 */

import { isLong } from './long.js';

// A name: capitalised words, with the lower-case particles of names between them ("Manuel Francisco dos Santos").
const NAME = String.raw`\p{Lu}[\p{L}'’.-]*(?: (?:\p{Lu}[\p{L}'’.-]*|de|da|do|dos|das|del|della|di|du|la|le|van|von|der|den|bin|ibn|al|el|y))*`;
// The other name: "(also|better|...) known as/by X" up to the next comma, then a form of "be" as the statement's verb.
const AKA = new RegExp(String.raw`^(${NAME}), ((?:(?:also|better|commonly|often|popularly|professionally|simply|mostly|more commonly|widely) )?known (?:as|by) [^,()]+), (is|was|are|were) (.+)$`, 'u');

/** The name's other name and the statement without it, on statements over 15 words; the statement alone otherwise. */
export function akaApart(text: string): string[] {
  if (!isLong(text) || !text.includes(' known ')) return [text];
  const m = AKA.exec(text);
  if (m === null) return [text];
  const [, name = '', known = '', be = '', rest = ''] = m;
  // Two other names ("also known as Y.S. Jagan or mononymously Jagan"): the annotators went on with one of them
  // ("Jagan is an Indian entrepreneur."), which the statement does not say; it stays whole.
  if (/ or /.test(known)) return [text];
  // A stage name is the name the statement goes on with ("Beenie Man is a Jamaican Dancehall deejay.").
  const stage = /^(?:\w+ )*known by (?:his|her|their) stage name (.+)$/.exec(known);
  // The verb's adverb goes after it ("was also known as"), as the annotators wrote it.
  const alias = known.replace(/^((?:\w+ )*)known/, (_, adv: string) => `${be} ${adv}known`);
  // A quotation cut open by the comma leaves the statement whole.
  if ((alias.match(/["“”]/g) ?? []).length % 2 === 1) return [text];
  return [`${name} ${alias}.`, `${stage?.[1] ?? name} ${be} ${rest}`];
}
