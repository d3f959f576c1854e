// meta.kind of every committed prompt is the kind its instruction really has (build.py once recorded the kind it asked
// make_instruction for, and the world's fallbacks turned some attribute and position requests into counting ones).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

/** The kind of a shapes-world instruction, read off its wording (world.py make_instruction's templates). */
function kindOf(q: string): string {
  if (/^(Describe the image|What do you see)/.test(q)) return 'detailed';
  if (/^(What shapes are in the image|List the shapes)/.test(q)) return 'listing';
  if (/^How many /.test(q)) return 'counting';
  if (/^Where is /.test(q)) return 'position';
  if (/^What (color|size) is /.test(q)) return 'attribute';
  throw new Error(`not a shapes-world instruction: ${q}`);
}

describe('shapes splits: meta.kind', () => {
  for (const split of ['dev', 'test', 'multiturn']) {
    it(`${split}: every prompt's kind matches its instruction`, () => {
      const lines = readFileSync(path.join(ROOT, 'data', 'shapes', split, 'prompts.jsonl'), 'utf8').trim().split('\n');
      const wrong = lines
        .map((l) => JSON.parse(l) as { id: string; question: string; meta: { kind: string } })
        .filter((p) => kindOf(p.question) !== p.meta.kind)
        .map((p) => `${p.id}: ${p.meta.kind} "${p.question}"`);
      expect(lines.length).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    });
  }
});
