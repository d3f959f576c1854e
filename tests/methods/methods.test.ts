// Feedback methods side by side on real rounds (tiny models, worker pool, SQLite files, the test server): every
// method's scores are stored per answer with their evidence, and pairing, length balance, pull, eval and the report
// work on them without asking which method made them. Plus the pair-quality gate and its top-up.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig, ConfigError } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, roundStats, type Db } from '../../src/store/index.js';
import { pull } from '../../src/export/pull.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { evaluateRound } from '../../src/eval/report.js';
import { gatherReport } from '../../src/report/data.js';
import { sampleSeed } from '../../src/stages/generate.js';
import { parseRubricScore } from '../../src/methods/index.js';
import { runDemoRound } from '../helpers/round.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../../scripts/mimic/openai-server.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for every round and the server here (tests/helpers/file-pool.ts).
const pool = filePool();

const all = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as Record<string, any>[];
const one = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as Record<string, any>;

/** Pulls the round's pairs as TRL rows and returns how many lines the file holds. */
async function pulledLines(db: Db, file: string): Promise<number> {
  const out = path.join(tempDir(), 'pairs.jsonl');
  await pull(db, { consumer: 'trainer', rounds: 'all', format: 'trl', out }, file);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
}

describe('parseRubricScore: the last line is the score', () => {
  test.each([
    ['The response mentions a star that is not there.\n2', 2],
    ['Justification.\n\n**3**\n', 3],
    ['Score: 1', 1],
    ['Total score: 0/3', 0],
    ['It is fine.\n2.', 2],
  ])('%j → %i', (reply, score) => expect(parseRubricScore(reply)).toBe(score));
  test.each([['2\nThat is my score because…'], ['4'], ['I would give it a 2 or 3'], [''], ['Score: two']])('%j → null', (reply) =>
    expect(parseRubricScore(reply)).toBeNull(),
  );
});

describe('oracle and local holistic rounds', () => {
  test('oracle: every answer scored by the truth, pairs of method oracle, delivered, eval and report read them', async () => {
    const { db, round, file } = await runDemoRound({ limit: 30, pool: pool(), edit: (c) => (c.feedback.method = 'oracle') });
    try {
      expect(round.feedback_method).toBe('oracle');
      expect(round.pair_method).toBe('oracle');
      const answers = one(db, 'SELECT COUNT(*) AS n FROM candidates').n;
      const scored = all(db, 'SELECT value, evidence_json, scorer FROM answer_scores WHERE method = ?', 'oracle');
      expect(scored).toHaveLength(answers);
      for (const s of scored) {
        const ev = JSON.parse(s.evidence_json);
        if (s.value !== null) expect(s.value).toBe(0 - ev.false);
        expect(s.scorer).toBe('shapes-truth');
      }
      // No labels were asked for: divide-and-conquer's label stage did not run.
      expect(one(db, 'SELECT COUNT(*) AS n FROM labels').n).toBe(0);
      const pairs = all(db, 'SELECT method, chosen_score, rejected_score, margin FROM pairs');
      expect(pairs.length).toBeGreaterThan(10);
      for (const p of pairs) {
        expect(p.method).toBe('oracle');
        expect(p.margin).toBeGreaterThanOrEqual(1);
        expect(p.chosen_score - p.rejected_score).toBeCloseTo(p.margin, 12);
      }
      const kept = one(db, 'SELECT COUNT(*) AS n FROM v_pairs WHERE kept = 1').n;
      expect(kept).toBe(roundStats(db, round.id).pairs_after_balance);
      expect(await pulledLines(db, file)).toBe(kept);
      const e = evaluateRound(loadEvalRound(db, round.id));
      expect(e.feedback_method).toBe('oracle');
      expect(e.check).toBeNull();
      expect(e.stored_pairs.kept.pairs).toBe(kept);
      // The truth's own pairs: chosen never has more false claims.
      expect(e.stored_pairs.all.inverted).toBe(0);
      const r = gatherReport(db, round.id);
      expect(r.round.feedback_method).toBe('oracle');
      expect(r.counts.pairs_after_balance).toBe(kept);
    } finally {
      db.close();
    }
  });

  test('holistic with the local yes/no labeler: p(yes) of one whole-answer question, pairs at least 0.05 apart', async () => {
    const { db, round } = await runDemoRound({ limit: 20, pool: pool(), edit: (c) => (c.feedback.method = 'holistic') });
    try {
      const rows = all(db, 'SELECT a.value, a.evidence_json, c.text FROM answer_scores a JOIN candidates c ON c.id = a.candidate_id WHERE a.round_id = ?', round.id);
      expect(rows).toHaveLength(200);
      for (const r of rows) {
        const ev = JSON.parse(r.evidence_json);
        expect(ev.question).toContain(r.text.trim());
        expect(r.value).toBe(ev.p_yes);
        expect(r.value).toBeGreaterThanOrEqual(0);
        expect(r.value).toBeLessThanOrEqual(1);
      }
      // The labeler's answers differ between answers: the score is not constant.
      expect(new Set(rows.map((r) => r.value.toFixed(3))).size).toBeGreaterThan(20);
      const pairs = all(db, 'SELECT method, margin FROM pairs WHERE round_id = ?', round.id);
      expect(pairs.length).toBeGreaterThan(0);
      for (const p of pairs) expect(p.margin).toBeGreaterThanOrEqual(0.05 - 1e-9);
    } finally {
      db.close();
    }
  });

  test('the gate needs divide: another method with a threshold is a config error', () => {
    const f = path.join(tempDir(), 'bad.json');
    writeFileSync(f, JSON.stringify({ feedback: { method: 'holistic', gate: { threshold: 0.9 } } }));
    expect(() => loadConfig(f)).toThrow(ConfigError);
    expect(() => loadConfig(f)).toThrow(/feedback\.gate\.threshold.*divide/);
  });
});

describe('the pair-quality gate with top-up', () => {
  test('unsure pairs stay stored but are never delivered; prompts without a kept pair get more samples, seeded', async () => {
    const tau = 0.9;
    const extra = 3;
    const { db, round, file, config } = await runDemoRound({
      limit: 40,
      pool: pool(),
      edit: (c) => {
        c.feedback.gate.threshold = tau;
        c.feedback.gate.top_up = extra;
      },
    });
    try {
      const gated = all(db, 'SELECT confidence, balance_kept FROM pairs WHERE gate_kept = 0');
      const kept = all(db, 'SELECT confidence FROM pairs WHERE gate_kept = 1');
      expect(gated.length).toBeGreaterThan(0);
      expect(kept.length).toBeGreaterThan(0);
      for (const p of gated) {
        expect(p.confidence).toBeLessThan(tau);
        expect(p.balance_kept).toBeNull(); // length balance never saw it
      }
      for (const p of kept) expect(p.confidence).toBeGreaterThanOrEqual(tau);
      expect(one(db, 'SELECT COUNT(*) AS n FROM pairs WHERE gate_kept IS NULL').n).toBe(0);
      const delivered = await pulledLines(db, file);
      expect(delivered).toBe(one(db, 'SELECT COUNT(*) AS n FROM pairs WHERE gate_kept = 1 AND balance_kept = 1').n);
      // The dropped pairs are counted as a drop reason too.
      const reasons = all(db, 'SELECT dropped_json FROM pairings').map((r) => JSON.parse(r.dropped_json).gate as number);
      expect(reasons.reduce((a, b) => a + b, 0)).toBe(gated.length);

      const topped = all(db, 'SELECT prompt_id FROM round_prompts WHERE round_id = ? AND extra_samples = ?', round.id, extra);
      expect(topped.length).toBeGreaterThan(0);
      for (const { prompt_id } of topped) {
        const c = all(db, 'SELECT sample_index, seed FROM candidates WHERE prompt_id = ? AND round_id = ? ORDER BY sample_index', prompt_id, round.id);
        expect(c.map((x) => x.sample_index)).toEqual(Array.from({ length: config.generate.samples + extra }, (_, i) => i));
        for (const x of c) expect(x.seed).toBe(sampleSeed(config.seed, prompt_id, x.sample_index));
        expect(new Set(c.map((x) => x.seed)).size).toBe(c.length);
      }
      // Prompts never topped up keep their N samples.
      const untouched = one(db, 'SELECT COUNT(*) AS n FROM round_prompts WHERE round_id = ? AND extra_samples = 0', round.id).n;
      expect(one(db, 'SELECT COUNT(*) AS n FROM candidates c JOIN round_prompts rp ON rp.prompt_id = c.prompt_id AND rp.round_id = c.round_id WHERE rp.extra_samples = 0').n).toBe(
        untouched * config.generate.samples,
      );
      // The evaluation recomputes the gated pairs exactly, and they are more accurate than the ungated ones.
      const e = evaluateRound(loadEvalRound(db, round.id));
      expect(e.check?.pairs_match).toBe(true);
      expect(e.stored_pairs.kept.pair_accuracy!).toBeGreaterThanOrEqual(e.stored_pairs.all.pair_accuracy!);
      // A rerun finds nothing to do and tops up nobody twice.
      const before = one(db, 'SELECT COUNT(*) AS n FROM candidates').n;
      await runRound(config, { choice: round.id, stages: STAGES, limit: 40, pool: pool() });
      expect(one(db, 'SELECT COUNT(*) AS n FROM candidates').n).toBe(before);
    } finally {
      db.close();
    }
  });
});

describe('holistic with a generative labeler on a server (Table 13 prompts)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
  });
  afterAll(async () => {
    await srv?.close();
  });

  function config(db: string) {
    const file = path.join(tempDir(), 'holistic.json');
    writeFileSync(
      file,
      JSON.stringify({
        db,
        seed: 3,
        generate: { samples: 3 },
        label: { backend: { type: 'openai', model: 'rubric-judge', base_urls: [srv.url], max_retries: 1, min_backoff_ms: 10, max_backoff_ms: 20 } },
        feedback: { method: 'holistic', holistic: { content_retries: 1 } },
      }),
    );
    return loadConfig(file, { workers: 2 }).config;
  }

  test('the rubric replies are stored as evidence, the score is their sum; an unparseable reply is retried, then a failure with its raw text; --retry-failed recovers', async () => {
    const file = path.join(tempDir(), 'holistic.sqlite');
    const c = config(file);
    // Answer first, then pick two answers whose text no other answer has, and break the judge's replies about them.
    const { round } = await runRound(c, { choice: 'next', stages: ['generate', 'divide'], limit: 6, pool: pool() });
    const db0 = openDb(file);
    const unique = all(db0, 'SELECT text FROM candidates WHERE round_id = ? GROUP BY text HAVING COUNT(*) = 1 ORDER BY length(text) DESC', round.id).map((r) => r.text as string);
    db0.close();
    expect(unique.length).toBeGreaterThanOrEqual(2);
    const body = (t: string) => JSON.stringify(t).slice(1, -1);
    // The first: both attempts at its hallucination rubric are prose without a score, so it fails with the raw reply.
    srv.inject({ kind: 'garbage', times: 2, model: 'rubric-judge', match: body(unique[0]!) });
    // The second: one bad reply, then a good one on the retry.
    srv.inject({ kind: 'garbage', times: 1, model: 'rubric-judge', match: body(unique[1]!) });
    await runRound(c, { choice: round.id, stages: STAGES, limit: 6, pool: pool() });
    const db = openDb(file);
    try {
      const rows = all(db, 'SELECT value, evidence_json FROM answer_scores WHERE round_id = ?', round.id);
      const fails = all(db, "SELECT item, reason, raw, attempts FROM failures WHERE round_id = ? AND stage = 'score'", round.id);
      expect(rows.length + fails.length).toBe(18);
      for (const r of rows) {
        const ev = JSON.parse(r.evidence_json);
        expect(Object.keys(ev.aspects)).toEqual(['hallucination', 'helpfulness']);
        expect(r.value).toBe(ev.aspects.hallucination.score + ev.aspects.helpfulness.score);
        expect(ev.aspects.hallucination.reply).toMatch(/do not match the image\.\n[0-3]$/);
      }
      expect(fails).toHaveLength(1);
      expect(fails[0]!.reason).toMatch(/hallucination: the reply's last line is not a score 0–3 after 2 attempts/);
      expect(fails[0]!.raw).toBe('I am sorry, I cannot help with that.');
      expect(one(db, 'SELECT text FROM candidates WHERE id = ?', fails[0]!.item).text).toBe(unique[0]);
      const retried = one(db, 'SELECT a.evidence_json FROM answer_scores a JOIN candidates c ON c.id = a.candidate_id WHERE c.text = ?', unique[1]);
      expect(JSON.parse(retried.evidence_json).aspects.hallucination.attempts).toBe(2);
      // The judged answers were paired by their rubric sums; the failed one's prompt waits for it.
      const stats = roundStats(db, round.id);
      expect(stats.feedback_method).toBe('holistic');
      expect(stats.failures_by_stage.score).toBe(fails.length);
    } finally {
      db.close();
    }
    await runRound(c, { choice: round.id, stages: STAGES, limit: 6, pool: pool(), retryFailed: true });
    const db2 = openDb(file);
    try {
      expect(one(db2, 'SELECT COUNT(*) AS n FROM answer_scores WHERE round_id = ?', round.id).n).toBe(18);
      expect(roundStats(db2, round.id).failures).toBe(0);
      expect(one(db2, 'SELECT COUNT(*) AS n FROM pairings WHERE round_id = ?', round.id).n).toBe(6);
      expect(one(db2, 'SELECT COUNT(*) AS n FROM failures WHERE round_id = ? AND retried_at IS NOT NULL', round.id).n).toBeGreaterThan(0);
    } finally {
      db2.close();
    }
  });
});
