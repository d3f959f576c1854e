// The feedback section and a round's config hash: divide without a gate hashes as every round made before the section
// existed (so `--round N` and loops resume them), whatever the other methods' settings say; a setting that changes the
// pairs changes the hash.
import { expect, test } from 'vitest';
import { configHash, loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';

const base = () => loadConfig(undefined, { db: '/tmp/hash.sqlite' }).config;
const edit = (f: (c: Config) => void) => {
  const c = base();
  f(c);
  return configHash(c);
};

test('divide without a gate hashes as a config without the feedback section', () => {
  const c = base();
  const { feedback: _f, ...without } = c;
  expect(configHash(c)).toBe(configHash(without as Config));
  // Settings of other methods do not touch a divide round (a loaded config resolves the reference to a full path).
  expect(edit((x) => (x.feedback.dpo_reward.reference = { type: 'local', model: '/elsewhere/ckpt' }))).toBe(configHash(c));
  expect(edit((x) => (x.feedback.holistic.aspects = ['hallucination']))).toBe(configHash(c));
});

test('a method, a gate, a top-up or a gap changes the hash', () => {
  const h = configHash(base());
  const others = [
    edit((x) => (x.feedback.method = 'holistic')),
    edit((x) => (x.feedback.gate.threshold = 0.9)),
    edit((x) => (x.feedback.gate.top_up = 4)),
    edit((x) => (x.feedback.min_gap = 2)),
  ];
  for (const o of others) expect(o).not.toBe(h);
  expect(new Set(others).size).toBe(others.length);
});
