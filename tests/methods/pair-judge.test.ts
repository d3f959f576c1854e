// The quality gate's judge model (Anyprefer's reward-model prompt, "score/10") on real rounds: a holistic round with
// the tiny local labeler, its candidate pairs rated by a judge on the test server (real parts: the rules divider and the
// real tiny labeler behind it). Verdicts stored as evidence, pairs kept or dropped by score/10, judged only until
// max_pairs pass, never asked twice, an unparseable reply a pair-stage failure with its raw text that --retry-failed
// takes up; plus the pure parts (the score's parse, the judged order, the filled prompt) and the doctor's probe.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { ANYPREFER_PAIR_PROMPT, configSchema, type GateJudgeConfig } from '../../src/config/schema.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { latestRound, openDb, roundStats, type Db } from '../../src/store/index.js';
import { judgeInOrder } from '../../src/feedback/gate.js';
import { makeRlaifvPairs, type ScoredAnswer } from '../../src/feedback/pairs.js';
import { PairJudge, parseJudgeScore } from '../../src/methods/pair-judge.js';
import { checkPairJudge } from '../../src/doctor/endpoints.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { evaluateRound } from '../../src/eval/report.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../../scripts/mimic/openai-server.js';
import { tempDir } from '../helpers/paths.js';
import { launchChromium, loadFile } from '../helpers/browser.js';
import { buildReport } from '../../src/report/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round and the server here (tests/helpers/file-pool.ts).
const pool = filePool();

const all = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as Record<string, any>[];
const one = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as Record<string, any>;

describe('parseJudgeScore: the last "N/10" of the reply', () => {
  test.each([
    ['Both responses are on topic.\nScore: 8/10', 8],
    ['**7/10**', 7],
    ['I would rate it 10 / 10.', 10],
    ['The first draft said 3/10, but on reflection: 6/10', 6],
    ['score/10: 9/10', 9],
  ])('%j → %d', (reply, want) => {
    expect(parseJudgeScore(reply)).toBe(want);
  });
  test.each([['Score: 8'], ['0/10'], ['11/10'], ['7.5/10'], ['8/100'], ['']])('%j → null', (reply) => {
    expect(parseJudgeScore(reply)).toBeNull();
  });
});

describe('judgeInOrder: candidates judged in a seeded order until max_pairs pass', () => {
  const answers: ScoredAnswer[] = Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, text: `answer ${i}`, words: 2, nClaims: 1, nJudged: 1, value: -i }));
  const all15 = () => makeRlaifvPairs(answers, { seed: 1, promptId: 'p', maxPairs: 'all' });

  test('stops at max_pairs kept; the judged ones under τ are gated, the rest sampled out; same seed, same pairs', async () => {
    const asked: string[] = [];
    // Confidence by rank gap: pairs one rank apart are unsure (0.4), wider ones sure (0.9).
    const judge = async (p: { chosenId: string; rejectedId: string; margin: number }) => {
      asked.push(`${p.chosenId}>${p.rejectedId}`);
      return p.margin === 1 ? 0.4 : 0.9;
    };
    const r = await judgeInOrder(all15(), { threshold: 0.7, maxPairs: 2, seed: 1, promptId: 'p' }, judge);
    expect(r.considered).toBe(15);
    expect(r.pairs).toHaveLength(2);
    expect(r.pairs.every((p) => p.confidence === 0.9)).toBe(true);
    expect(r.gated.every((p) => p.confidence === 0.4)).toBe(true);
    expect(asked).toHaveLength(2 + r.gated.length);
    expect(r.dropped.gate).toBe(r.gated.length);
    expect(r.dropped.sampled_out).toBe(15 - 2 - r.gated.length);
    const again = await judgeInOrder(all15(), { threshold: 0.7, maxPairs: 2, seed: 1, promptId: 'p' }, judge);
    expect(again.pairs.map((p) => p.chosenId + p.rejectedId)).toEqual(r.pairs.map((p) => p.chosenId + p.rejectedId));
    // Another prompt id is another order.
    const orders = new Set<string>();
    for (const promptId of ['p', 'q', 'r', 's', 't']) {
      const seen: string[] = [];
      await judgeInOrder(makeRlaifvPairs(answers, { seed: 1, promptId, maxPairs: 'all' }), { threshold: 0, maxPairs: 3, seed: 1, promptId }, async (p) => {
        seen.push(p.chosenId + p.rejectedId);
        return 1;
      });
      orders.add(seen.join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  test("max_pairs 'all' judges every candidate; a throwing judge stops the prompt", async () => {
    let n = 0;
    const r = await judgeInOrder(all15(), { threshold: 0.5, maxPairs: 'all', seed: 1, promptId: 'p' }, async () => (n++ % 2 ? 0.2 : 0.8));
    expect(n).toBe(15);
    expect(r.pairs.length + r.gated.length).toBe(15);
    await expect(judgeInOrder(all15(), { threshold: 0.5, maxPairs: 2, seed: 1, promptId: 'p' }, async () => { throw new Error('judge down'); })).rejects.toThrow('judge down');
  });

  test('kept only among sure pairs: over many prompts every sure pair is kept about equally often (judge-then-sample)', async () => {
    const counts = new Map<string, number>();
    for (let k = 0; k < 3000; k++) {
      const promptId = `p${k}`;
      const r = await judgeInOrder(makeRlaifvPairs(answers, { seed: 1, promptId, maxPairs: 'all' }), { threshold: 0.7, maxPairs: 2, seed: 1, promptId }, async (p) =>
        p.margin === 1 ? 0.4 : 0.9,
      );
      for (const p of r.pairs) counts.set(p.chosenId + p.rejectedId, (counts.get(p.chosenId + p.rejectedId) ?? 0) + 1);
    }
    // 10 sure pairs (gap ≥ 2), 2 kept per prompt: each about 3000 × 2 / 10 = 600 times; the 5 unsure ones never.
    expect(counts.size).toBe(10);
    for (const n of counts.values()) expect(Math.abs(n - 600)).toBeLessThan(100);
  });
});

describe('the judge prompt', () => {
  const cfg = (over: Partial<GateJudgeConfig> = {}): GateJudgeConfig => ({
    backend: { type: 'openai', model: 'm', base_urls: ['http://127.0.0.1:1/v1'] } as GateJudgeConfig['backend'],
    prompt: ANYPREFER_PAIR_PROMPT,
    task_field: 'vision-language understanding',
    examples: '',
    max_tokens: 64,
    temperature: 0,
    content_retries: 0,
    ...over,
  });

  test("is Anyprefer's D.2 reward-model prompt, filled in, with the earlier turns as its context", () => {
    const j = new PairJudge(loadConfigJudge(cfg()));
    const text = j.prompt({ imagePath: 'x.png', question: 'Where is the circle?', history: [], positive: ' The circle is on the left. ', negative: 'The circle is on the right.' });
    expect(text).toContain('Suppose that you are an expert in vision-language understanding, please rate an RLHF data pair');
    expect(text).toContain('give the score in the format of “score/10”.');
    expect(text).toMatch(/\n\nQuery: Where is the circle\?\n\nPositive Response: The circle is on the left\.\n\nNegative Response: The circle is on the right\.$/);
    expect(text).not.toMatch(/\n{3}/);
    const multi = j.prompt({
      imagePath: 'x.png',
      question: 'And its color?',
      history: [{ role: 'user', content: 'Where is the circle?' }, { role: 'assistant', content: 'On the left.' }],
      positive: 'It is red.',
      negative: 'It is blue.',
    });
    expect(multi).toContain('Conversation so far:\nUser: Where is the circle?\nAssistant: On the left.\n\nQuery: And its color?');
    // The id changes with the prompt, so verdicts of another prompt are never reused.
    expect(new PairJudge(loadConfigJudge(cfg({ task_field: 'shapes' }))).id).not.toBe(j.id);
  });
});

/** A judge config as the schema completes it (the backend's server defaults filled in). */
function loadConfigJudge(j: GateJudgeConfig): GateJudgeConfig {
  const judge = { ...j, backend: { type: 'openai', model: j.backend.model, base_urls: j.backend.base_urls } };
  return configSchema.parse({ feedback: { gate: { threshold: 0.5, judge } } }).feedback.gate.judge!;
}

describe('config', () => {
  const write = (feedback: unknown) => {
    const file = path.join(tempDir(), 'c.json');
    writeFileSync(file, JSON.stringify({ feedback }));
    return file;
  };
  const judge = { backend: { type: 'openai', model: 'j', base_urls: ['http://127.0.0.1:1/v1'] } };

  test('a judge needs a threshold; with a judge any method may have one', () => {
    expect(() => loadConfig(write({ gate: { judge } }))).toThrow(ConfigError);
    expect(() => loadConfig(write({ gate: { judge } }))).toThrow(/feedback\.gate\.judge: a judge model needs feedback\.gate\.threshold/);
    expect(() => loadConfig(write({ method: 'holistic', gate: { threshold: 0.7 } }))).toThrow(/set feedback\.gate\.judge/);
    const c = loadConfig(write({ method: 'holistic', gate: { threshold: 0.7, judge } })).config;
    expect(c.feedback.gate.judge!.prompt).toBe(ANYPREFER_PAIR_PROMPT);
    expect(() => loadConfig(write({ gate: { threshold: 0.7, judge: { backend: { type: 'local', model: 'models/shapes-labeler' } } } }))).toThrow(/feedback\.gate\.judge\.backend/);
  });
});

describe('a holistic round gated by a judge model on a server', () => {
  let srv: TestServer;
  let judgedAll = '';
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
  });
  afterAll(async () => {
    await srv?.close();
  });

  function config(db: string, over: Record<string, unknown> = {}) {
    const file = path.join(tempDir(), 'judged.json');
    writeFileSync(
      file,
      JSON.stringify({
        db,
        seed: 5,
        generate: { samples: 5 },
        feedback: {
          method: 'holistic',
          gate: {
            threshold: 0.7,
            judge: {
              backend: { type: 'openai', model: 'rubric-judge', base_urls: [srv.url], max_retries: 1, min_backoff_ms: 10, max_backoff_ms: 20 },
              content_retries: 1,
            },
          },
        },
        ...over,
      }),
    );
    return loadConfig(file, { workers: 2 }).config;
  }

  test('verdicts are stored, pairs kept by score/10 ≥ τ, judged only until 2 pass, never asked twice; a failed verdict is retried by --retry-failed', async () => {
    const file = path.join(tempDir(), 'judged.sqlite');
    const c = config(file);
    const limit = 10;
    const { round } = await runRound(c, { choice: 'next', stages: ['generate', 'divide', 'label', 'score'], limit, pool: pool() });
    // Break the judge on one prompt whose question no other of these prompts asks: its two attempts get prose.
    const db0 = openDb(file);
    const q = one(
      db0,
      `SELECT p.question FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id WHERE rp.round_id = ?
       GROUP BY p.question HAVING COUNT(*) = 1 ORDER BY MIN(rp.ordinal) LIMIT 1`,
      round.id,
    ).question as string;
    db0.close();
    srv.inject({ kind: 'garbage', times: 2, model: 'rubric-judge', match: `Query: ${q}` });
    const before = srv.stats.byModel['rubric-judge'] ?? 0;
    await runRound(c, { choice: round.id, stages: STAGES, limit, pool: pool() });
    const asked = (srv.stats.byModel['rubric-judge'] ?? 0) - before;

    const db = openDb(file);
    try {
      const judgments = all(db, 'SELECT * FROM pair_judgments WHERE round_id = ?', round.id);
      // Every request the judge got is a stored verdict, but for the broken prompt's two.
      expect(judgments.length).toBe(asked - 2);
      for (const j of judgments) {
        expect(j.reply).toMatch(/\nScore: (10|[1-9])\/10$/);
        expect(j.score).toBe(Number(/Score: (\d+)\/10$/.exec(j.reply)![1]));
        expect(j.judge).toMatch(/^rubric-judge\|anyprefer:[0-9a-f]{12}$/);
      }
      const pairs = all(db, 'SELECT * FROM pairs WHERE round_id = ?', round.id);
      expect(pairs.length).toBe(judgments.length);
      const verdict = new Map(judgments.map((j) => [`${j.chosen_id}>${j.rejected_id}`, j.score]));
      for (const p of pairs) {
        expect(p.method).toBe('holistic');
        expect(p.confidence).toBeCloseTo(verdict.get(`${p.chosen_id}>${p.rejected_id}`)! / 10, 12);
        expect(p.gate_kept).toBe(p.confidence >= 0.7 ? 1 : 0);
      }
      const kept = all(db, 'SELECT prompt_id, COUNT(*) AS n FROM pairs WHERE round_id = ? AND gate_kept = 1 GROUP BY prompt_id', round.id);
      expect(kept.every((k) => k.n <= 2)).toBe(true);
      expect(kept.length).toBeGreaterThan(0);
      expect(pairs.some((p) => p.gate_kept === 0)).toBe(true);
      // A prompt is judged only until 2 pairs pass: the unjudged candidates are sampled out.
      for (const pg of all(db, 'SELECT prompt_id, dropped_json FROM pairings WHERE round_id = ?', round.id)) {
        const n = kept.find((k) => k.prompt_id === pg.prompt_id)?.n ?? 0;
        if (JSON.parse(pg.dropped_json).sampled_out > 0) expect(n).toBe(2);
      }
      // The broken prompt: a pair-stage failure with the raw reply, no pairing; delivery leaves the dropped pairs out.
      const fails = all(db, "SELECT item, reason, raw FROM failures WHERE round_id = ? AND stage = 'pair'", round.id);
      expect(fails).toHaveLength(1);
      expect(one(db, 'SELECT question FROM prompts WHERE id = ?', fails[0]!.item).question).toBe(q);
      expect(fails[0]!.reason).toMatch(/^gate judge: the reply holds no score "N\/10" after 2 attempts \(pair \w+ over \w+\)$/);
      expect(fails[0]!.raw).toBe('I am sorry, I cannot help with that.');
      expect(one(db, 'SELECT COUNT(*) AS n FROM pairings WHERE round_id = ?', round.id).n).toBe(limit - 1);
      expect(one(db, 'SELECT COUNT(*) AS n FROM v_pairs WHERE round = ? AND kept = 1', round.id).n).toBeGreaterThan(0);
      expect(one(db, 'SELECT COUNT(*) AS n FROM v_pairs v JOIN pairs p ON p.id = v.pair_id WHERE v.round = ? AND v.kept = 1 AND p.gate_kept = 0', round.id).n).toBe(0);
      expect(roundStats(db, round.id).failures_by_stage.pair).toBe(1);
      // Eval reads the judged round; its recomputation check is off (the judge's verdicts cannot be recomputed).
      const report = evaluateRound(loadEvalRound(db, round.id));
      expect(report.check).toBeNull();
      expect(report.stored_pairs.all.pairs).toBe(kept.reduce((s, k) => s + k.n, 0));
    } finally {
      db.close();
    }

    // A rerun asks nothing; --retry-failed pairs the broken prompt, asking only for what was never judged.
    const n0 = srv.stats.byModel['rubric-judge'] ?? 0;
    await runRound(c, { choice: round.id, stages: STAGES, limit, pool: pool() });
    expect(srv.stats.byModel['rubric-judge'] ?? 0).toBe(n0);
    // The pair stage alone (`rlaifv pair --retry-failed`): the prompt is only paired again.
    await runRound(c, { choice: round.id, stages: ['pair'], limit, pool: pool(), retryFailed: true });
    const db2 = openDb(file);
    try {
      expect(one(db2, 'SELECT COUNT(*) AS n FROM pairings WHERE round_id = ?', round.id).n).toBe(limit);
      expect(roundStats(db2, round.id).failures).toBe(0);
      const n = one(db2, 'SELECT COUNT(*) AS n FROM pair_judgments WHERE round_id = ?', round.id).n;
      expect((srv.stats.byModel['rubric-judge'] ?? 0) - n0).toBe(n - (asked - 2));
      expect(one(db2, "SELECT retried_at FROM failures WHERE round_id = ? AND stage = 'pair'", round.id).retried_at).not.toBeNull();
      const usage = one(db2, "SELECT SUM(requests) AS n FROM usage WHERE round_id = ? AND stage = 'pair'", round.id);
      expect(usage.n).toBeGreaterThanOrEqual(n);
    } finally {
      db2.close();
    }
  });

  test('the judge drops the holistic pairs the claims contradict: kept pairs are more often right by the truth than all candidates', async () => {
    const file = (judgedAll = path.join(tempDir(), 'judged-truth.sqlite'));
    const c = config(file, { pair: { max_pairs: 'all' } });
    const { round } = await runRound(c, { choice: 'next', stages: STAGES, limit: 16, pool: pool() });
    const db = openDb(file);
    try {
      const r = evaluateRound(loadEvalRound(db, round.id));
      const pairs = all(db, 'SELECT gate_kept FROM pairs WHERE round_id = ?', round.id);
      // max_pairs all: every candidate is judged.
      expect(one(db, 'SELECT COUNT(*) AS n FROM pair_judgments WHERE round_id = ?', round.id).n).toBe(pairs.length);
      const keptShare = pairs.filter((p) => p.gate_kept === 1).length / pairs.length;
      expect(keptShare).toBeGreaterThan(0);
      expect(keptShare).toBeLessThan(1);
      // stored_pairs.all: the pairs the gate passed; gated: those it dropped. Against the same round with no gate...
      const ungated = config(path.join(tempDir(), 'ungated.sqlite'), { pair: { max_pairs: 'all' }, feedback: { method: 'holistic' } });
      const { round: r0 } = await runRound(ungated, { choice: 'next', stages: STAGES, limit: 16, pool: pool() });
      const db0 = openDb(ungated.db);
      try {
        const base = evaluateRound(loadEvalRound(db0, r0.id));
        expect(base.stored_pairs.all.pairs).toBe(pairs.length);
        expect(base.stored_pairs.gated).toBeNull();
        expect(r.stored_pairs.all.pairs + r.stored_pairs.gated!.pairs).toBe(pairs.length);
        expect(r.stored_pairs.all.pair_accuracy!).toBeGreaterThan(base.stored_pairs.all.pair_accuracy!);
        expect(r.stored_pairs.gated!.pair_accuracy!).toBeLessThan(base.stored_pairs.all.pair_accuracy!);
      } finally {
        db0.close();
      }
    } finally {
      db.close();
    }
  });

  test("the report's pair browser shows the gate's decision and the judge's reply (headless Chromium)", async () => {
    const db = openDb(judgedAll, { readonly: true });
    const browser = await launchChromium();
    try {
      const round = latestRound(db, 'train')!;
      const file = path.join(tempDir(), 'judged.html');
      writeFileAtomic(file, buildReport(db, round.id, { pairs: 1000 }));
      const gated = one(
        db,
        `SELECT p.id, j.score, j.reply FROM pairs p JOIN pair_judgments j ON j.round_id = p.round_id AND j.chosen_id = p.chosen_id
           AND j.rejected_id = p.rejected_id WHERE p.round_id = ? AND p.gate_kept = 0 ORDER BY p.id LIMIT 1`,
        round.id,
      );
      const kept = one(db, 'SELECT id, confidence FROM pairs WHERE round_id = ? AND gate_kept = 1 ORDER BY id LIMIT 1', round.id);
      const p = await loadFile(browser, file);
      try {
        const card = p.page.locator(`article.pair[data-pair-id="${gated.id}"]`);
        expect(await card.getAttribute('data-kept')).toBe('gated');
        expect(await card.locator('.badge').textContent()).toBe('dropped by the quality gate');
        expect(await card.locator('.gate').textContent()).toBe(`gate confidence ${(gated.score / 10).toFixed(2)}`);
        expect(await card.locator('details.judge summary').textContent()).toBe(`judge rubric-judge: ${gated.score}/10`);
        expect(await card.locator('details.judge pre').textContent()).toBe(gated.reply);
        const k = p.page.locator(`article.pair[data-pair-id="${kept.id}"]`);
        expect(await k.getAttribute('data-kept')).not.toBe('gated');
        expect(await k.locator('.gate').textContent()).toBe(`gate confidence ${kept.confidence.toFixed(2)}`);
        expect(p.errors).toEqual([]);
      } finally {
        await p.page.close();
      }
    } finally {
      await browser.close();
      db.close();
    }
  });

  test('doctor: the judge rates a probe pair; a model that does not write "N/10" fails with the reason', async () => {
    const base = { prompt: ANYPREFER_PAIR_PROMPT, task_field: 'vision-language understanding', examples: '', max_tokens: 64, temperature: 0, content_retries: 2 };
    const judge = config(path.join(tempDir(), 'd.sqlite')).feedback.gate.judge!;
    const okc = await checkPairJudge(judge);
    expect(okc).toHaveLength(1);
    expect(okc[0]!.status).toBe('ok');
    expect(okc[0]!.detail).toMatch(/rated a probe pair (10|[1-9])\/10/);
    // A reply without a score (injected: the judge behind this server always writes one).
    srv.inject({ kind: 'garbage', times: 1, model: 'rubric-judge' });
    const bad = await checkPairJudge({ ...base, backend: judge.backend });
    expect(bad[0]!.status).toBe('fail');
    expect(bad[0]!.detail).toMatch(/no rating: gate judge: the reply holds no score "N\/10" after 1 attempts; the reply ends "I am sorry, I cannot help with that\."/);
    // The tiny labeler is no judge: the server refuses the long prompt (vLLM's 400 with its context text), and the
    // check says so.
    const small = await checkPairJudge({ ...base, backend: { ...judge.backend, model: 'shapes-labeler' } });
    expect(small[0]!.status).toBe('fail');
    expect(small[0]!.detail).toMatch(/HTTP 400\): The decoder prompt \(length \d+\) is longer than the maximum model length of 160/);
  });
});
