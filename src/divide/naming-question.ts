// The questions of naming facts (naming.ts): their subject is a title, asked as written.
import { claimToQuestion } from './question.js';

// A naming fact's subject is a title, which the question keeps as written: "This Time is an album." -> "Is This Time
// an album?", not "Is this Time ...", and "I Want It All is a single." -> "Is I Want It All a single?", not "Do I want
// ...". The greedy title takes the last "is a": "My Girlfriend is an Agent is a drama." Titles opening with an
// article are left to the question rules ("Is the Wall Street Journal a publication?").
const NAMING_KIND = /^(["“]?[A-Z0-9].*) (is|was) (an?) ([^.]+)\.$/;
const NAMING_RELEASE = /^(["“]?[A-Z0-9].*) was released in (\d{4})\.$/;
// Where the question rules found no question, the title's form is asked only for a title of capitalised words
// (with a name's function words and a number after a word: "Rush Hour 2"), not for a date or a phrase the naming
// rules took for one ("Red Velvet on August 1", "Commonwealth titles from 2019 to 2020", "58").
const TITLE_WORD = /^(?:["“'‘(]?[A-Z0-9][^\s]*|of|the|a|an|and|in|on|at|to|for|with|from|de|del|do|da|la|el|is|it|me|you|no)$/;
function plainTitle(title: string): boolean {
  return /^["“]?[A-Z]/.test(title) && title.split(' ').every((w) => TITLE_WORD.test(w)) && !/\b(?:in|on|at|from|to) (?:[A-Z][a-z]+ )?\d/.test(title);
}

/** The question of a naming fact ("X is a kind.", "X was released in YEAR."), its title kept as written. */
export function namingQuestionOf(claim: string): string | null {
  const rules = claimToQuestion(claim);
  if (/^(?:The|A|An) /.test(claim)) return rules;
  const kind = NAMING_KIND.exec(claim);
  const release = kind === null ? NAMING_RELEASE.exec(claim) : null;
  const title = kind?.[1] ?? release?.[1];
  if (title === undefined || (rules === null && !plainTitle(title))) return rules;
  return kind !== null ? `${kind[2] === 'is' ? 'Is' : 'Was'} ${title} ${kind[3]} ${kind[4]}?` : `Was ${title} released in ${release![2]}?`;
}
