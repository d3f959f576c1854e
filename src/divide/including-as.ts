/**
 * "Fritchie later held various senior positions in the civil service, including as the Chief Executive of the
 * National Lottery Charities Board", "He served in various roles, including as a diplomat in X, the deputy chief of
 * mission in Y, and the ambassador to Z": each role after "including as" is a fact of its own about the subject
 * ("Fritchie was the Chief Executive of the National Lottery Charities Board."), as FActScore's annotators wrote it
 * ("She was the Chief Executive of ..."); the clause before it stays a claim. Roles listed with commas are one each,
 * and "the Chief Executive of A and the B" is that role of each.
 */

// Subject (a name or a pronoun, up to five words), its verb, the rest of the clause, the roles.
const INCLUDING_AS = /^((?:[A-Z][\w'’.-]*\s){1,5}?|(?:He|She|They)\s)((?:(?:later|also|then|subsequently|previously)\s)?(?:has|have|had|was|were|\w+ed)\b.*?),?\s+including\s+(?<serving>serving\s+)?as\s+(.+?)\.?$/;
const SHARED_ROLE = /^((?:the|an?)\s.*?\bof\s)(the\s[A-Z].*?)\s+and\s+(the\s[A-Z].*)$/;

/** The clause and one claim per role, or the text alone when it lists no roles after "including as". */
export function includingAsApart(text: string): string[] {
  if (!text.includes('including')) return [text];
  const m = INCLUDING_AS.exec(text);
  if (m === null || m[1] === undefined || m[2] === undefined || m[4] === undefined) return [text];
  const subject = m[1].trim();
  const roles = m[4].split(/,\s+(?:and\s+)?(?=(?:the|an?)\s)/);
  const role = (r: string): boolean => (/^(?:the|an?)\s/i.test(r) || /^[a-z]/.test(r)) && !/^(?:the|an?)\s+(?:of|in|for|to|at)\b/.test(r) && r.split(/\s+/).length <= 14;
  if (!roles.every(role)) return [text];
  const be = /^(?:They)$/.test(subject) ? 'were' : 'was';
  const each = roles.flatMap((r) => {
    const shared = SHARED_ROLE.exec(r);
    return shared && shared[1] !== undefined && shared[2] !== undefined && shared[3] !== undefined ? [`${shared[1]}${shared[2]}`, `${shared[1]}${shared[3]}`] : [r];
  });
  // "served in various roles, including as a diplomat": the annotators kept the verb ("He served as a diplomat.").
  const served = /\b((?:(?:has|have|had)\s(?:also\s)?)?(?:served|worked))\s+(?:in|with|at|on)\b/.exec(m[2]);
  // "including serving as the Chairman of X": the text's own verb ("Baron Smith served as the Chairman of X.").
  const lead = served?.[1] !== undefined ? `${served[1]} as` : m.groups?.['serving'] !== undefined ? 'served as' : be;
  return [`${subject} ${m[2]}.`, ...each.map((r) => `${subject} ${lead} ${r.replace(/[.,;\s]+$/, '')}.`)];
}
