/**
 * An apposition that ends a claim, after a name: "Moynahan is the mother of a son with Tom Brady, the quarterback for
 * the New England Patriots." says what Tom Brady is, a fact of its own ("Tom Brady is the quarterback for the New
 * England Patriots."), as FActScore's annotators wrote them ("People for Animals is the nation's largest animal
 * welfare organisation."); the claim goes on without it. The name is the run of capitalised words (with "of", "for",
 * "and", "de" inside) before the comma, two words at least, one led by "the" or one after a preposition ("for
 * Proceso, a center-left Mexican news magazine"), with no digit ("on WTAM 1100, a popular talk show" names the show,
 * not the station). The apposition is a noun phrase led by "the", "a" or "an",
 * with no comma, verb or relative word in it, and no comma before the name.
 */
// The name may be a quoted title with the comma inside its quotes ('his film "Jojo Rabbit," a satirical ...'); the
// apposition may end in a place after a comma ("a federal government research university in Zaria, Nigeria").
const END = /^(.+?\b|.+? )((?:the )?[A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|of|for|and|de|la|von|van|\([A-Z]+\)))*,|["“][A-Z][^"“”,]*,["”]) ((?:the|a|an) [^,]+(?:, [A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*)?)\.$/;
const NOT_NP = /\b(?:who|which|that|where|when|whose|is|are|was|were|has|have|had|will|would)\b/;

/** The claim without its closing apposition and what the name is; the claim alone otherwise. */
export function endAppositionApart(claim: string): string[] {
  if (!claim.includes(', ') && !/,["”] /.test(claim)) return [claim];
  const m = END.exec(claim);
  if (m === null) return [claim];
  const [, main = '', nameComma = '', np = ''] = m;
  // The comma after the name, or inside its closing quote: '"Jojo Rabbit,"' is the title "Jojo Rabbit".
  const quoted = /^["“]/.test(nameComma);
  const rawName = quoted ? `"${nameComma.slice(1, -2)}"` : nameComma.slice(0, -1);
  const name = quoted ? nameComma.slice(1, -2) : rawName.replace(/^the /, 'The ');
  const words = name.split(' ');
  // One word is a name after a preposition ("a crime reporter for Proceso, a center-left Mexican news magazine").
  // Not where a list of names may go on after "and" ("He played for Arsenal, a club in London and Chelsea.").
  const single = words.length < 2 && !rawName.startsWith('the ') && !quoted && (!/\b(?:for|at|with|by|from|of|in|on|to) $/.test(main) || / and [A-Z]/.test(np));
  if (/\d/.test(name) || NOT_NP.test(np) || single || /\b(?:of|for|and|de|la|von|van)$/.test(name)) return [claim];
  // A name that opens the claim is its subject, an apposition of another kind (naming.ts); a comma before the name
  // may make it a list's item ("two Screen Actors Guild Awards, a Golden Globe Award, a Critics' Choice Movie Award").
  // "a Golden Globe Award, a Critics' Choice Movie Award": after "a" the capitals name a kind, not one thing.
  if (main.trim() === '' || main.includes(',') || /\b(?:a|an)\s$/i.test(main)) return [claim];
  const be = /\b(?:was|were)\b/.test(main) ? 'was' : 'is';
  return [`${main}${rawName}.`, `${name} ${be} ${np}.`];
}
