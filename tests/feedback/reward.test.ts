// The reward presets' shape guards (ONLINE-RL.md §6.4.11), as properties over many generated answers' claim sets.
import { describe, expect, it } from 'vitest';
import { answerReward, REWARD_PRESETS, type RewardClaim } from '../../src/feedback/reward.js';
import { createRng, type Rng } from '../../src/feedback/rng.js';
import { rewardSchema } from '../../src/config/serve-schema.js';

const cfg = rewardSchema.parse({});

/** A random answer's claims: up to 12, over a few distinct questions (so repeats happen), some unjudged. */
function claims(rng: Rng, n = Math.floor(rng() * 13)): RewardClaim[] {
  return Array.from({ length: n }, () => {
    const r = rng();
    return { questionId: `q${Math.floor(rng() * 6)}`, rejected: r < 0.1 ? null : r < 0.45 };
  });
}

/** The reward's value, which the guards compare (an unscorable answer has none). */
function value(c: RewardClaim[], preset: (typeof REWARD_PRESETS)[number]): number | null {
  return answerReward(c, preset, cfg).reward;
}

describe('reward presets', () => {
  it('scores an empty answer, a refusal (no claims) and a repeated sentence, never above one accepted claim and no rejected ones', () => {
    const rng = createRng(7);
    for (const preset of REWARD_PRESETS) {
      const empty = answerReward([], preset, cfg);
      expect(empty.status).toBe('ok');
      for (let t = 0; t < 500; t++) {
        // A clean answer: at least one accepted claim, none rejected (some may be unjudged).
        const clean: RewardClaim[] = [{ questionId: 'a', rejected: false }, ...claims(rng).filter((c) => c.rejected !== true)];
        // A repeated sentence: one claim said k times, accepted or rejected.
        const k = 2 + Math.floor(rng() * 8);
        const verdict = rng() < 0.5;
        const repeated = Array.from({ length: k }, () => ({ questionId: 'r', rejected: verdict }));
        expect(value(repeated, preset)).not.toBeNull();
        expect(value(clean, preset)!).toBeGreaterThanOrEqual(empty.reward!);
        expect(value(clean, preset)!).toBeGreaterThanOrEqual(value(repeated, preset)!);
      }
    }
  });

  it('default: a rejected claim always lowers the reward, an accepted one never does (up to the cap), and saying nothing is below one right claim', () => {
    const rng = createRng(11);
    for (let t = 0; t < 2000; t++) {
      const c = claims(rng);
      const base = value(c, 'default') ?? 0;
      expect(value([...c, { questionId: `new${t}`, rejected: true }], 'default')!).toBeLessThan(base);
      const more = value([...c, { questionId: `new${t}`, rejected: false }], 'default')!;
      expect(more).toBeGreaterThanOrEqual(base);
      const distinct = new Set(c.filter((x) => x.rejected === false).map((x) => x.questionId)).size;
      if (distinct < cfg.accepted_cap) expect(more).toBeGreaterThan(base);
    }
    expect(value([{ questionId: 'a', rejected: false }], 'default')!).toBeGreaterThan(value([], 'default')!);
  });

  it('rejc and rejp give the paper rankings: −rejected, and −rejected/judged', () => {
    const c: RewardClaim[] = [
      { questionId: 'a', rejected: true },
      { questionId: 'b', rejected: false },
      { questionId: 'c', rejected: false },
      { questionId: 'd', rejected: null },
    ];
    expect(answerReward(c, 'rejc', cfg)).toMatchObject({ status: 'ok', reward: -1, components: { n_claims: 4, n_accepted: 2, n_rejected: 1, n_unscored: 1, rej_c: -1 } });
    expect(answerReward(c, 'rejp', cfg).reward).toBeCloseTo(-1 / 3);
    expect(answerReward(c, 'default', cfg).reward).toBe(2 * cfg.accepted_weight - cfg.rejected_weight);
  });

  it('is unscorable only when the answer has claims and the labeler judged none', () => {
    expect(answerReward([{ questionId: 'a', rejected: null }], 'default', cfg)).toMatchObject({ status: 'unscorable', reward: null });
    expect(answerReward([{ questionId: 'a', rejected: null }, { questionId: 'b', rejected: false }], 'default', cfg).status).toBe('ok');
    expect(answerReward([], 'default', cfg)).toMatchObject({ status: 'ok', reward: 0 });
  });
});
