// The check every batched-path test makes: a batched row's logits and p(yes)/p(no) equal the plain path's within 1e-4.
import { expect } from 'vitest';
import { yesNoFromLogits } from '../../src/feedback/yes-no.js';

/** Asserts that `batched` is logits equal to `reference` within 1e-4, and so are p_yes and p_no. */
export function expectSameLogits(batched: Float32Array | Error, reference: Float32Array, yesNo: { yes: number[]; no: number[] }): void {
  expect(batched).toBeInstanceOf(Float32Array);
  const b = batched as Float32Array;
  expect(b.length).toBe(reference.length);
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(b[i]! - reference[i]!));
  expect(worst).toBeLessThan(1e-4);
  const pb = yesNoFromLogits(b, yesNo);
  const pr = yesNoFromLogits(reference, yesNo);
  expect(Math.abs(pb.pYes - pr.pYes)).toBeLessThan(1e-4);
  expect(Math.abs(pb.pNo - pr.pNo)).toBeLessThan(1e-4);
}
