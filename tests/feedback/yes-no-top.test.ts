// Top-K selection for the labeler's stored top tokens: the same order a full sort gives, without sorting.
import { expect, test } from 'vitest';
import { createRng } from '../../src/feedback/rng.js';
import { topIndices } from '../../src/feedback/yes-no.js';

test('topIndices equals a stable full sort on random rows, with ties', () => {
  const rng = createRng(42);
  for (let t = 0; t < 200; t++) {
    const n = 1 + Math.floor(rng() * 300);
    const row = Float32Array.from({ length: n }, () => Math.round(rng() * 20) / 2);
    const k = 1 + Math.floor(rng() * 8);
    const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) => row[b]! - row[a]! || a - b).slice(0, k);
    expect(topIndices(row, k)).toEqual(sorted);
  }
});
