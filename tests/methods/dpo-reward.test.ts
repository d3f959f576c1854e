// dpoRewards: both models score the same answers at once, each answer's reward from its two log-probs, and an answer
// either model could not score is an Error naming which one. (The scorers here are plain tables; the real ones are
// tested in tests/backends/sequence-logprobs.test.ts and openai-sequence-scorer.test.ts, end to end in tests/cli/bon.)
import { describe, expect, test } from 'vitest';
import { dpoRewards } from '../../src/methods/dpo-reward.js';
import type { SequenceLogprob, SequenceScoreItem, SequenceScorer } from '../../src/backends/types.js';

/** A scorer that looks each answer up in a table (an Error for answers it lacks). */
function table(id: string, t: Record<string, SequenceLogprob>): SequenceScorer & { calls: SequenceScoreItem[][] } {
  const calls: SequenceScoreItem[][] = [];
  return {
    id,
    calls,
    async logprobs(items) {
      calls.push(items);
      return items.map((it) => it.answers.map((a) => t[a] ?? new Error(`${id} cannot score "${a}"`)));
    },
    async close() {},
  };
}

describe('dpoRewards', () => {
  const policy = table('pi', { a: { sum: -2, tokens: 4 }, b: { sum: -9, tokens: 6 }, c: { sum: -1, tokens: 2 } });
  const reference = table('ref', { a: { sum: -3, tokens: 4 }, b: { sum: -8, tokens: 6 }, d: { sum: -1, tokens: 2 } });
  const items = [
    { imagePath: 'x.png', question: 'q1', answers: ['a', 'b'] },
    { imagePath: 'y.png', question: 'q2', answers: ['c', 'd', 'a'] },
  ];

  test('per item and answer, in order: the log-probs under both models and β(Σπ − Σref)', async () => {
    const out = await dpoRewards(policy, reference, items, { beta: 0.1, variant: 'sum' });
    expect(out[0]![0]).toEqual({ policy: { sum: -2, tokens: 4 }, reference: { sum: -3, tokens: 4 }, reward: expect.closeTo(0.1, 12) });
    expect((out[0]![1] as { reward: number }).reward).toBeCloseTo(-0.1, 12);
    expect((out[1]![2] as { reward: number }).reward).toBeCloseTo(0.1, 12);
    // Each model was asked once, with all the items.
    expect(policy.calls.at(-1)).toEqual(items);
    expect(reference.calls.at(-1)).toEqual(items);
  });

  test('an answer one model cannot score is an Error naming that model; the mean variant is per token', async () => {
    const out = await dpoRewards(policy, reference, items, { beta: 2, variant: 'mean' });
    expect(out[1]![0]).toEqual(new Error('reference: ref cannot score "c"'));
    expect(out[1]![1]).toEqual(new Error('policy: pi cannot score "d"'));
    expect((out[0]![1] as { reward: number }).reward).toBeCloseTo(2 * (-9 / 6 + 8 / 6), 12);
  });
});
