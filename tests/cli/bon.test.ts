// `rlaifv bon` end to end with the built CLI and the real tiny models on 5 prompts of the test split: N answers per
// prompt with their recorded seeds, the chosen one the best reward, the same bytes for the same seed, and bad flags
// refused with exit 2 and the flag named.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runNode } from '../helpers/run-cli.js';
import { LABELER, POLICY, TEST, tempDir } from '../helpers/paths.js';
import { sampleSeed } from '../../src/stages/generate.js';
import { BON_DEFAULTS, bestOfOne, type BonRow } from '../../src/pipeline/bon.js';
import { LocalGenerator, LocalSequenceScorer } from '../../src/backends/local/index.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the test servers and the library test here (tests/helpers/file-pool.ts).
const pool = filePool();

const PROMPTS = path.join(TEST, 'prompts.jsonl');
const N = 4;
const read = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BonRow);
// One worker: a worker's threads import transformers.js and load both models, and how many there are is not what these
// tests are about (the served test still matches this run's answers from the test server's two-worker pool).
const bon = (out: string, ...extra: string[]) =>
  runNode(['bon', '--prompts', PROMPTS, '--policy', POLICY, '--limit', '5', '--samples', String(N), '--out', out, '--workers', '1', '--quiet', ...extra]);

const dir = tempDir();
/** The local run every test here compares with, made once for the file (the served test compares with it too). */
const LOCAL = path.join(dir, 'a.jsonl');
let rows: BonRow[];
beforeAll(async () => {
  // The labeler as the "reference": a different model, so rewards differ between answers.
  const r = await bon(LOCAL, '--ref', LABELER, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ prompts: 5, answers: 5 * N, failed_answers: 0, bad_prompts: 0, out: LOCAL });
  rows = read(LOCAL);
});

describe('rlaifv bon', () => {

  test('one line per prompt in input order, N answers each with its recorded seed, log-probs and reward', () => {
    const ids = readFileSync(PROMPTS, 'utf8').split('\n').slice(0, 5).map((l) => JSON.parse(l).id as string);
    expect(rows.map((r) => r.id)).toEqual(ids);
    for (const row of rows) {
      expect(row.image).toMatch(/test-\d+\.png$/);
      expect(row.answers.map((a) => a.index)).toEqual([0, 1, 2, 3]);
      for (const a of row.answers) {
        expect(a.seed).toBe(sampleSeed(0, row.id, a.index));
        expect(a.text).toEqual(expect.any(String));
        expect(a.finish_reason).toBe('stop');
        expect(a.policy_tokens).toBe(a.text!.split(/\s+|(?=[.,?])/).filter(Boolean).length + 1); // words, punctuation, </s>
        expect(a.reward).toBeCloseTo(0.1 * (a.policy_logprob! - a.reference_logprob!), 12);
      }
    }
  });

  test('the chosen answer is the one with the highest reward (the first of equal ones)', () => {
    for (const row of rows) {
      const rewards = row.answers.map((a) => a.reward!);
      const best = rewards.indexOf(Math.max(...rewards));
      expect(row.chosen_index).toBe(best);
      expect(row.chosen).toBe(row.answers[best]!.text);
      expect(row.reward).toBe(rewards[best]);
    }
    expect(new Set(rows.flatMap((r) => r.answers.map((a) => a.reward))).size).toBeGreaterThan(5);
  });

  test('the same seed gives the same bytes; another seed other samples; the mean reward is per token', async () => {
    const again = path.join(dir, 'b.jsonl');
    expect((await bon(again, '--ref', LABELER)).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(LOCAL, 'utf8'));
    const other = path.join(dir, 'c.jsonl');
    expect((await bon(other, '--ref', LABELER, '--seed', '7', '--reward', 'mean', '--beta', '0.5')).code).toBe(0);
    const c = read(other);
    expect(c[0]!.answers[0]!.seed).toBe(sampleSeed(7, c[0]!.id, 0));
    for (const a of c.flatMap((r) => r.answers)) {
      expect(a.reward).toBeCloseTo(0.5 * (a.policy_logprob! / a.policy_tokens! - a.reference_logprob! / a.reference_tokens!), 12);
    }
  });

  test('the policy as its own reference: every reward is 0, and the first answer is chosen', async () => {
    const out = path.join(dir, 'self.jsonl');
    expect((await bon(out, '--ref', POLICY)).code).toBe(0);
    for (const row of read(out)) {
      expect(row.answers.every((a) => a.reward === 0)).toBe(true);
      expect(row.chosen_index).toBe(0);
    }
  });

  test('the old --n still sets the samples for one release, with a one-line deprecation note on stderr', async () => {
    // Two prompts are enough to show the samples per prompt (the last --limit given wins, as for any flag).
    const r = await bon(path.join(dir, 'old-n.jsonl'), '--ref', LABELER, '--n', '2', '--limit', '2', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('rlaifv: --n is deprecated and will be removed in the next release; use --samples.\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ prompts: 2, answers: 2 * 2 });
  });

  test('bad flags: exit 2 with a message naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--samples', '0'], /--samples must be a whole number ≥ 1, got "0"/],
      // The old spelling, kept for one release: parsed like --samples, with a deprecation note.
      [['--n', '0'], /--n is deprecated and will be removed in the next release; use --samples\.\n(.|\n)*--n must be a whole number ≥ 1, got "0"/],
      [['--beta', '-1'], /--beta must be a positive number, got "-1"/],
      [['--reward', 'max'], /option '--reward <variant>' argument 'max' is invalid\. Allowed choices are sum, mean/],
      [['--temperature', 'hot'], /--temperature must be a number from 0 to 5/],
      [[], /required option '--ref <model>' not specified/],
      [['--ref', 'm@http://'], /rlaifv: --ref: "m@http:\/\/" is not MODEL@URL with a base URL such as http:\/\/host:8000\/v1/],
      [['--ref', path.join(dir, 'no-model')], /rlaifv: reference: Model folder .*no-model does not exist/],
    ];
    for (const [args, message] of cases) {
      const r = await runNode(['bon', '--prompts', PROMPTS, '--policy', POLICY, '--quiet', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const missing = await runNode(['bon', '--prompts', path.join(dir, 'none.jsonl'), '--policy', POLICY, '--ref', POLICY, '--quiet']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Prompts file .*none\.jsonl does not exist/);
  });
});

describe('rlaifv bon with served models (the test server: real tiny models behind vLLM-style prompt_logprobs)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool() });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test("served policy and reference give the local run's answers, log-probs (within 1e-3) and choices; a server without prompt log-probs stops the run naming it", async () => {
    // The local run to match is the file's (the same command; a second run writes the same bytes, as a test above shows).
    const local = LOCAL;
    const served = path.join(tempDir(), 'served.jsonl');
    const r = await runNode(
      ['bon', '--prompts', PROMPTS, '--policy', `shapes-policy@${srv.url}`, '--ref', `shapes-labeler@${srv.url}`, '--limit', '5', '--samples', String(N), '--out', served, '--quiet', '--json'],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ prompts: 5, answers: 5 * N, failed_answers: 0 });
    const a = read(local);
    const b = read(served);
    expect(b.map((x) => x.id)).toEqual(a.map((x) => x.id));
    for (let i = 0; i < a.length; i++) {
      expect(b[i]!.answers.map((x) => x.text)).toEqual(a[i]!.answers.map((x) => x.text));
      for (let k = 0; k < N; k++) {
        const [x, y] = [a[i]!.answers[k]!, b[i]!.answers[k]!];
        expect(Math.abs(y.policy_logprob! - x.policy_logprob!)).toBeLessThan(1e-3);
        expect(Math.abs(y.reference_logprob! - x.reference_logprob!)).toBeLessThan(1e-3);
        expect(y.policy_tokens).toBe(x.policy_tokens);
      }
      // The same choice, unless two rewards are within the log-probs' float noise.
      const sorted = a[i]!.answers.map((x) => x.reward!).sort((p, q) => q - p);
      if (sorted[0]! - sorted[1]! > 1e-3) expect(b[i]!.chosen_index).toBe(a[i]!.chosen_index);
    }
    // A server that drops prompt_logprobs (as OpenAI's API cannot give them): the run stops, naming the endpoint.
    const plain = await TestServer.start({ mimic: 'sglang', deterministic: true, pool: pool() });
    try {
      const bad = await runNode(['bon', '--prompts', PROMPTS, '--policy', `shapes-policy@${plain.url}`, '--ref', LABELER, '--limit', '2', '--samples', '2', '--quiet']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/prompt_logprobs/);
      expect(bad.stderr).toContain(plain.url);
    } finally {
      await plain.close();
    }
  });
});

describe('bestOfOne (library)', () => {
  test('a prompt whose image cannot be read keeps its N answers as failures with the reason; nothing is chosen', async () => {
    const b = { generator: new LocalGenerator(pool(), POLICY), policy: new LocalSequenceScorer(pool(), POLICY), reference: new LocalSequenceScorer(pool(), POLICY) };
    const row = await bestOfOne({ id: 'x', imagePath: path.join(tempDir(), 'gone.png'), question: 'Where is the star?' }, b, { ...BON_DEFAULTS, n: 3 });
    expect(row).toMatchObject({ id: 'x', chosen: null, chosen_index: null, reward: null });
    expect(row.answers).toHaveLength(3);
    for (const a of row.answers) expect(a).toMatchObject({ text: null, reward: null, error: expect.stringMatching(/gone\.png/) });
  });
});
