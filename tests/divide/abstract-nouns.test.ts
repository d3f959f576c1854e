// The salvage's abstract nouns (src/divide/abstract-nouns.ts) are WordNet's, by way of wink-lexicon: the committed
// list is what scripts/lexicon/abstract-nouns.ts derives from the installed wink-lexicon, and reads as WordNet does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ABSTRACT_NOUNS_FILE, abstractNouns } from '../../scripts/lexicon/abstract-nouns.js';
import { isAbstractNoun } from '../../src/divide/abstract-nouns.js';

describe('abstract nouns', () => {
  it('the committed list is the one wink-lexicon gives (rerun scripts/lexicon/abstract-nouns.ts after an update)', () => {
    expect(readFileSync(ABSTRACT_NOUNS_FILE, 'utf8')).toBe(`${abstractNouns().join('\n')}\n`);
  });

  it('holds acts, states, attributes and feelings with their plurals, not things, people, groups or concrete plurals', () => {
    for (const w of ['risk', 'risks', 'congestion', 'instability', 'accident', 'accidents', 'history', 'sleep', 'depth', 'example', 'fear']) {
      expect(isAbstractNoun(w), w).toBe(true);
    }
    // "legs" and "fumes" are lemmas of their own in WordNet, but the plurals of concrete nouns.
    for (const w of ['giraffe', 'umbrella', 'water', 'people', 'crowd', 'legs', 'fumes', 'shoes', 'sunglasses', 'man', 'wine']) {
      expect(isAbstractNoun(w), w).toBe(false);
    }
  });
});
