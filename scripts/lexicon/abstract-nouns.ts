// Writes data/lexicon/abstract-nouns.txt: the English nouns WordNet never files under a thing one could see in a
// picture, for the rules divider's salvage (src/divide/abstract-nouns.ts). Run after a wink-lexicon update:
//   npx tsx scripts/lexicon/abstract-nouns.ts
// tests/divide/abstract-nouns.test.ts derives the list again and fails when the file differs.
//
// Source: wink-lexicon (MIT; the wink-nlp family's lexicon), whose word senses are WordNet's lexicographer files
// (WordNet 3.x, Princeton University, WordNet licence: data/lexicon/README.md). A noun is concrete when any of its
// senses is filed under an artifact, animal, body part, food, natural object, person, plant, substance or group
// ("people", "a crowd", "a herd"); every other noun (acts, attributes, states, feelings, events, times, places as
// such, communication, cognition) is abstract: "risk", "congestion", "history", "a sense of depth".
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CONCRETE = new Set(['noun.artifact', 'noun.animal', 'noun.body', 'noun.food', 'noun.object', 'noun.person', 'noun.plant', 'noun.substance', 'noun.group']);

/** The abstract nouns, sorted: each lemma with no concrete sense, and its regular plural unless that is a concrete noun. */
export function abstractNouns(): string[] {
  const require = createRequire(import.meta.url);
  const words = require('wink-lexicon/src/wn-words.js') as Record<string, number>;
  const senses = require('wink-lexicon/src/wn-word-senses.js') as (readonly number[] | undefined)[];
  const names = require('wink-lexicon/src/wn-senses.js') as string[];
  const kind = (w: string): 'concrete' | 'abstract' | null => {
    const i = words[w];
    if (i === undefined) return null;
    const nouns = (senses[i] ?? []).map((k) => names[k]!).filter((n) => n.startsWith('noun.'));
    if (nouns.length === 0) return null;
    return nouns.some((n) => CONCRETE.has(n)) ? 'concrete' : 'abstract';
  };
  // "legs", "fumes": a lemma of its own in WordNet, but the plural of a concrete noun.
  const singulars = (w: string) => [w.replace(/ies$/, 'y'), w.replace(/(s|x|z|ch|sh)es$/, '$1'), w.replace(/s$/, '')].filter((c) => c !== w);
  const plural = (w: string) => (/(?:s|x|z|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`);
  const out = new Set<string>();
  for (const w of Object.keys(words)) {
    if (kind(w) !== 'abstract' || singulars(w).some((c) => kind(c) === 'concrete')) continue;
    out.add(w);
    if (kind(plural(w)) !== 'concrete') out.add(plural(w));
  }
  return [...out].sort();
}

export const ABSTRACT_NOUNS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'lexicon', 'abstract-nouns.txt');

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const list = abstractNouns();
  writeFileSync(ABSTRACT_NOUNS_FILE, `${list.join('\n')}\n`);
  process.stdout.write(`wrote ${list.length} nouns to ${path.relative(process.cwd(), ABSTRACT_NOUNS_FILE)}\n`);
}
