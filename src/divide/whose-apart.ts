/**
 * "IU, whose real name is Lee Ji-eun, is a South Korean singer-songwriter, record producer, and actress.": a "whose"
 * clause after a name is a fact of its own about that name ("IU's real name is Lee Ji-eun."), and the claim goes on
 * without it ("IU is a South Korean singer-songwriter, ..."), so the role rules can split it as they split a claim with
 * no such clause. The subject stays the name the sentence uses.
 */
const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`;
// A name, ", whose" and a noun phrase with "is"/"was", its complement (no comma, no clause), ", " and a lower-case
// predicate.
const WHOSE = new RegExp(String.raw`^(${WORD}(?: ${WORD}){0,5}), whose ((?:[a-z]+ ){0,2}[a-z]+) (is|was) ([^,]+), ([a-z].+)$`, 'u');

/** The "whose" fact and the claim without it; the claim alone when it has no such clause after a name. */
export function whoseApart(claim: string): string[] {
  const m = claim.includes(', whose ') ? WHOSE.exec(claim) : null;
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined || m[5] === undefined) return [claim];
  if (/\b(?:who|which|that|whose|where|when|and)\b/.test(m[4])) return [claim];
  const owner = /s$/.test(m[1]) ? `${m[1]}'` : `${m[1]}'s`;
  return [`${owner} ${m[2]} ${m[3]} ${m[4]}.`, `${m[1]} ${m[5]}`];
}
