/**
 * "Lord Smith serves as Chancellor of the University of Strathclyde and Chair of the British Business Bank.": two
 * roles, each with its own phrase, are two facts ("Smith serves as Chancellor of the University of Strathclyde.",
 * "Smith serves as Chair of the British Business Bank."), as FActScore's annotators wrote them. rolesApart splits
 * "is a X and the Y of Z" (roles with articles); this takes the roles without one, after "served as" or a copula
 * ("was also chair of X and Goodwill Ambassador for Y"), on long claims only.
 */
import { PREPOSITIONS } from './lexicon.js';
import { isLong } from './long.js';

// The subject (a name or a pronoun, no comma) and the verb that names a role: a copula or "serve as".
const HEAD = /^((?:[A-Z][\p{L}\p{M}'’.-]*|of|de|del|da|van|von|bin)(?: (?:[A-Z][\p{L}\p{M}'’.-]*|of|de|del|da|van|von|bin)){0,5}|He|She) ((?:(?:has|had|have|is|was) )?(?:also |currently |later |previously )?(?:serves|served|serving) as|(?:is|was|has been|had been|became)(?: also)?) (.+)$/u;
// A role: up to four words, the last one an agent noun ("Chancellor", "chairman", "Goodwill Ambassador", "founding
// contributor", "member"), then its phrase.
// No preposition, article or conjunction inside it, so the first "of" after the role opens its phrase.
const WORD = String.raw`(?!(?:of|for|at|to|in|on|with|by|from|and|or|the|a|an|as)\b)[A-Za-z][A-Za-z-]*`;
const ROLE = String.raw`(?:(?:the|a|an) )?${WORD}(?: ${WORD}){0,3}`;
const AGENT = /(?:er|or|ist|ian|[^m]ent|ary|man|woman|chair|ess)$/i;
const PAIR = new RegExp(String.raw`^(${ROLE}) (of|for|at|to) ([^,;]+?) and (${ROLE}) (of|for|at|to|in) (.+?)\.?$`);
// A time phrase after the second role's object says when both were held ("served as A of X and B of Y from 2019 to
// 2020"): it goes to each role.
const TIME_TAIL = /^(.*?)((?:,? (?:from|since|until|between|during|in) (?:(?:the )?(?:early |late |mid-)?\d{4}|[A-Z][a-z]+ \d{4})\b.*))$/;

/** One claim per role of "served as A of X and B of Y"; the claim alone otherwise. */
export function rolePairsApart(claim: string): string[] {
  if (!claim.includes(' and ') || !isLong(claim)) return [claim];
  const h = HEAD.exec(claim);
  if (h === null || h[1] === undefined || h[2] === undefined || h[3] === undefined) return [claim];
  const p = PAIR.exec(h[3]);
  if (p === null || p[1] === undefined || p[2] === undefined || p[3] === undefined || p[4] === undefined || p[5] === undefined || p[6] === undefined) return [claim];
  const [role1, prep1, obj1, role2, prep2, rest2] = [p[1], p[2], p[3], p[4], p[5], p[6]];
  const bare = (r: string): string => r.replace(/^(?:the|a|an) /, '');
  // Both roles agent nouns; the first role's object more than one word ("Minister for Women and Child Development"
  // is one role) and no list or clause of its own.
  // The first role's object without its own time span ("the National Party from 1990 to 1999").
  const core = obj1.replace(/ (?:from|since|until|in) \d{4}(?: (?:to|until|-|–) \d{4})?$/, '');
  const hasTime = core !== obj1;
  if (!AGENT.test(bare(role1)) || !AGENT.test(bare(role2)) || core.split(' ').length < 2 || /\b(?:and|or|who|which|that|where|when)\b/.test(obj1)) return [claim];
  // A name that goes on across "and" ("the Minister of State for Social Justice and Empowerment"): the first role's
  // object holds no phrase but "of", and before a role in capitals it ends in a capitalised name of its own.
  if (core.split(' ').some((w) => w !== 'of' && PREPOSITIONS.has(w))) return [claim];
  if (/^(?:[A-Z]|(?:the|a|an) [A-Z])/.test(role2) && !/[A-Z][\p{L}\p{M}'’.)-]*$/u.test(core)) return [claim];
  const t = TIME_TAIL.exec(rest2);
  const tail = t !== null && t[2] !== undefined && !hasTime ? t[2] : '';
  const first = `${h[1]} ${h[2]} ${role1} ${prep1} ${obj1}${tail}.`;
  const second = `${h[1]} ${h[2]} ${role2} ${prep2} ${rest2}.`;
  return [first, second];
}
