// The shapes GRPO trainer's math (scripts/shapes/grpo.py) against a case worked by hand, and its input errors.
// The numbers below were computed on paper from TRL's formulas (grpo_trainer.py `_compute_loss`, loss_type "dapo"):
// advantages (r − mean) / (std + 1e-4) over each group's scored answers (unbiased std), NaN → 0; the clipped ratio
// with ε 0.2; k3 KL exp(ref − logp) − (ref − logp) − 1; the sum over answer tokens divided by their count.
import { afterAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { POLICY, ROOT, tempDir } from '../helpers/paths.js';
import { pythonForks } from '../helpers/python-forks.js';

// Each script runs in a fork of one Python that imported torch once: the four runs below imported it four times.
const forks = pythonForks();
afterAll(() => forks.close());

describe('scripts/shapes/grpo.py', () => {
  test('advantages, clipping, KL and the per-token loss match the hand-checked case', async () => {
    const r = await forks.run(path.join(ROOT, 'tests', 'loop', 'grpo_math.py'), []);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { adv: number[]; loss_beta0: number; loss_beta01: number; kl: number; clip_ratio: number; grad: number[][] };
    // Group 1 [1, 0, None, 2]: mean 1, std 1 over the three scored; the None gets 0. Group 2 all equal: all 0.
    const s = 1 / (1 + 1e-4);
    [0, -s, 0, s, 0, 0, 0, 0].forEach((v, i) => expect(got.adv[i]).toBeCloseTo(v, 6));
    // Token losses: −1.2 (ratio 1.25 clipped to 1.2, A 1), −1 (ratio 1), +2 (A −2), +0.8 (ratio 0.625 clipped to 0.8,
    // A −1): 0.6 over 4 tokens.
    expect(got.loss_beta0).toBeCloseTo(0.15, 6);
    // k3: 0, e^−ln2 + ln2 − 1 = 0.193147, e^ln2 − ln2 − 1 = 0.306853, 0: mean 0.125; β 0.1 adds 0.0125.
    expect(got.kl).toBeCloseTo(0.125, 6);
    expect(got.loss_beta01).toBeCloseTo(0.1625, 6);
    expect(got.clip_ratio).toBeCloseTo(0.5, 6);
    // Clipped tokens pass no gradient; the others −ρA/4 plus β(1 − e^d)/4; the padded token none.
    [[0, -0.2375], [0.475, 0], [0, 0]].forEach((row, i) => row.forEach((v, j) => expect(got.grad[i]![j]).toBeCloseTo(v, 6)));
  });

  test("one batched generation samples each prompt as it would alone, with the training forward's log-probs", async () => {
    // The real tiny policy, sampling made deterministic (argmax, tests/loop/grpo_batch.py): two prompts of different
    // lengths share one left-padded batch and KV cache.
    const r = await forks.run(path.join(ROOT, 'tests', 'loop', 'grpo_batch.py'), []);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { lengths: number[]; same: boolean; answer_tokens: number[]; max_diff: number; plain_same: boolean; plain_lengths: number[]; shared_logp_diff: number; shared_grad_diff: number; grad_tensors: number[] };
    expect(got.lengths[0]).not.toBe(got.lengths[1]);
    expect(got.same).toBe(true);
    expect(Math.min(...got.answer_tokens)).toBeGreaterThan(1);
    expect(got.max_diff).toBeLessThan(1e-4);
    // Ended rows leave the batch, yet each row draws what it drew when every row ran to the batch's end (seeded, 32
    // answers of several lengths, so rows did leave early).
    expect(got.plain_lengths.length).toBeGreaterThan(3);
    expect(got.plain_same).toBe(true);
    // The update runs each prompt once and continues its answers from its cache: the same log-probs and gradients
    // (every parameter's, relative to its largest) as running every answer row whole.
    expect(got.shared_logp_diff).toBeLessThan(1e-4);
    expect(got.shared_grad_diff).toBeLessThan(1e-3);
    expect(got.grad_tensors[1]).toBe(got.grad_tensors[0]);
  });

  test('unusable input exits 2 naming the file', async () => {
    const dir = tempDir('rlaifv-grpo-');
    const missing = path.join(dir, 'none.jsonl');
    const grpo = path.join(ROOT, 'scripts', 'shapes', 'grpo.py');
    const [r, g] = await Promise.all([
      forks.run(grpo, ['--prompts', missing, '--policy', POLICY, '--out', path.join(dir, 'out'), '--samples', '8'], { RLAIFV_URL: 'http://127.0.0.1:9' }),
      forks.run(grpo, ['--prompts', missing, '--policy', POLICY, '--out', path.join(dir, 'out'), '--samples', '8', '--num-generations', '1']),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${missing}: no such prompts file`);
    expect(g.code).toBe(2);
    expect(g.stderr).toContain('--num-generations must be at least 2');
  });
});
