/** A person's roles and nationality as facts of their own, as FActScore's annotators wrote them. */
import { NAME_PARTICLES, PREPOSITIONS } from './lexicon.js';
import { articleFor } from './text.js';
import { hasPrepPair } from './prep-pair.js';

// "Lanny Flaherty is an American actor, director and producer." -> ... is an American actor. / ... is a director. /
// ... is a producer.: each role is a fact, as FActScore's annotators wrote them. A named or pronoun subject only, and
// every item a bare noun phrase ("best known for ...", "who ..." are not roles).
// A name may hold accented letters and lower-case particles ("Baltasar Corrada del Río", "Thijs van Leer").
const NAME = String.raw`(?:\p{Lu}[\p{L}\p{M}\d'’.-]*\s+(?:(?:${[...NAME_PARTICLES].join('|')})\s+)?){0,5}\p{Lu}[\p{L}\p{M}\d'’.-]*`;
// What ROLES, TITLED_NAME and NATIONALITY all need: a cheap test that rules most claims out.
const IS_WAS = /\s(?:is|was)\s/;
const ROLES = new RegExp(String.raw`^(${NAME}|He|She)\s+(is|was)\s+(an?|the)\s+(.+?)\.?$`, 'u');
const NOT_ROLE = /^(?:best|well|known|who|which|that|born|having|also|most|one|based|currently|widely|perhaps|as|in|on|at|from|with|for|by|since)\b|\b(?:[a-z]+ed|[a-z]+ing|is|was|has|have)\b/;

// "William Waldegrave, Baron Waldegrave of North Hill, is a British politician": the title is a fact of its own.
const TITLED_NAME = new RegExp(String.raw`^(${NAME}),\s+((?:Baron|Baroness|Lord|Lady|Sir|Dame|Earl|Countess|Viscount)\s[^,]{2,60}),\s+(is|was)\s+(.+)$`, 'u');
// "a former columnist with The Globe and Mail and the author of five books": roles with their own phrases, each
// with its article, or after a title's name ("Deputy Prime Minister of Australia and leader of the National Party").
const PHRASE_ROLES = /,?\s+and\s+(?=(?:an?|the)\s+[a-z])|(?<=\s[A-Z][\w'’-]*|^(?:(?!\s(?:of|for|in|at|with|from|on|to|by|as)\s)[^,])*)\s+and\s+(?=[a-z]+[^s\s]\s+(?:of|for|at|with)\s)/;
// Roles that take their organisation's phrase: "the founder and director of X" is the founder of X.
const SHARES_PHRASE = /^(?:co-?)?(?:founder|director|owner|president|chairman|chair|ceo|editor|publisher|creator|head|manager|chief executive|patron|member|leader|friend|student)$/i;

/** "X is an American actor, director and producer." -> one claim per role. */
export function rolesApart(claim: string): string[] {
  // Every pattern here needs "is" or "was" between spaces: without one, skip their backtracking name groups.
  if (!IS_WAS.test(claim)) return [claim];
  const titled = TITLED_NAME.exec(claim);
  if (titled && titled[1] !== undefined && titled[2] !== undefined && titled[3] !== undefined && titled[4] !== undefined) {
    return [`${titled[1]} ${titled[3]} ${titled[2]}.`, ...rolesApart(`${titled[1]} ${titled[3]} ${titled[4]}`)];
  }
  const m = ROLES.exec(claim);
  if (!m || m[1] === undefined || m[4] === undefined || /^(?:There|It|This|That|These|Those|They)$/.test(m[1])) return [claim];
  // A fixed pair is one role: "a track and field athlete".
  if (/\b(?:track and field|rhythm and blues|rock and roll|drum and bass|song and dance)\b/i.test(m[4])) return [claim];
  // Two prepositions share one object: "a hard worker on and off the field" (prep-pair.ts).
  if (hasPrepPair(m[4])) return [claim];
  // The last role's own phrase is not split: "an architect, urban planner, and professor of Architecture and Urban
  // Planning at the University of Florence" -> the professor's "of ... at ..." whole.
  const tail = /\s(?:of|at|for|in|with|from|on)\s(?![^,]*\s(?:and|or)\s+(?:an?|the)\s)[^,]*$/.exec(m[4]);
  const head = tail && /,/.test(m[4].slice(0, tail.index)) ? m[4].slice(0, tail.index) : m[4];
  const items = head.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map((x) => x.replace(/^(?:an?|the)\s+/, ''));
  if (head !== m[4]) items[items.length - 1] += m[4].slice(head.length);
  if (items.length < 2 || items.some((x) => x === '' || x.split(/\s+/).length > 14) || items.slice(1).some((x) => NOT_ROLE.test(x))) return phraseRoles(m[1], m[2] ?? 'is', m[3] ?? 'a', m[4]) ?? [claim];
  // One person's roles: singular nouns, the later ones lower-case, a phrase after a role only on the last
  // ("advocate for diversity, equity and inclusion" and "roles in A, B and C" are one role's objects).
  const plural = (x: string): boolean => /[^su]s$/.test(x.replace(/\s*\(.*\)$/, '').split(/\s+/).pop() ?? '');
  if (items.some((x) => !/\s(?:of|for|in|at|with|from|on)\s/.test(x) && plural(x)) || items.slice(1).some((x) => /^[A-Z][a-z]/.test(x))
    || items.slice(0, -1).some((x) => /\s(?:of|for|in|at|with|from|on|to|by)\s/.test(x))) return phraseRoles(m[1], m[2] ?? 'is', m[3] ?? 'a', m[4]) ?? [claim];
  const shared = sharedHead(items);
  if (shared !== null) items[0] = `${items[0]} ${shared}`;
  // Shared words go to every role, as the annotators wrote them: "an award-winning director and producer" -> "an
  // award-winning producer"; "the founder and CEO of X" -> "the founder of X".
  const first = items[0]!.split(/\s+/);
  const mods = first.length > 1 ? `${first.slice(0, -1).join(' ')} ` : '';
  const of = items.length === 2 ? /\s(of\s.+)$/.exec(items[1]!)?.[1] : undefined;
  const full = items.map((x, k) => {
    if (k === 0) return of !== undefined && first.length <= 2 && SHARES_PHRASE.test(first[first.length - 1]!) ? `${x} ${of}` : x;
    return x.includes(' ') ? x : `${mods}${x}`;
  });
  return full.map((x, k) => `${m[1]} ${m[2]} ${k === 0 || m[3] === 'the' ? m[3] : articleFor(x)} ${x}.`);
}

// A role names a person by what they do: an agent noun ("singer", "actor", "journalist", "politician", "actress").
const AGENT = /(?:er|or|ist|ian|ess|ant|ent|ee|eur|man|woman|ic|at|ete|ar|et|ef|ot|ive|ary)$/;
const ADJECTIVE_LIKE = /[a-z](?:ed|ly|al|ous|ful|ble|ique|ish|less|y)$/;

// "a private equity and real estate investment firm", "an American stage and film actress", "a highly respected and
// influential figure in ...": a first part that is no agent noun (a field, an adjective) modifies the last part's
// head, which both share ("a private equity firm"); "an actor and film producer" is two roles. The head and what
// follows it, or null when the first part stands alone.
function sharedHead(items: readonly string[]): string | null {
  if (items.length !== 2) return null;
  const firstWords = items[0]!.split(/\s+/);
  const last = items[1]!.split(/\s+/);
  const prep = last.findIndex((w) => /^(?:of|for|in|at|with|from|on|to|by)$/.test(w));
  const h = (prep < 0 ? last.length : prep) - 1;
  // Lower-case words, but a nationality may open the first part ("an American stage and film actress").
  const lower = (ws: readonly string[]): boolean => ws.every((w) => /^[a-z][a-z-]*$/.test(w));
  const end = firstWords[firstWords.length - 1]!;
  if (h < 1 || firstWords.length > 3 || !lower(firstWords.slice(1)) || !/^[A-Za-z]/.test(firstWords[0]!) || !lower(last.slice(0, h + 1))) return null;
  if (AGENT.test(end) || PREPOSITIONS.has(end)) return null;
  // A phrase after the head ("a deathgrind supergroup and side project of X") is shared by an adjective only ("a
  // highly respected and influential figure in ..."): a noun before it may be a thing of its own.
  if (prep >= 0 && !ADJECTIVE_LIKE.test(end)) return null;
  return last.slice(h).join(' ');
}

function phraseRoles(subject: string, be: string, article: string, roles: string): string[] | null {
  // Without " and " there is nothing to split: skip the costly look-behind pattern (it tries every position).
  if (!/\sand\s/.test(roles)) return null;
  const split = roles.split(PHRASE_ROLES);
  const items = split.map((x) => x.replace(/^(?:an?|the)\s+/, ''));
  if (items.length < 2 || items.some((x) => x.split(/\s+/).length > 14 || /,/.test(x)) || items.slice(1).some((x) => NOT_ROLE.test(x))) return null;
  const articles = split.map((x, k) => /^(?:an?|the)\s/.exec(x)?.[0].trim() ?? (k === 0 ? article : 'the'));
  // "the founder and director of X": a bare first role shares the next one's phrase; "former" goes to each role.
  const phrase = /\s((?:of|for|at|with)\s.+)$/.exec(items[1]!)?.[1];
  if (phrase !== undefined && SHARES_PHRASE.test(items[0]!)) items[0] = `${items[0]} ${phrase}`;
  const former = /^former\s/.test(items[0]!) ? 'former ' : '';
  const bare = roles.split(PHRASE_ROLES).map((x) => !/^(?:an?|the)\s/.test(x));
  return items.map((x, k) => {
    const role = k > 0 && bare[k] && !x.startsWith('former ') ? `${former}${x}` : x;
    return `${subject} ${be} ${articles[k] === 'the' ? 'the' : articleFor(role)} ${role}.`;
  });
}

// "Paul O'Neill was a British racing driver." -> "Paul O'Neill was British." / "Paul O'Neill was a racing driver.":
// a nationality is a fact of its own, as FActScore's annotators wrote it ("Doug Sheehan is an American."). A named
// or he/she subject and a capitalised adjective before a lower-case role only, so the shapes world has none.
// Two words make one nationality too: "Puerto Rican", "South Korean".
const NATIONALITY = new RegExp(String.raw`^(${NAME}|He|She)\s+(is|was)\s+(?:an?|the)\s+((?:(?:Puerto|South|North|New|Sri|Costa|Saudi|Latin)\s+)?[A-Z][a-z]+(?:-[A-Z][a-z]+)*(?:an|ian|ese|ish|i|ch|sh|ic))\s+([a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}.*?)\.?$`, 'u');

/** "Paul O'Neill was a British racing driver." -> "... was British." / "... was a racing driver." */
export function nationalityApart(claim: string): string[] {
  const m = IS_WAS.test(claim) ? NATIONALITY.exec(claim) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  // "a French citizen", "a Nigerian national": the noun says the nationality again; one fact, not "She is a citizen."
  if (/^(?:citizen|national|native|resident)$/.test(m[4])) return [claim];
  return [`${m[1]} ${m[2]} ${m[3]}.`, `${m[1]} ${m[2]} ${articleFor(m[4])} ${m[4]}.`];
}

// One copy of each claim of a piece that rules made twice ("He is American." from each of his roles).
/** One copy of a claim that rules made twice ("He is American." from each role). */
export function once(claims: string[]): string[] {
  return claims.filter((c, k) => !/^\S.*\s(?:is|was)\s[A-Z][a-z-]+\.$/.test(c) || claims.indexOf(c) === k);
}

// "Eliza Dushku is an American actress, model, and producer best known for her roles in A, B and C": what someone is
// and what they are known for are facts apart ("Eliza Dushku is best known for her roles in A."), so the roles
// split as roles and the works as objects, as the annotators wrote them.
const KNOWN = new RegExp(String.raw`^(${NAME}|He|She|They)\s+(is|was|are|were)\s+((?:an?|the)\s+(?:(?!known\b)[^,])+?(?:,\s+(?:(?!known\b)[^,])+?)*),?\s+((?:(?:best|well|widely|most|perhaps best|also)\s+)?known\s+(?:for|as)\s.+)$`, 'u');

/** "X is an American actor best known for Y" -> "X is an American actor." / "X is best known for Y". */
export function knownApart(text: string): string[] {
  // Most statements say no "known": skip the regex, whose nested groups backtrack on long sentences.
  const m = text.includes(' known ') ? KNOWN.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [text];
  // ", best known for": the adverb the roles' last comma took belongs to "known".
  const adverb = /,?\s+((?:perhaps\s+)?(?:best|well|widely|most|also))$/.exec(m[3]);
  const roles = adverb ? m[3].slice(0, adverb.index) : m[3];
  return [`${m[1]} ${m[2]} ${roles}.`, `${m[1]} ${m[2]} ${adverb ? `${adverb[1]} ` : ''}${m[4]}`];
}
