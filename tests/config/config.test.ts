// The config: defaults reproduce the method, the committed example equals the embedded default, errors name fields.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, configHash, PACKAGE_ROOT } from '../../src/config/load.js';
import { tempDir } from '../helpers/paths.js';

describe('config', () => {
  test('the defaults are the method: 10 samples, T 0.7, diff 1, 2 pairs per prompt, length balance on', () => {
    const { config } = loadConfig(undefined);
    expect(config.generate).toMatchObject({ samples: 10, temperature: 0.7, top_p: 1, max_new_tokens: 512 });
    expect(config.pair).toEqual({
      strategy: 'rlaifv', diff: 1, max_pairs: 2, length_balance: true, repeated_claims: 'drop', corrections: [], rank_pairs: true, rewriter: null, refine: { max_turns: 3, feedback: 'detailed', temperature: 0, teacher: null, reference_field: 'reference' },
      reference_logprobs: false,
    });
    expect(config.score).toEqual({ accept_rule: 'scripts', method: 'rejc' });
    expect(config.label.suffix).toBe(' Please answer yes or no.');
  });

  test('the committed example config is the embedded default', () => {
    const a = loadConfig(path.join(PACKAGE_ROOT, 'rlaifv.example.json')).config;
    const b = loadConfig(undefined).config;
    expect(configHash(a)).toBe(configHash(b));
    expect(a.prompts).toBe(b.prompts);
  });

  test('paths in a file resolve against the file; flags against the working directory', () => {
    const dir = tempDir();
    const f = path.join(dir, 'c.json');
    writeFileSync(f, JSON.stringify({ prompts: 'p.jsonl', db: 'x.sqlite', generate: { backend: { type: 'local', model: 'm' } } }));
    const { config } = loadConfig(f, {}, '/somewhere');
    expect(config.prompts).toBe(path.join(dir, 'p.jsonl'));
    expect(config.db).toBe(path.join(dir, 'x.sqlite'));
    expect(config.generate.backend).toEqual({ type: 'local', model: path.join(dir, 'm') });
    expect(loadConfig(f, { db: 'y.sqlite', samples: 4, seed: 9 }, '/w').config).toMatchObject({ db: '/w/y.sqlite', seed: 9 });
  });

  test.each([
    [{ seed: -1 }, /field seed/],
    [{ generate: { temperature: 'hot' } }, /field generate\.temperature/],
    [{ score: { accept_rule: 'maybe' } }, /field score\.accept_rule.*scripts.*paper/s],
    [{ label: { backend: { type: 'gpu' } } }, /field label\.backend\.type/],
    [{ pair: { max_pairs: 1.5 } }, /field pair\.max_pairs/],
    [{ pair: { strategy: 'best-worst' } }, /pair\.strategy: "best-worst" is not a pair strategy; use one of "rlaifv", "extremes"/],
    [{ pair: { refine: { max_turns: 0 } } }, /field pair\.refine\.max_turns/],
    [{ pair: { refine: { feedback: 'binary' } } }, /field pair\.refine\.feedback/],
    [{ extra: 1 }, /unknown key "extra" in \(top level\) \(allowed: prompts, db, seed/],
  ])('%j is refused with the field named', (raw, re) => {
    const f = path.join(tempDir(), 'c.json');
    writeFileSync(f, JSON.stringify(raw));
    expect(() => loadConfig(f)).toThrow(ConfigError);
    expect(() => loadConfig(f)).toThrow(re);
  });

  test('a config that is not JSON, or missing, is named', () => {
    const f = path.join(tempDir(), 'c.json');
    writeFileSync(f, '{ "seed": 1, }');
    expect(() => loadConfig(f)).toThrow(new RegExp(`Config ${f} is not valid JSON`));
    expect(() => loadConfig('/no/such.json')).toThrow(/Cannot read config \/no\/such\.json: ENOENT/);
  });

  test('the config hash ignores where files live and how many workers run', () => {
    const a = loadConfig(undefined, { workers: 1, db: '/a.sqlite' }).config;
    const b = loadConfig(undefined, { workers: 2, db: '/b.sqlite' }).config;
    expect(configHash(a)).toBe(configHash(b));
    expect(configHash(loadConfig(undefined, { seed: 3 }).config)).not.toBe(configHash(a));
  });

  test('pair.reference_logprobs is not in the hash: it adds log-probs beside the pairs, so a finished round may turn it on', () => {
    const a = loadConfig(undefined).config;
    const b = loadConfig(undefined).config;
    b.pair.reference_logprobs = true;
    expect(configHash(b)).toBe(configHash(a));
  });

  test('pair.refine at its defaults keeps a round\'s hash; the refine editor or another setting of it changes it', () => {
    const a = loadConfig(undefined).config;
    const b = loadConfig(undefined).config;
    b.pair.refine = { max_turns: 3, feedback: 'detailed', temperature: 0, teacher: null, reference_field: 'reference' };
    expect(configHash(b)).toBe(configHash(a));
    b.pair.corrections = ['refine'];
    const withRefine = configHash(b);
    expect(withRefine).not.toBe(configHash(a));
    for (const change of [{ max_turns: 2 }, { feedback: 'simple' as const }, { temperature: 0.7 }]) {
      const c = loadConfig(undefined).config;
      c.pair.corrections = ['refine'];
      c.pair.refine = { ...c.pair.refine, ...change };
      expect(configHash(c)).not.toBe(withRefine);
    }
  });

  test('each load is its own object: changing one config never changes the next one loaded in the same process', () => {
    // zod returns a `.default(value)`'s value as is, so a default parsed once was shared by every later parse; a
    // loop or a test that set `generate.backend` on its config changed the embedded default for everyone after it.
    const first = loadConfig(undefined).config;
    const pristine = JSON.stringify(first);
    first.generate.backend = { type: 'openai', model: 'm', base_urls: ['http://127.0.0.1:1/v1'] } as typeof first.generate.backend;
    first.label.backend.model = '/elsewhere';
    first.label.tools.push({ type: 'detector', name: 'x' } as never);
    first.pair.corrections.push('llm' as never);
    first.feedback.gate.threshold = 0.9;
    first.loop.mode = 'online';
    const second = loadConfig(undefined).config;
    expect(JSON.stringify(second)).toBe(pristine);
    expect(second.generate.backend.type).toBe('local');
  });
});
