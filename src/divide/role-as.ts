/**
 * "Doug Sheehan is best known for his role as Ben Galvin in the hit television drama series, Knots Landing.": the
 * role and the work it was in are facts apart ("Doug Sheehan is best known for his role as Ben Galvin.", "Doug
 * Sheehan's role as Ben Galvin is in the hit television drama series, Knots Landing."), as FActScore's annotators
 * wrote them (all seven such sentences of the dev biographies' first half state the role alone; "Andrew Shue's role
 * as Billy Campbell was on Melrose Place.").
 */
import { analyzeClause } from './clause.js';
import { articleFor } from './text.js';
import { singularOf } from './titles.js';

// A role named in capitals ("as Deputy Chief Brenda Leigh Johnson"), then the work it was in or on.
// One role only: "roles as A in X, B in Y" is a list the role would swallow.
// A quoted nickname is part of the name ('Corrado "Junior" Soprano').
const ROLE_AS = /^(.+\brole as ((?:["“]?[A-Z][\w'’.-]*["”]?\s)*[A-Z][\w'’.-]*)) (in|on) (.+)\.$/;

const POSSESSIVE: Record<string, string> = { He: 'His', She: 'Her', They: 'Their' };

/** The claim with the role alone and the role played in its work; the claim alone when it names no such role. */
export function roleAsApart(claim: string): string[] {
  if (!claim.includes('role')) return [claim];
  const m = ROLE_AS.exec(claim);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return [claim];
  const clause = analyzeClause(claim);
  const subject = clause?.subject.map((t) => t.raw).join(' ') ?? '';
  // A role the subject is known for: the subject is a name or a pronoun, not "The film".
  if (clause === null || subject === '' || clause.intro.length > 0 || !/^(?:\p{Lu}[\p{L}\p{M}\d'’.-]*\s?)+$|^(?:He|She|They)$/u.test(subject)) return [claim];
  const whose = POSSESSIVE[subject] ?? `${subject}'s`;
  // In the claim's own tense: "is best known for" -> "is in", "was known for" -> "was in".
  const be = clause.verb.word === 'was' || clause.verb.word === 'were' || (clause.verb.kind === 'main' && clause.verb.doWord === 'Did') ? 'was' : 'is';
  return [`${m[1]}.`, `${whose} role as ${m[2]} ${be} ${m[3]} ${m[4]}.`];
}

// "David Wenham is best known for his roles in the films The Lord of the Rings and 300" -> "... best known for his
// role in The Lord of the Rings.", "... for his role in 300.", as the annotators wrote each title (the naming facts
// say what each title is: "300 is a film."). Titles must be plainly listed: two or more, each capitalised, at most
// one "and" in the list ("The Liar and His Lover and When the Devil ..." is ambiguous), none opening with a pronoun
// (an abbreviation may name the kind: "the TV series A and B")
// ("I Love You, Beth Cooper" has a comma inside).
const ROLES_IN = /^(.*\bknown for (?:his|her|their) )(roles|performances|appearances) in the ((?:\d{4}s? )?(?:(?:[a-z]+|[A-Z]{2,4}) ){0,2}(?:films?|series|dramas?|movies?|shows?|sitcoms?)) (.+?)\.?$/;
const KIND_LEAD = /^the ((?:\d{4}s? )?(?:(?:[a-z]+|[A-Z]{2,4}) ){0,2}(?:films?|series|dramas?|movies?|shows?|sitcoms?)) /;

/** One claim per title of "known for his roles in the films A, B and C"; the claim alone otherwise. */
export function rolesInApart(claim: string): string[] {
  const m = claim.includes('known for') ? ROLES_IN.exec(claim) : null;
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined || (m[4].match(/\band\b/g) ?? []).length > 1) return [claim];
  // Each title with its kind: the list's, or its own ("..., and the film American Pie").
  let kind = m[3];
  const items = m[4].split(/,\s*(?:and\s+)?|\s+and\s+/).map((x) => {
    const own = KIND_LEAD.exec(x);
    if (own?.[1] !== undefined) kind = own[1];
    return { title: x.replace(KIND_LEAD, '').trim(), kind: singularOf(kind) };
  });
  const plain = (x: string): boolean => /^["“]?[A-Z0-9]/.test(x) && x.split(/\s+/).length <= 8 && (x.match(/["“”]/g) ?? []).length === (/^["“]/.test(x) ? 2 : 0) && !/^["“]?(?:I|You|We|He|She|They|His|Her|Their|My|Your|When)\b/.test(x);
  // A title quoted whole or not at all: "Without the films \"Rush Hour 2\"" is a garbled list, not a title.
  if (items.length < 2 || !items.every((x) => plain(x.title))) return [claim];
  const one = m[2].replace(/s$/, '');
  // What each title is, too: the naming facts miss titles with a number ("300", "Airport 1975"); the same fact
  // from both is asked once.
  // A quoted title the naming facts name already, with its own span ("Kingdom is a TV series.").
  const named = items.filter((x) => !/^["“]/.test(x.title));
  return [...items.map((x) => `${m[1]}${one} in ${x.title}.`), ...named.map((x) => `${x.title} is ${articleFor(x.kind)} ${x.kind}.`)];
}

// "best known for his roles as Corrado Soprano on the HBO series The Sopranos, Johnny Ola in The Godfather Part II,
// and Leander in Boardwalk Empire": each role with its work is one claim ("... for his role as Johnny Ola in The
// Godfather Part II."), which roleAsApart then parts as for a single role. Without this the list split shared the
// first role's words with the others ("... as Corrado Soprano on Johnny Ola in The Godfather Part II.").
const ROLES_AS = /^(.*\b(?:his|her|their) )roles as (.+?)\.?$/;
// A role named in capitals (quoted nicknames inside: 'Corrado "Junior" Soprano'), then "in" or "on" and its work.
const ROLE_IN_WORK = /^(?:["“]?[A-Z][\w'’.-]*["”]?\s)*?["“]?[A-Z][\w'’.-]*["”]? (?:in|on) (?:the\s+)?["“]?[A-Z0-9a-z]/;

/** One text per role of a "roles as A in X, B in Y" list; the text alone otherwise. */
export function rolesAsListApart(text: string): string[] {
  const m = text.includes('roles as ') ? ROLES_AS.exec(text) : null;
  if (m === null || m[1] === undefined || m[2] === undefined) return [text];
  const items = m[2].split(/,\s*(?:and\s+)?|\s+and\s+(?=["“]?[A-Z])/);
  if (items.length < 2 || !items.every((x) => ROLE_IN_WORK.test(x) && (x.match(/["“”]/g) ?? []).length % 2 === 0)) return [text];
  return items.map((x) => `${m[1]}role as ${x}.`);
}
