/**
 * ", as well as Y": one more item of what the clause lists, a fact of its own ("Kadokura is known for his unique blend
 * of electronic and rock music, as well as his experimentation with genres" -> "Kadokura is known for his
 * experimentation with genres."), as the annotators wrote it. The item takes the place its form fits. Also the other
 * text-level item splits of a piece: "his A and his B", "both X and Y", a list of years, "served as A, B and C".
 */
import { analyzeClause } from './clause.js';
import { DETERMINERS, PREPOSITIONS } from './lexicon.js';
import { articleFor, joinTokens, stripTrailingPunct, tokenize } from './text.js';

const SPLIT = /,\s+as well as\s+/;
const POSSESSIVE_WORDS = new Set(['his', 'her', 'its', 'their']);

/** The clause before ", as well as Y", and Y in the place that fits it; the text alone when there is none. */
export function asWellAsApart(text: string): string[] {
  const m = SPLIT.exec(text);
  if (!m) return [text];
  const left = text.slice(0, m.index);
  const right = stripTrailingPunct(text.slice(m.index + m[0].length));
  const clause = analyzeClause(left);
  const item = tokenize(right);
  const first = item[0]?.word ?? '';
  if (clause === null || clause.verb.fromRelative || item.length === 0 || SPLIT.test(right)) return [text];
  const { tokens, verbIndex } = clause;
  let cut = -1;
  if (/^[a-z]{3,}ing$/.test(first)) {
    // "constructing temples ..., as well as restoring monuments": a second verb of the same auxiliary.
    if (clause.verb.kind !== 'aux') return [text];
    cut = verbIndex + 1;
  } else if (PREPOSITIONS.has(first)) {
    // "for his involvement in X, as well as for his connections": the same preposition's place.
    const at = tokens.findIndex((t, k) => k > verbIndex && t.word === first);
    if (at < 0) return [text];
    cut = at;
  } else if (DETERMINERS.has(first) || /^[A-Z]/.test(item[0]?.raw ?? '')) {
    // "known for his unique blend ..., as well as his experimentation", "his roles in the films A and B, as well as
    // the series C": after the last preposition that opens a phrase of the same kind.
    let at = -1;
    // A possessed item ("his mastery of light") takes a possessed phrase's place ("for his unique blend"); with none,
    // a main verb's object ("The painting showcases the artist's ability to capture the beauty of the human form, as
    // well as his mastery of light" -> "The painting showcases his mastery of light.", not "... the beauty of his
    // mastery of light.").
    const possessed = POSSESSIVE_WORDS.has(first);
    // Not inside a name ("The Lord of the Rings").
    const opens = (k: number): boolean => (possessed ? POSSESSIVE_WORDS : DETERMINERS).has(tokens[k + 1]?.word ?? '') && !/^[A-Z]/.test(tokens[k - 1]?.raw ?? '');
    // Not inside a quoted title either ('the TV series "Without a Trace"': "Without" opened no phrase of the clause).
    let quoted = false;
    tokens.forEach((t, k) => {
      if (/^["“]/.test(t.raw)) quoted = true;
      // "is remembered as a skilled lawyer, as well as a tireless defender of ...": "as" opens a role's phrase.
      if (!quoted && k > verbIndex && (PREPOSITIONS.has(t.word) || t.word === 'as') && opens(k)) at = k;
      if (/["”][.,;:!?]*$/.test(t.raw) && !(/^["“]/.test(t.raw) && t.raw.length === 1)) quoted = false;
    });
    if (at < 0 && possessed && clause.verb.kind === 'main' && DETERMINERS.has(tokens[verbIndex + 1]?.word ?? '')) at = verbIndex;
    if (at < 0) return [text];
    cut = at + 1;
  } else if (/^[a-z]{3,}s$/.test(first) && clause.verb.kind === 'main' && /^[a-z]{3,}s$/.test(tokens[verbIndex + 1]?.word ?? '')) {
    // "initiated programs to protect ..., as well as campaigns to promote ...": a bare plural object's place.
    cut = verbIndex + 1;
  } else {
    return [text];
  }
  return [`${left}.`, `${joinTokens(tokens.slice(0, cut))} ${right}.`];
}

// "known for his hardworking style and his midfield leadership": two possessed things after one preposition, one
// fact each ("... known for his midfield leadership."), as the annotators wrote them. The first has no list in it.
const POSSESSIVES = /^(.*\b(?:for|of|on|with|about)\s+)((?:his|her|their)\s+[^,]+?),?\s+and\s+((?:his|her|their)\s+.+?)\.?$/;

/** "S is known for his A and his B." -> "S is known for his A." / "S is known for his B." */
export function possessivesApart(text: string): string[] {
  const m = text.includes(' and ') ? POSSESSIVES.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || / and /.test(m[2])) return [text];
  return [`${m[1]}${m[2]}.`, `${m[1]}${m[3]}.`];
}

// "a successful acting career in both New Zealand and Australia", "books for both adults and children": "both" joins
// two things each true on its own. Two names or two single words at the end of the claim only ("both track and road
// cycling" shares its noun; "both the literary and journalistic worlds" shares its article).
const BOTH = /^(.*\s)both\s+([^,]+?)\s+and\s+([^,]+?)\.?$/;
const bothItem = (x: string): boolean => /^[a-z]+$/.test(x) || /^[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}$/.test(x);

/** "S played for both Somerset and England." -> "S played for Somerset." / "S played for England." */
export function bothApart(text: string): string[] {
  const m = text.includes(' both ') ? BOTH.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined || !bothItem(m[2]) || !bothItem(m[3])) return [text];
  return [`${m[1]}${m[2]}.`, `${m[1]}${m[3]}.`];
}

// "won three AFL premierships with the club, in 2007, 2009 and 2011", "in 2011 and 2012 with the club": a year each, one fact each, as the
// annotators wrote them (a list's parts would otherwise cut "He won 2011." off it).
const YEARS = /^(.*?),?\s+in\s+((?:\d{4},\s+)*\d{4}),?\s+and\s+(\d{4})((?:\s+(?:with|for|at|in|on)\s+[^,]+?)?)\.?$/;

/** "S won X in 2007, 2009 and 2011." -> "S won X in 2007." / ... in 2009. / ... in 2011. */
export function yearsApart(text: string): string[] {
  const m = /\d{4},? and \d{4}/.test(text) ? YEARS.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined) return [text];
  // "won two Ligue 1 titles in 2011 and 2012 with the club": a phrase after the years goes with each.
  return [...m[2].split(/,\s+/), m[3]].map((y) => `${m[1]} in ${y}${m[4] ?? ''}.`);
}

// "served as lead singer, songwriter, and producer", "serving as a commentator and pundit for the BTCC", "worked as a
// clerk for X and as a legal advisor to Y": each role one fact, the last one's phrase shared, as the annotators
// wrote them ("O'Neill served as a pundit for the BTCC.").
// Also a performance or a role as A and as B ("best known for his performances as Han Solo in the original Star Wars
// trilogy and as the title character of the Indiana Jones film series").
const AS_ROLES = /^(.*?\b(?:served|serves|serving|worked|works|working|performances?|portrayals?|roles?)\s+as\s+)(.+?)\.?$/;
const ROLE_PHRASE = /\s((?:of|for|at|with|on|to|in)\s.+)$/;

/** "S served as A, B and C of X." -> "S served as A of X." / ... as B of X. / ... as C of X. */
export function asRolesApart(text: string): string[] {
  const m = text.includes(' as ') ? AS_ROLES.exec(text) : null;
  if (!m || m[1] === undefined || m[2] === undefined) return [text];
  const again = m[2].split(/,?\s+and\s+as\s+/);
  if (again.length === 2) return again.map((r) => `${m[1]}${r}.`);
  // A performance's or a role's "as" takes the "and as" split only (its list of names is roles.ts's and role-as.ts's).
  if (!/\b(?:served|serves|serving|worked|works|working)\s+as\s+$/.test(m[1])) return [text];
  const items = m[2].split(/\s*,\s*(?:and\s+)?|\s+and\s+/);
  const last = items[items.length - 1] ?? '';
  const phrase = ROLE_PHRASE.exec(last);
  items[items.length - 1] = phrase ? last.slice(0, phrase.index) : last;
  // Nouns only: "worked as a model and released a cookbook" joins a predicate, not a role.
  const role = (x: string): boolean => /^(?:(?:an?|the)\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}$/.test(x)
    && !/\b(?:and|or|his|her|their|well|such|part|one|many|much|has|have|had|is|was|were|are)\b|^(?:(?:an?|the)\s+)?[a-z]+(?:ed|ing|ly)\b/.test(x);
  if (items.length < 2 || !items.every(role)) return [text];
  // "a transport rider and shopkeeper": the first role's article goes to each.
  const article = /^(an?)\s/.exec(items[0]!)?.[1];
  return items.map((x, k) => {
    const r = k > 0 && article !== undefined && !/^(?:an?|the)\s/.test(x) ? `${articleFor(x)} ${x}` : x;
    return `${m[1]}${r}${phrase ? ` ${phrase[1]}` : ''}.`;
  });
}
