/**
 * On claims over 15 words only: one example of what the verb's first phrase names, after "including" or "such as"
 * ("Kadokura has also worked on film soundtracks, including the soundtrack for the popular anime series Cowboy
 * Bebop."; "Guilmant is best known for his contributions to the organ repertoire including his numerous organ
 * symphonies."), takes that phrase's object's place ("Kadokura has also worked on the soundtrack for the popular anime
 * series Cowboy Bebop.", "Guilmant is best known for his numerous organ symphonies."), and the claim goes on without
 * it, as FActScore's annotators wrote them. The examples rules (rules.ts, examples-apart.ts) leave an example this
 * long, or a category with a phrase of its own, whole. One example only: no comma or "and" in it, and no clause.
 */
import { PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';
import { exampleKind } from './naming.js';

const EXAMPLE = /^(.+?),? (?:including|such as) ([^,]+)\.$/;

/** The claim without its example, and the example in its first phrase's place; the claim alone otherwise. */
export function longExampleApart(claim: string): string[] {
  if (!/ including | such as /.test(claim) || !isLong(claim)) return [claim];
  const m = EXAMPLE.exec(claim);
  if (m === null) return [claim];
  const [, main = '', example = ''] = m;
  if (/ and | or | including | such as |\b(?:which|who|that|where|when|whose)\b|^(?:in|on|at|for|as|from|with|by)\b/.test(example) || main.includes(',')) return [claim];
  // The verb's first phrase: the first preposition after the subject (no fronted phrase: "During his stint ...").
  const words = main.split(' ');
  if (PREPOSITIONS.has(words[0]!.toLowerCase())) return [claim];
  const k = words.findIndex((w, i) => i >= 2 && PREPOSITIONS.has(w) && w !== 'of' && w !== 'to' && w !== 'by');
  // A gerund after it ("a key role in introducing changes to ...") is an action: its object is not the example's place.
  if (k < 0 || k >= words.length - 1 || /ing$/.test(words[k + 1]!)) return [claim];
  // "received several awards for his contributions to ..., including the X Award": a counted object before the phrase
  // is what the example is of ("received several awards for the X Award" had been said).
  if (words.slice(2, k).some((w) => /^(?:several|numerous|many|various|multiple|number)$/.test(w))) return [claim];
  // What the example is must stay said: a name gets its kind ("A Child's Garden of Verses is a moving essay."), from
  // the category's plural head before its own phrase; any other example names that head itself ("the soundtrack").
  const category = words.slice(k + 1).join(' ').replace(/ (?:on|in|of|for|about|from|with|at|to) .*$/, '').replace(/^(?:his|her|their|its) /, '');
  const head = /(\w+)s$/.exec(category)?.[1];
  if (head === undefined) return [claim];
  const named = /^["“]?[A-Z0-9]|^the [A-Z]/.test(example);
  const kind = named ? exampleKind(category, example) : null;
  if (named ? kind === null : !new RegExp(String.raw`\b${head}`, 'i').test(example)) return [claim];
  const out = [`${main}.`, `${words.slice(0, k + 1).join(' ')} ${example}.`, ...(kind === null ? [] : [kind])];
  return out.some(isLong) ? [claim] : out;
}
