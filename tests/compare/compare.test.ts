// rlaifv compare: the pure parts (verdict parse, pair outcome, win rate and its bootstrap interval, judge specs), then
// real evaluation rounds of the tiny policy in real SQLite files judged by the truth, by rlaifv's own claims and by a
// served VLM judge on the test server (ConvBench's pairwise prompt answered by real parts: the rules divider and the
// real tiny labeler), and the command line.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { comparePolicies, compareRounds, parseCompareVerdict, parseJudgeSpec, pairOutcome, tallyOf, type PromptTally } from '../../src/eval/runs/compare/index.js';
import { evaluatePolicy } from '../../src/eval/runs/policy-eval.js';
import { openDb, type Db } from '../../src/store/index.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { judgeAnswer } from '../../src/eval/truth.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../../scripts/mimic/openai-server.js';
import { checkCompareJudge } from '../../src/doctor/endpoints.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every evaluation and the server here (tests/helpers/file-pool.ts).
const pool = filePool();

describe('parseCompareVerdict: the last "Overall, Response X is better"', () => {
  test.each([
    ['Response A has errors. Overall, Response B is better.', 'second'],
    ['Therefore, for the first turn instruction, "Overall, Response A is better."', 'first'],
    ['**Overall, Response B is better**', 'second'],
    ['At first Overall, Response A is better; on reflection, Overall, Response B is better.', 'second'],
    ['overall, response a is the better one', 'first'],
    ['Response A is better overall.', null],
    ['Both are equally good, so I go with Response A, the first one.', null],
    ['', null],
  ])('%j', (reply, want) => {
    expect(parseCompareVerdict(reply)).toBe(want);
  });
});

describe('pairOutcome: both orders of a pair', () => {
  test('agreeing verdicts decide; opposite ones are a position flip and a tie', () => {
    // ab: A shown first; ba: B shown first.
    expect(pairOutcome('first', 'second')).toEqual({ outcome: 'a', flip: false });
    expect(pairOutcome('second', 'first')).toEqual({ outcome: 'b', flip: false });
    expect(pairOutcome('first', 'first')).toEqual({ outcome: 'tie', flip: true });
    expect(pairOutcome('second', 'second')).toEqual({ outcome: 'tie', flip: true });
    expect(pairOutcome('tie', 'tie')).toEqual({ outcome: 'tie', flip: false });
    expect(pairOutcome('first', 'tie')).toEqual({ outcome: 'tie', flip: false });
  });
});

describe('tallyOf: win rate with ties as half, bootstrap interval over prompts', () => {
  const t = (id: string, a: number, b: number, ties: number, flips = 0, failed = 0): PromptTally => ({ promptId: id, kind: 'k', wins_a: a, wins_b: b, ties, flips, failed });
  test('sums and the win rate', () => {
    const r = tallyOf([t('p1', 3, 1, 0), t('p2', 1, 1, 2, 1), t('p3', 0, 0, 0, 0, 4)], 0);
    expect(r).toMatchObject({ prompts: 2, pairs: 8, wins_a: 4, wins_b: 2, ties: 2, position_flips: 1, failed: 4 });
    expect(r.win_rate_a).toBeCloseTo(5 / 8, 12);
    expect(r.ci95![0]).toBeLessThanOrEqual(r.win_rate_a!);
    expect(r.ci95![1]).toBeGreaterThanOrEqual(r.win_rate_a!);
  });
  test('the interval is seeded, narrows with more prompts, and is a point when every prompt agrees', () => {
    const few = Array.from({ length: 10 }, (_, i) => t(`p${i}`, i % 3 === 0 ? 2 : 1, i % 3 === 0 ? 0 : 1, 0));
    const many = Array.from({ length: 200 }, (_, i) => t(`p${i}`, i % 3 === 0 ? 2 : 1, i % 3 === 0 ? 0 : 1, 0));
    expect(tallyOf(few, 1).ci95).toEqual(tallyOf(few, 1).ci95);
    const w = (x: [number, number] | null) => x![1] - x![0];
    expect(w(tallyOf(many, 1).ci95)).toBeLessThan(w(tallyOf(few, 1).ci95) / 2);
    expect(tallyOf([t('p1', 0, 0, 3), t('p2', 0, 0, 1)], 0).ci95).toEqual([0.5, 0.5]);
    expect(tallyOf([], 0)).toMatchObject({ pairs: 0, win_rate_a: null, ci95: null });
  });
});

describe('parseJudgeSpec', () => {
  test('truth, claims, MODEL@URL; anything else is named', () => {
    expect(parseJudgeSpec('truth')).toEqual({ type: 'truth' });
    expect(parseJudgeSpec('claims')).toEqual({ type: 'claims' });
    const s = parseJudgeSpec('judge-34b@http://10.0.0.5:8000/v1', '--judge', 'JUDGE_KEY');
    expect(s.type === 'served' && [s.backend.model, s.backend.base_urls, s.backend.api_key_env]).toEqual(['judge-34b', ['http://10.0.0.5:8000/v1'], 'JUDGE_KEY']);
    expect(() => parseJudgeSpec('gpt')).toThrow(ConfigError);
    expect(() => parseJudgeSpec('gpt')).toThrow(/--judge: "gpt" is not a judge/);
    expect(() => parseJudgeSpec('judge@not a url')).toThrow(/--judge: "judge@not a url" is not a judge/);
    expect(() => parseJudgeSpec('judge@http://')).toThrow(/--judge: "judge@http:\/\/" is not MODEL@URL with a base URL/);
  });
});

describe('compare on real evaluation rounds of the tiny policy', () => {
  const dir = tempDir();
  const dbFile = path.join(dir, 'compare.sqlite');
  const prompts = path.join(ROOT, 'data', 'shapes', 'test', 'prompts.jsonl');
  const config = loadConfig(undefined, { db: dbFile, workers: 2 }).config;
  const policy = { type: 'local' as const, model: path.join(ROOT, 'models', 'shapes-policy') };
  let cool = 0;
  let hot = 0;
  let db: Db;
  beforeAll(async () => {
    // The same policy at T 0.7 and at T 1.6: the hotter one says more that is false.
    const a = await evaluatePolicy(config, { policy, prompts, limit: 40, samples: 4, temperature: 0.7, greedy: false, pool: pool() });
    const b = await evaluatePolicy(config, { policy, prompts, limit: 40, samples: 4, temperature: 1.6, greedy: false, pool: pool() });
    cool = a.sampled_round;
    hot = b.sampled_round;
    db = openDb(dbFile);
  });
  afterAll(() => db?.close());

  test('truth and claims judges: the cooler round wins with an interval above 50%, mirrored when swapped; claims agree with truth', async () => {
    const o = { seed: 0, a: 'T0.7', b: 'T1.6', promptsFile: prompts };
    const truth = await compareRounds(db, cool, hot, { ...o, judge: { type: 'truth' } });
    const claims = await compareRounds(db, cool, hot, { ...o, judge: { type: 'claims' } });
    expect(truth.pairs).toBe(160);
    expect(truth.prompts).toBe(40);
    expect(truth.ci95![0]).toBeGreaterThan(0.5);
    expect(claims.ci95![0]).toBeGreaterThan(0.5);
    expect(truth.position_flips).toBe(0);
    const swapped = await compareRounds(db, hot, cool, { ...o, judge: { type: 'truth' } });
    expect([swapped.wins_a, swapped.wins_b, swapped.ties]).toEqual([truth.wins_b, truth.wins_a, truth.ties]);
    expect(swapped.win_rate_a).toBeCloseTo(1 - truth.win_rate_a!, 12);
    // By kind: every kind's pairs add up to the whole.
    expect(Object.values(truth.by_kind).reduce((n, k) => n + k.pairs, 0)).toBe(truth.pairs);

    // Pair by pair: where the truth has a winner, the claims judge names the same one (or calls it a tie) almost always.
    const key = (r: number) => {
      const m = new Map<string, [number, number]>();
      for (const p of loadEvalRound(db, r).prompts) for (const a of p.answers) {
        const j = judgeAnswer(p.truth, a);
        m.set(`${p.id}/${a.sampleIndex}`, [j.nFalse, j.nTrue]);
      }
      return m;
    };
    const rej = (r: number) => new Map((db.prepare('SELECT c.prompt_id || \'/\' || c.sample_index AS k, s.n_rejected AS r, s.n_judged - s.n_rejected AS acc FROM candidates c JOIN scores s ON s.candidate_id = c.id WHERE c.round_id = ?').all(r) as { k: string; r: number; acc: number }[]).map((x) => [x.k, [x.r, x.acc] as const]));
    const [ta, tb, ca, cb] = [key(cool), key(hot), rej(cool), rej(hot)];
    let decided = 0;
    let agree = 0;
    for (const [k, [fa, trA]] of ta) {
      const [fb, trB] = tb.get(k)!;
      const truthSays = fa !== fb ? Math.sign(fb - fa) : Math.sign(trA - trB);
      if (truthSays === 0) continue;
      decided++;
      const [ra, accA] = ca.get(k)!;
      const [rb, accB] = cb.get(k)!;
      const claimsSays = ra !== rb ? Math.sign(rb - ra) : Math.sign(accA - accB);
      if (claimsSays === truthSays) agree++;
    }
    expect(decided).toBeGreaterThan(60);
    expect(agree / decided).toBeGreaterThanOrEqual(0.9);
  });

  test('the same policy bytes under another folder give the same answers (same recorded seeds): every pair a tie', async () => {
    const copy = path.join(dir, 'policy-copy');
    cpSync(policy.model, copy, { recursive: true });
    const run = runCliSync(['compare', '--a', policy.model, '--b', copy, '--prompts', prompts, '--limit', '40', '--samples', '4', '--judge', 'truth', '--db', dbFile, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ judge: 'truth', prompts: 40, pairs: 160, wins_a: 0, wins_b: 0, ties: 160, win_rate_a: 0.5, ci95: [0.5, 0.5], position_flips: 0 });
    for (const k of ['a', 'b', 'judge', 'prompts', 'pairs', 'wins_a', 'wins_b', 'ties', 'win_rate_a', 'ci95', 'position_flips']) expect(r).toHaveProperty(k);
    // The answers really were generated twice (two evaluation rounds), with the same seeds and texts.
    const same = db.prepare('SELECT count(*) AS n FROM candidates a JOIN candidates b ON a.prompt_id = b.prompt_id AND a.sample_index = b.sample_index AND a.seed = b.seed AND a.text = b.text WHERE a.round_id = ? AND b.round_id = ?').get(r.a_round, r.b_round) as { n: number };
    expect(r.a_round).not.toBe(r.b_round);
    expect(same.n).toBe(160);
  });

  test('bad input: a missing policy folder and --judge truth on prompts without truth are named, exit 2, before B answers', () => {
    const run = (args: string[]) => runCliSync(['compare', ...args, '--db', path.join(dir, 'bad.sqlite'), '--quiet']);
    const missing = run(['--a', path.join(dir, 'no-such-policy'), '--b', policy.model, '--prompts', prompts, '--limit', '2']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`the policy ${path.join(dir, 'no-such-policy')}: no such model folder`);
    const stripped = path.join(dir, 'no-truth.jsonl');
    writeFileSync(stripped, readFileSync(prompts, 'utf8').trim().split('\n').slice(0, 3).map((l) => {
      const p = JSON.parse(l);
      return JSON.stringify({ id: `${p.id}-nt`, image: path.join(path.dirname(prompts), p.image), question: p.question });
    }).join('\n') + '\n');
    const copy = path.join(dir, 'policy-b');
    cpSync(policy.model, copy, { recursive: true });
    const noTruth = run(['--a', policy.model, '--b', copy, '--prompts', stripped, '--judge', 'truth', '--samples', '2']);
    expect(noTruth.status).toBe(2);
    expect(noTruth.stderr).toContain('--judge truth: the prompts of');
    const bad = openDb(path.join(dir, 'bad.sqlite'), { readonly: true });
    try {
      // Only A's evaluation round was made.
      expect(bad.prepare("SELECT count(*) AS n FROM rounds WHERE purpose = 'eval'").get()).toEqual({ n: 1 });
    } finally {
      bad.close();
    }
  });

  describe('a served judge (ConvBench\'s pairwise prompt) on the test server', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
    });
    afterAll(async () => {
      await srv?.close();
    });

    test('a served policy (MODEL@URL) and its model folder answer alike with the same recorded seeds: every pair a tie', async () => {
      const cfg = loadConfig(undefined, { db: path.join(dir, 'served.sqlite'), workers: 2 }).config;
      const served = parseJudgeSpec(`shapes-policy@${srv.url}`);
      if (served.type !== 'served') throw new Error('not served');
      const r = await comparePolicies(cfg, { a: served.backend, b: policy, prompts, limit: 8, samples: 3, temperature: 0.7, judge: { type: 'truth' }, pool: pool() });
      expect(r).toMatchObject({ pairs: 24, ties: 24, identical_answers: 24, win_rate_a: 0.5 });
      expect(r.a).toBe('shapes-policy');
    });

    test('both orders asked; hedged replies read by the extraction prompt; order flips are ties; stored and never asked twice', async () => {
      const judge = parseJudgeSpec(`rubric-judge@${srv.url}`);
      // Smaller rounds of the same seeds (the first 12 prompts, 2 answers each): each verdict costs the stand-in a
      // division and a labeler call per claim of both answers.
      const a = (await evaluatePolicy(config, { policy, prompts, limit: 12, samples: 2, temperature: 0.7, greedy: false, pool: pool() })).sampled_round;
      const b = (await evaluatePolicy(config, { policy, prompts, limit: 12, samples: 2, temperature: 1.6, greedy: false, pool: pool() })).sampled_round;
      const before = srv.stats.requests;
      const r = await compareRounds(db, a, b, { seed: 0, a: 'T0.7', b: 'T1.6', promptsFile: prompts, judge });
      const asked = srv.stats.requests - before;
      const rows = db.prepare('SELECT winner, attempts, reply FROM compare_verdicts').all() as { winner: string; attempts: number; reply: string }[];
      expect(r.failed).toBe(0);
      expect(r.pairs).toBe(24);
      expect(rows).toHaveLength(2 * 24);
      // Hedged replies (nothing between the answers) went through the extraction prompt: one more request each.
      const extracted = rows.filter((x) => x.attempts === 2);
      expect(extracted.length).toBeGreaterThan(0);
      expect(extracted.every((x) => /--- extraction ---\nOverall, Response A is better/.test(x.reply))).toBe(true);
      expect(asked).toBe(rows.length + extracted.length);
      // Its bias for the response shown first is measured: those pairs flip with the order and are ties.
      expect(r.position_flips).toBeGreaterThan(0);
      expect(r.ties).toBeGreaterThanOrEqual(r.position_flips);
      // Where it names a winner, it names the one rlaifv's claims judge names (both read the same labeler).
      const claims = await compareRounds(db, a, b, { seed: 0, a: 'T0.7', b: 'T1.6', promptsFile: prompts, judge: { type: 'claims' } });
      expect(r.wins_a).toBeGreaterThan(r.wins_b);
      expect(Math.sign(r.wins_a - r.wins_b)).toBe(Math.sign(claims.wins_a - claims.wins_b));
      const again = await compareRounds(db, a, b, { seed: 0, a: 'T0.7', b: 'T1.6', promptsFile: prompts, judge });
      expect(srv.stats.requests - before).toBe(asked);
      expect(again).toEqual(r);
      // doctor's probe: both orders through the same code; the stand-in sees the probe answers' difference.
      const probe = await checkCompareJudge(judge.type === 'served' ? judge.backend : (null as never));
      expect(probe).toHaveLength(1);
      expect(['ok', 'warn']).toContain(probe[0]!.status);
      expect(probe[0]!.detail).toMatch(/compared a probe pair in both orders/);
      const dead = await checkCompareJudge({ ...(judge as { backend: any }).backend, base_urls: ['http://127.0.0.1:9/v1'] });
      expect(dead[0]!.status).toBe('fail');
    });
  });
});
