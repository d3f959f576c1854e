/**
 * "Fritchie later held various senior positions in the civil service, including as the Chief Executive of the
 * National Lottery Charities Board", "He served in various roles, including as a diplomat in X, the deputy chief of
 * mission in Y, and the ambassador to Z": each role after "including as" is a fact of its own about the subject
 * ("Fritchie was the Chief Executive of the National Lottery Charities Board."), as FActScore's annotators wrote it
 * ("She was the Chief Executive of ..."); the clause before it stays a claim. Roles listed with commas are one each,
 * and "the Chief Executive of A and the B" is that role of each.
 */

// Subject (a name or a pronoun, up to five words), its verb, the rest of the clause, the roles.
const INCLUDING_AS = /^((?:(?:In addition to|Besides|Apart from|Outside of|Outside)\s[^,]{1,50},\s)?)((?:[A-Z][\w'’.-]*\s){1,5}?|(?:[Hh]e|[Ss]he|[Tt]hey)\s)((?:(?:later|also|then|subsequently|previously)\s)?(?:has|have|had|was|were|held|\w+ed)\b.*?),?\s+(?:including|most notably)\s+(?<serving>serving\s+)?as\s+(.+?)\.?$/;
const SHARED_ROLE = /^((?:the|an?)\s.*?\bof\s)(the\s[A-Z].*?)\s+and\s+(the\s[A-Z].*)$/;

// "as Minister of International Trade and Industry and Minister of Finance", "as Chancellor of the Duchy of Lancaster,
// Secretary of State for Health, and Paymaster General": titles without an article, each opened by an office's word.
const TITLE = /^(?:Minister|Secretary|Chancellor|Director|President|Vice|Deputy|Chair|Chairman|Chairwoman|Chairperson|Governor|Ambassador|Paymaster|Leader|Head|Chief|Commissioner|Speaker|Attorney|Solicitor|Mayor|Senator|Editor|Professor|Dean|Treasurer|Adviser|Advisor|Envoy|Undersecretary|Under-Secretary|Permanent|Assistant|Associate|Lord|Captain|Commander|Manager|Coach|Executive|Regional|Managing|Senior|Principal|Acting|Interim|Special|Founding|Trustee|Officer|Counsel|Registrar|Curator)\b/;

// Titles apart at commas, and at "and" where an office's word opens the next ("... Trade and Industry and Minister of
// Finance", "Ambassador to the United Nations and Director General of ..."); another "and" is inside a title ("Trade
// and Industry"). Empty when a piece opens no title: "Minister of Education, University and Research" is one. Also
// when a title points back ("... in the same ministry"): apart, it would not say which.
const AND_TITLE = new RegExp(String.raw`\s+and\s+(?=${TITLE.source.slice(1)})`);

/** The office titles of a list; null when it opens with no office's word, empty when it cannot be divided. */
export function officeTitles(list: string): string[] | null {
  if (!TITLE.test(list)) return null;
  const parts = list.split(/,\s+(?:and\s+)?/).flatMap((x) => x.split(AND_TITLE));
  return parts.every((x) => TITLE.test(x) && !/\bthe same\b/.test(x)) ? parts : [];
}

/** The clause and one claim per role, or the text alone when it lists no roles after "including as". */
export function includingAsApart(text: string): string[] {
  if (!text.includes('including') && !text.includes('most notably')) return [text];
  const m = INCLUDING_AS.exec(text);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[5] === undefined) return [text];
  // "In addition to her parliamentary work, Fritchie has also served ...": the fronted phrase stays with the clause.
  const intro = m[1];
  const subject = m[2].trim().replace(/^[hst]/, (c) => c.toUpperCase());
  // "..., including as chair of X from 2000-2004, and was an active member of Y": the clause goes on after the roles.
  const more = /,\s+and\s+((?:has|have|had|was|were|is|are)\s.+)$/.exec(m[5]);
  const list = more ? m[5].slice(0, more.index) : m[5];
  const roles = officeTitles(list) ?? list.split(/,\s+(?:and\s+)?(?=(?:the|an?)\s)/);
  const role = (r: string): boolean => (/^(?:the|an?)\s/i.test(r) || /^[a-z]/.test(r) || TITLE.test(r)) && !/^(?:the|an?)\s+(?:of|in|for|to|at)\b/.test(r) && r.split(/\s+/).length <= 16;
  if (roles.length === 0 || !roles.every(role)) return [text];
  const be = subject === 'They' ? 'were' : 'was';
  const each = roles.flatMap((r) => {
    const shared = SHARED_ROLE.exec(r);
    return shared && shared[1] !== undefined && shared[2] !== undefined && shared[3] !== undefined ? [`${shared[1]}${shared[2]}`, `${shared[1]}${shared[3]}`] : [r];
  });
  // "served in various roles, including as a diplomat": the annotators kept the verb ("He served as a diplomat.").
  const served = /\b((?:(?:has|have|had)\s(?:also\s)?)?(?:served|worked))\s+(?:in|with|at)\b/.exec(m[3]);
  // "including serving as the Chairman of X": the text's own verb ("Baron Smith served as the Chairman of X.").
  const lead = served?.[1] !== undefined ? `${served[1]} as` : m.groups?.['serving'] !== undefined ? 'served as' : be;
  const rest = more?.[1] !== undefined ? [`${subject} ${more[1].replace(/[.,;\s]+$/, '')}.`] : [];
  return [`${intro}${intro === '' ? subject : m[2].trim()} ${m[3]}.`, ...each.map((r) => `${subject} ${lead} ${r.replace(/[.,;\s]+$/, '')}.`), ...rest];
}
