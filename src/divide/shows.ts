/**
 * A claim whose subject is the picture and whose verb is one of showing, as existence: "The image features a white
 * bird." -> "There is a white bird." (rules.ts runs it on every claim of a piece, last).
 */
import { isAbstractNoun } from './abstract-nouns.js';
import { isPluralPhrase } from './list.js';
import { cleanWord } from './text.js';

// "The image features a white bird." (or "The main features of this image are ...", "The image also shows ...") says there is a white bird: with the picture as the
// subject of a verb of showing, the claim is about existence, and "Is there a white bird?" is the question annotators and labelers use.
const SHOWS = /^(?:(.+?),\s+)?(?:(?:the|this)\s+(?:image|picture|photo|photograph|scene)\s+(?:also\s+)?(?:features|shows|depicts|displays|showcases|captures|contains|includes|presents)|the\s+(?:main\s+)?(?:features|elements|objects|subjects)\s+(?:of|in)\s+(?:the|this)\s+(?:image|picture|photo|photograph|scene)\s+(?:are|include))\s+(?!(?:that|how|what|why|where|when|whether|it|them|him|her)\b)(.+?)\.?$/i;
const NAMES_ONLY = /^(?:the )?[A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,3}(?: and [A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,3})?$/;

/** The claim as existence when the picture shows its object; the claim unchanged otherwise. */
export function asExistence(claim: string): string {
  const m = SHOWS.exec(claim);
  const np = m?.[2];
  if (!m || np === undefined) return claim;
  // "The image shows Conan", "... shows Rose and Jack", "... features the Eiffel Tower": a name is asked as shown
  // ("Does the image show Rose and Jack?"), not "Is there Rose and Jack?".
  if (NAMES_ONLY.test(np)) return claim;
  // "The photo also shows the impact of traffic congestion on the environment", "captures a moment of joy and
  // playfulness": an abstract head of an abstract phrase is no thing to find ("There is the impact of ..."); the claim
  // stays as the sentence says it. ("a handwritten list of jokes on a piece of paper" ends in a thing: kept.)
  const of = /^(.+?)\s+of\s.*?(\w+)$/.exec(np);
  if (of && isAbstractNoun(of[1]!.slice(of[1]!.lastIndexOf(' ') + 1).toLowerCase()) && isAbstractNoun(of[2]!.toLowerCase())) return claim;
  const be = isPluralPhrase(np.split(/\s+/).map(cleanWord)) ? 'are' : 'is';
  return m[1] ? `${m[1]}, there ${be} ${np}.` : `There ${be} ${np}.`;
}
