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

test('a gate without a judge hashes as before feedback.gate.judge existed; a judge, its model or its prompt change the hash', () => {
  const gated = (f: (c: Config) => void = () => {}) =>
    edit((x) => {
      x.feedback.gate.threshold = 0.9;
      f(x);
    });
  const h = gated();
  // What a gated config held before the judge setting: no `judge` key at all.
  const c = base();
  c.feedback.gate.threshold = 0.9;
  const { judge: _j, ...oldGate } = c.feedback.gate;
  expect(configHash({ ...c, feedback: { ...c.feedback, gate: oldGate } } as Config)).toBe(h);
  const judge = (model: string, task_field = 'vision-language understanding') => ({
    backend: { type: 'openai' as const, model, base_urls: ['http://a/v1'] } as NonNullable<Config['feedback']['gate']['judge']>['backend'],
    prompt: 'p',
    task_field,
    examples: '',
    max_tokens: 10,
    temperature: 0,
    content_retries: 2,
  });
  const j1 = gated((x) => (x.feedback.gate.judge = judge('j1')));
  const j2 = gated((x) => (x.feedback.gate.judge = judge('j2')));
  const j3 = gated((x) => (x.feedback.gate.judge = judge('j1', 'shapes')));
  expect(new Set([h, j1, j2, j3]).size).toBe(4);
  // Where the judge runs does not change what it answers.
  expect(gated((x) => (x.feedback.gate.judge = { ...judge('j1'), backend: { ...judge('j1').backend, base_urls: ['http://b/v1'] } }))).toBe(j1);
});
