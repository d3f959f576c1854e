/**
 * Nouns that name nothing a picture shows, from WordNet by way of wink-lexicon (data/lexicon/README.md): a salvaged
 * existence claim is only made for a concrete noun. Salvage on real VLM answers made "There is a risk.", "There is a
 * congestion." and "There is a sense of depth"-style claims ("a sense of depth" -> "There is a depth."), which a
 * labeler reading the image can only deny, so a faithful answer was charged with hallucinations it never made.
 *
 * The list is generated (scripts/lexicon/abstract-nouns.ts) and read once, on the first salvaged noun.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'lexicon', 'abstract-nouns.txt');
let nouns: Set<string> | null = null;

/** The lower-cased noun (a lemma or its regular plural) has no sense WordNet files under a thing one can see. */
export function isAbstractNoun(lower: string): boolean {
  nouns ??= new Set(readFileSync(FILE, 'utf8').split('\n'));
  return nouns.has(lower);
}
